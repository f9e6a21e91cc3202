import OarlogCore
import OarlogLive

/// How fast a replay runs.
public enum Pacing: Sendable, Equatable {
    /// As fast as the machine allows.
    case asFastAsPossible
    /// Paced by the trace clock: `speed` trace seconds per wall second (1 = real time).
    case clock(speed: Double)
}

/// Holds records back until their trace time, scaled by the pacing speed, has come on the
/// monotonic clock. Live sources need no pacer: they arrive in real time by themselves.
public struct Pacer: Sendable {
    public let pacing: Pacing
    private let clock = MonotonicClock()
    private var origin: (trace: Seconds, monotonic: Seconds)?

    public init(_ pacing: Pacing) {
        self.pacing = pacing
    }

    /// Waits, if pacing asks for it, until `traceTime` is due.
    public mutating func wait(for traceTime: Seconds) {
        guard case .clock(let speed) = pacing, speed > 0 else { return }
        guard let origin else {
            origin = (traceTime, clock.now())
            return
        }
        let due = origin.monotonic + (traceTime - origin.trace) / speed
        // Sleeping for less than a millisecond per record would cost more than it paces.
        if due - clock.now() > 0.001 { clock.sleep(until: due) }
    }
}
