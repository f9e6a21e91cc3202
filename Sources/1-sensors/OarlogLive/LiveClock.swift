import OarlogCore

/// The time a live device reader lives by: `now()` to stamp records and measure silence, and a
/// sleep (backoff, a read waiting for data) that a stop can cut short.
///
/// `MonotonicClock` is the real one (CLOCK_MONOTONIC). `ManualClock` is for tests: its time moves
/// only when the test advances it, and sleepers wake when their deadline passes — so reconnects,
/// backoff and outages can be tested exactly, without a device and without waiting.
public protocol LiveClock: Sendable {
    /// Seconds on this clock (arbitrary origin, never goes back).
    func now() -> Seconds

    /// Sleeps until `now()` reaches `deadline`, or until `unless()` turns true — checked at least
    /// every `pollInterval` seconds of real time and whenever `wakeSleepers()` is called.
    /// Returns true when the deadline was reached, false when `unless()` cut the sleep short.
    @discardableResult
    func sleep(until deadline: Seconds, pollInterval: Seconds, unless: () -> Bool) -> Bool

    /// Makes every sleep in progress check its `unless` condition now (a stop was requested).
    func wakeSleepers()
}

extension MonotonicClock: LiveClock {
    /// Sleeps in steps of at most `pollInterval`, checking `unless` between them.
    @discardableResult
    public func sleep(until deadline: Seconds, pollInterval: Seconds, unless: () -> Bool) -> Bool {
        let step = max(pollInterval, 0.001)
        while !unless() {
            let left = deadline - now()
            if left <= 0 { return true }
            sleep(until: now() + min(left, step))
        }
        return false
    }

    /// Nothing to do: sleeps already check their condition every `pollInterval`.
    public func wakeSleepers() {}
}
