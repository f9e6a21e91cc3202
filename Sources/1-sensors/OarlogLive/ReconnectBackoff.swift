import OarlogCore

/// The wait between attempts to (re)open a device: `initialDelay`, doubled per failed attempt up
/// to `maximumDelay`, back to `initialDelay` once data flows again. It also counts the failed
/// attempts in a row so a long outage logs its first failure and every 30th, not every retry.
public struct ReconnectBackoff: Sendable, Equatable {
    public let initialDelay: Seconds
    public let maximumDelay: Seconds
    /// The wait before the next attempt.
    public private(set) var delay: Seconds
    /// Failed attempts since the last successful open.
    public private(set) var failuresInARow = 0

    public init(initialDelay: Seconds, maximumDelay: Seconds) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.delay = initialDelay
    }

    /// Counts a failed attempt; true if this one deserves a log line (the first, then every 30th).
    public mutating func recordFailure() -> Bool {
        failuresInARow += 1
        return failuresInARow == 1 || failuresInARow % 30 == 0
    }

    /// The device opened: the failure count starts again.
    public mutating func recordOpen() { failuresInARow = 0 }

    /// Data arrived: the next outage starts with the shortest wait.
    public mutating func reset() { delay = initialDelay }

    /// Doubles the wait, up to `maximumDelay`.
    public mutating func lengthen() { delay = min(delay * 2, maximumDelay) }
}
