/// One message to publish.
public struct OutgoingMessage: Sendable, Equatable {
    public var topic: String
    public var payload: [UInt8]
    public var retain: Bool
    public init(topic: String, payload: [UInt8], retain: Bool = false) {
        self.topic = topic
        self.payload = payload
        self.retain = retain
    }
}

/// Store-and-forward for QoS 1: every message stays here until the broker has acknowledged it.
/// Messages go out in order, at most `window` unacknowledged at a time; when the connection is
/// lost, the unacknowledged ones go back to the front of the queue, in order, and are sent again
/// when it returns (a receiver may then see one twice and drops it by its sequence number).
///
/// Memory is bounded: past `limit` queued messages the oldest is dropped and counted (at 3
/// messages a second a 200,000-message outbox holds 18 hours without a broker).
public struct PublishOutbox: Sendable {
    public let window: Int
    public let limit: Int
    /// Queued, not yet handed to the connection, oldest first (from `head`).
    private var queue: [OutgoingMessage] = []
    private var head = 0
    /// Handed to the connection, waiting for the broker's acknowledgement: (message id, message), in send order.
    private var inflight: [(id: Int32, message: OutgoingMessage)] = []
    public private(set) var acknowledged = 0
    /// Messages the broker answered with an error (for example not authorised for the topic), by topic.
    public private(set) var refused = 0
    public private(set) var lastRefusal: (topic: String, reason: String)?
    /// Messages dropped because the outbox was full.
    public private(set) var dropped = 0
    public private(set) var resent = 0

    public init(window: Int = 100, limit: Int = 200_000) {
        precondition(window > 0 && limit > 0)
        self.window = window
        self.limit = limit
    }

    /// Messages not yet acknowledged (queued or in flight).
    public var undelivered: Int { queue.count - head + inflight.count }
    public var isEmpty: Bool { undelivered == 0 }
    public var inFlight: Int { inflight.count }

    public mutating func add(_ message: OutgoingMessage) {
        if undelivered >= limit {
            if head < queue.count { head += 1 } else { inflight.removeFirst() }
            dropped += 1
        }
        queue.append(message)
    }

    /// The next message to send, if the window allows one.
    public func next() -> OutgoingMessage? {
        inflight.count < window && head < queue.count ? queue[head] : nil
    }

    /// The message `next()` gave was handed to the connection as message `id`.
    public mutating func sent(id: Int32) {
        inflight.append((id, queue[head]))
        head += 1
        if head > 4096 && head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
    }

    /// The message `next()` gave can never be sent (libmosquitto refused it: a bad topic, too
    /// large): counted as refused, not kept.
    public mutating func refuseNext(reason: String) {
        refused += 1
        lastRefusal = (queue[head].topic, reason)
        head += 1
    }

    /// The broker acknowledged message `id`; `reasonCode` ≥ 0x80 is a refusal (MQTT 5).
    public mutating func acknowledge(id: Int32, reasonCode: Int = 0, reason: @autoclosure () -> String = "") {
        guard let k = inflight.firstIndex(where: { $0.id == id }) else { return }
        let message = inflight.remove(at: k).message
        if reasonCode >= 0x80 {
            refused += 1
            lastRefusal = (message.topic, reason())
        } else {
            acknowledged += 1
        }
    }

    /// The connection was lost: what was in flight is queued again, first, in order.
    public mutating func connectionLost() {
        guard !inflight.isEmpty else { return }
        resent += inflight.count
        let back = inflight.map(\.message)
        inflight.removeAll()
        if head >= back.count {
            head -= back.count
            for (k, m) in back.enumerated() { queue[head + k] = m }
        } else {
            queue.replaceSubrange(0..<head, with: back)
            head = 0
        }
    }
}
