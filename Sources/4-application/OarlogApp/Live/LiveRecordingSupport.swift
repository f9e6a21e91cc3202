import Foundation
import OarlogCore
import OarlogLive
import Synchronization

/// Drops what the sensors delivered before Go (session time < 0); a gap that runs past Go is cut
/// to start at 0.
public struct FromSessionStart<Base: RecordSource>: RecordSource {
    public var base: Base
    public init(_ base: Base) { self.base = base }
    public mutating func next() throws -> TraceRecord? {
        while let r = try base.next() {
            guard let t = r.time, t < 0 else { return r }
            if case .gap(var g) = r, g.end > 0 {
                g.start = 0
                return .gap(g)
            }
        }
        return nil
    }
}

/// Stops the live sources when asked (SIGINT/SIGTERM, a Stop button) or at a deadline, so a
/// pipeline blocked waiting for a silent sensor still ends.
public final class StopWatcher: @unchecked Sendable {
    private let live: LiveSources
    private let deadline: Seconds?
    private let shouldStop: @Sendable () -> Bool
    private let onDeadline: @Sendable () -> Void
    private let done = Atomic<Bool>(false)

    /// - Parameters:
    ///   - deadline: a monotonic clock reading at which to stop.
    ///   - onDeadline: called when the deadline stops the session (so the rest of the program stops too).
    public init(live: LiveSources, deadline: Seconds?, shouldStop: @escaping @Sendable () -> Bool,
                onDeadline: @escaping @Sendable () -> Void = {}) {
        self.live = live
        self.deadline = deadline
        self.shouldStop = shouldStop
        self.onDeadline = onDeadline
    }

    public func start() {
        let thread = Thread { [self] in
            let clock = MonotonicClock()
            while !done.load(ordering: .relaxed) {
                let late = deadline.map { clock.now() >= $0 } ?? false
                if shouldStop() || late {
                    if late { onDeadline() }
                    live.stop()
                    return
                }
                clock.sleep(until: clock.now() + 0.1)
            }
        }
        thread.name = "oarlog-stop-watcher"
        thread.start()
    }

    public func finish() { done.store(true, ordering: .relaxed) }
}

/// Lines typed by the cox become notes, stamped with the session time when Enter was pressed.
public enum TypedNotes {
    /// Reads lines with `readLine` on a thread of its own until it returns nil.
    public static func start(live: LiveSources, clock: SessionClock, readLine: @escaping @Sendable () -> String? = { Swift.readLine() }) {
        let thread = Thread {
            let monotonic = MonotonicClock()
            while let line = readLine() {
                let text = line.trimmingCharacters(in: .whitespaces)
                guard !text.isEmpty else { continue }
                live.inject(.note(Note(time: clock.sessionTime(ofMonotonic: monotonic.now()), text: text)))
            }
        }
        thread.name = "oarlog-notes"
        thread.start()
    }
}

/// 3… 2… 1… Go!, one a second, ending at session time 0 on `clock`.
public enum Countdown {
    /// Calls `tick(k)` for k = seconds… 1, each at session time −(k−1)… , and returns at 0
    /// (or as soon as `shouldStop`).
    public static func run(seconds: Int, clock: SessionClock, tick: (Int) -> Void, shouldStop: () -> Bool) {
        guard seconds > 0 else { return }
        let monotonic = MonotonicClock()
        for k in stride(from: seconds, through: 1, by: -1) {
            if shouldStop() { return }
            tick(k)
            let until = clock.monotonicOrigin - Double(k - 1)
            while monotonic.now() < until && !shouldStop() { monotonic.sleep(until: min(until, monotonic.now() + 0.1)) }
        }
    }
}
