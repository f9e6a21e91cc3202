#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import OarlogCore

/// Reads the system's monotonic clock. An SBC has no real-time clock and gpsd steps the system
/// time once it has a fix, so every sample is stamped on this clock; the wall-clock offset at the
/// session origin is recorded once, beside it, to place the session in UTC.
public struct MonotonicClock: Sendable {
    public init() {}

    /// Seconds on CLOCK_MONOTONIC (arbitrary origin, never steps).
    public func now() -> Seconds {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Seconds(ts.tv_sec) + Seconds(ts.tv_nsec) * 1e-9
    }

    /// Seconds since 1970-01-01 UTC on the real-time clock (may step).
    public func wallClockNow() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    /// Sleeps until the monotonic clock reads `deadline` (returns at once if it already has).
    public func sleep(until deadline: Seconds) {
        let remaining = deadline - now()
        guard remaining > 0 else { return }
        var ts = timespec(tv_sec: Int(remaining), tv_nsec: Int((remaining - Seconds(Int(remaining))) * 1e9))
        var rest = timespec()
        while nanosleep(&ts, &rest) != 0 && errno == EINTR { ts = rest }
    }
}

/// The origin of a session: where t = 0 sits on the monotonic clock and what the wall clock said
/// then. `utc(of:)` places any monotonic session time in UTC without trusting later clock steps.
public struct SessionClock: Sendable, Equatable {
    /// Monotonic clock reading at t = 0.
    public let monotonicOrigin: Seconds
    /// Wall-clock (UTC, seconds since 1970) reading at t = 0.
    public let wallClockAtOrigin: Double

    public init(monotonicOrigin: Seconds, wallClockAtOrigin: Double) {
        self.monotonicOrigin = monotonicOrigin
        self.wallClockAtOrigin = wallClockAtOrigin
    }

    /// Starts a session now.
    public static func start(clock: MonotonicClock = MonotonicClock()) -> SessionClock {
        SessionClock(monotonicOrigin: clock.now(), wallClockAtOrigin: clock.wallClockNow())
    }

    /// Session time (s from origin) of a monotonic clock reading.
    public func sessionTime(ofMonotonic t: Seconds) -> Seconds { t - monotonicOrigin }
    /// UTC (s since 1970) of a session time.
    public func utc(of sessionTime: Seconds) -> Double { wallClockAtOrigin + sessionTime }
}
