/// Puts one boat's messages back in order and drops those seen before, by their sequence number:
/// after a lost connection a boat sends again what the broker had not acknowledged, and a broker
/// restart can hand on a backlog after newer messages. A message ahead of the next expected one
/// waits (up to `maximumWaiting`, or `patience` seconds) for the gap to fill; then the gap is
/// given up and counted.
public struct MessageOrder: Sendable {
    public let maximumWaiting: Int
    public let patience: Double
    /// The next sequence number to deliver; nil before the first message.
    public private(set) var expected: Int?
    private var waiting: [Int: FleetMessage] = [:]
    private var waitingSince: Double?
    public private(set) var duplicates = 0
    /// Messages given up as lost (a gap that did not fill).
    public private(set) var missed = 0

    public init(maximumWaiting: Int = 2000, patience: Double = 60) {
        self.maximumWaiting = maximumWaiting
        self.patience = patience
    }

    /// Takes a message received at `now` (seconds, any clock) and returns those now in order.
    public mutating func accept(_ message: FleetMessage, now: Double) -> [FleetMessage] {
        guard let next = expected else {
            expected = message.sequence + 1
            return [message]
        }
        if message.sequence < next || waiting[message.sequence] != nil {
            duplicates += 1
            return []
        }
        if message.sequence == next {
            var out = [message]
            expected = next + 1
            drain(into: &out)
            // The stream moves: what still waits is ahead of it, not stuck behind a lost message,
            // so its patience starts again (one message far ahead cannot make the gap be given up
            // and turn the boat's next messages into duplicates).
            if !waiting.isEmpty { waitingSince = now }
            return out
        }
        waiting[message.sequence] = message
        if waitingSince == nil { waitingSince = now }
        return waiting.count > maximumWaiting ? giveUpGap() : []
    }

    /// Gives up a gap that has waited longer than `patience` (call now and then).
    public mutating func tick(now: Double) -> [FleetMessage] {
        guard let since = waitingSince, now - since > patience else { return [] }
        return giveUpGap()
    }

    public var waitingCount: Int { waiting.count }

    /// Gives up every gap now and returns what waited, in order (the stream is left for another).
    public mutating func flush() -> [FleetMessage] {
        var out: [FleetMessage] = []
        while !waiting.isEmpty { out += giveUpGap() }
        return out
    }

    private mutating func giveUpGap() -> [FleetMessage] {
        guard let first = waiting.keys.min(), let next = expected else { return [] }
        missed += first - next
        expected = first
        var out: [FleetMessage] = []
        drain(into: &out)
        return out
    }

    private mutating func drain(into out: inout [FleetMessage]) {
        while let next = expected, let m = waiting.removeValue(forKey: next) {
            out.append(m)
            expected = next + 1
        }
        waitingSince = waiting.isEmpty ? nil : waitingSince
    }
}
