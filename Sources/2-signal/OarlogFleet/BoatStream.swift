import OarlogCore

/// Why a receiver (the coach, the archive) did not apply a message, as `/api/fleet` counts them
/// under `refused` (docs/FLEET.md "Limits and trust").
public enum FleetRefusal: String, Sendable, CaseIterable, Comparable {
    /// The payload could not be read (`SignalKDelta`).
    case unreadable
    /// A topic id outside the rule: a-z, 0-9, `-` and `_`, at most 64.
    case badID = "bad_id"
    /// A session that is no ISO 8601 time, or starts more than an hour ahead of the receiver's clock.
    case badSession = "bad_session"
    /// A session older than the one the boat is on (a retained or backlogged message from before).
    case oldSession = "old_session"
    /// Another session than the boat's, not taken up: it did not start low, did not show enough
    /// messages in order, or the boat's own stream kept talking.
    case otherSession = "other_session"
    /// A sequence number far ahead of the boat's stream, or more than the boat could have sent.
    case sequenceJump = "seq_jump"
    /// A name that is not the name of the topic's boat (its topic id is another's): not shown.
    case nameClaimed = "name_claimed"
    /// A new boat when the receiver follows its most already.
    case tooManyBoats = "too_many_boats"
    /// The archive: a new session file past the boat's allowance for the hour.
    case sessionLimit = "session_limit"

    public static func < (a: FleetRefusal, b: FleetRefusal) -> Bool { a.rawValue < b.rawValue }
}

/// One boat's stream as a receiver follows it: in order, each message once (`MessageOrder`),
/// and only the boat's own. Anyone who may publish under the boat's topic could send a message
/// of another session or a sequence number far ahead; neither is applied while the stream the
/// receiver follows keeps talking. Another stream is taken up only as a real restart looks: a
/// session newer than the current one (or a current one that never showed `confirmations`
/// messages), starting at a low sequence number, with `confirmations` messages in order, once
/// the current session has ended or been silent for `handoverSilence` seconds. The same holds
/// for a jump of more than `maximumJump` within a session (a receiver's queue at the broker
/// that overflowed). What waits meanwhile is held (at most `heldLimit` messages a stream) and
/// delivered when the stream is taken up; what is not taken up within `candidateLifetime` is
/// refused and counted.
public struct BoatStream: Sendable {
    public struct Limits: Sendable {
        public var handoverSilence: Double = 15
        public var confirmations = 3
        /// A new session's first message heard has at most this sequence number.
        public var restartSequence = 64
        /// How far ahead of the next expected message one may be and still wait in order.
        public var maximumJump = 2000
        /// A sequence number above `messagesPerSecond` × elapsed + `sequenceSlack` is not believed
        /// (a boat sends about 3 a second: a catch and a stroke a stroke, a fix a second).
        public var messagesPerSecond: Double = 50
        public var sequenceSlack = 1000
        /// How far a session's start may be ahead of the receiver's clock.
        public var futureTolerance: Double = 3600
        public var candidateLifetime: Double = 60
        public var candidateLimit = 4
        public var heldLimit = 512
        public init() {}
    }

    /// What one message (or a tick) did: the messages now in order, and what was refused. A
    /// delivered message of another session than the one before is the boat's restart.
    public struct Step: Sendable {
        public var delivered: [FleetMessage] = []
        public var refused: [FleetRefusal: Int] = [:]
        mutating func refuse(_ reason: FleetRefusal, _ count: Int = 1) {
            if count > 0 { refused[reason, default: 0] += count }
        }
    }

    /// Another stream claiming the boat: another session, or this one far ahead.
    struct Candidate: Sendable {
        var session: String
        var start: Double
        var sameSession: Bool
        var firstHeard: Double
        var order = MessageOrder()
        var held: [FleetMessage] = []
        var dropped = 0
        var hasEnd: Bool { held.contains { if case .session(let e) = $0.content { !e.started } else { false } } }
    }

    public let limits: Limits
    public private(set) var session: String?
    public private(set) var sessionStart = 0.0
    /// The current session has said it ended.
    public private(set) var ended = false
    /// Messages delivered in the current session.
    public private(set) var delivered = 0
    private var order = MessageOrder()
    private var lastProgress = -Double.infinity
    private var candidates: [Candidate] = []
    private var earlierDuplicates = 0, earlierMissed = 0

    public init(limits: Limits = Limits()) { self.limits = limits }

    public var duplicates: Int { earlierDuplicates + order.duplicates }
    public var missed: Int { earlierMissed + order.missed }
    /// The other stream with most messages held, if any: shown to the coach as a warning.
    public var pending: (session: String, messages: Int)? {
        candidates.max { $0.held.count < $1.held.count }.map { ($0.session, $0.held.count + $0.dropped) }
    }

    public mutating func accept(_ message: FleetMessage, now: Double) -> Step {
        var step = Step()
        guard let start = UTCTime.parseISO8601(message.session), start <= now + limits.futureTolerance else {
            step.refuse(.badSession)
            return step
        }
        guard Double(message.sequence) <= limits.messagesPerSecond * max(0, message.elapsed) + Double(limits.sequenceSlack) else {
            step.refuse(.sequenceJump)
            return step
        }
        guard let current = session else {
            session = message.session
            sessionStart = start
            deliver(order.accept(message, now: now), now: now, into: &step)
            return step
        }
        if message.session == current {
            if let next = order.expected, message.sequence > next + limits.maximumJump {
                hold(message, start: start, sameSession: true, now: now, into: &step)
            } else {
                deliver(order.accept(message, now: now), now: now, into: &step)
            }
        } else if start <= sessionStart && delivered >= limits.confirmations {
            step.refuse(.oldSession)
        } else {
            hold(message, start: start, sameSession: false, now: now, into: &step)
        }
        handOverIfDue(now: now, into: &step)
        return step
    }

    /// Gives up gaps that waited too long, takes up a stream whose time has come, and refuses
    /// those that waited too long (call about once a second).
    public mutating func tick(now: Double) -> Step {
        var step = Step()
        deliver(order.tick(now: now), now: now, into: &step)
        handOverIfDue(now: now, into: &step)
        for c in candidates where now - c.firstHeard > limits.candidateLifetime {
            step.refuse(c.sameSession ? .sequenceJump : .otherSession, c.held.count + c.dropped + c.order.waitingCount)
        }
        candidates.removeAll { now - $0.firstHeard > limits.candidateLifetime }
        return step
    }

    /// Whether anything is held or waiting (a tick may deliver or refuse it).
    public var hasWaiting: Bool { !candidates.isEmpty || order.waitingCount > 0 }

    private mutating func deliver(_ messages: [FleetMessage], now: Double, into step: inout Step) {
        guard !messages.isEmpty else { return }
        lastProgress = now
        delivered += messages.count
        for m in messages {
            switch m.content {
            case .session(let e) where !e.started: ended = true
            case .status(let s) where s.state == .ended: ended = true
            default: break
            }
        }
        step.delivered += messages
    }

    private mutating func hold(_ message: FleetMessage, start: Double, sameSession: Bool, now: Double, into step: inout Step) {
        let reason: FleetRefusal = sameSession ? .sequenceJump : .otherSession
        if let k = candidates.firstIndex(where: { $0.session == message.session && $0.sameSession == sameSession }) {
            if candidates[k].held.count >= limits.heldLimit {
                candidates[k].dropped += 1
            } else {
                candidates[k].held += candidates[k].order.accept(message, now: now)
            }
            return
        }
        // A new session is heard from its start (or nearly): a restart, not a stream joined midway
        // (after a session that ended, the next may be heard midway: the receiver was away).
        guard sameSession || ended || message.sequence <= limits.restartSequence, candidates.count < limits.candidateLimit else {
            step.refuse(reason)
            return
        }
        var c = Candidate(session: message.session, start: start, sameSession: sameSession, firstHeard: now)
        c.held = c.order.accept(message, now: now)
        candidates.append(c)
    }

    private mutating func handOverIfDue(now: Double, into step: inout Step) {
        let currentGone = ended || now - lastProgress >= limits.handoverSilence || delivered < limits.confirmations
        guard currentGone, let k = candidates.firstIndex(where: { $0.held.count >= limits.confirmations || $0.hasEnd }) else { return }
        let c = candidates.remove(at: k)
        // What the old stream still had waiting goes first, then the gap to the new one is counted.
        deliver(order.flush(), now: now, into: &step)
        earlierDuplicates += order.duplicates
        earlierMissed += order.missed
        if c.sameSession, let next = order.expected, let first = c.held.first { earlierMissed += first.sequence - next }
        step.refuse(c.sameSession ? .sequenceJump : .otherSession, c.dropped)
        if !c.sameSession {
            session = c.session
            sessionStart = c.start
            ended = false
            delivered = 0
            // Jumps within the old session are of a stream no longer followed.
            for old in candidates where old.sameSession { step.refuse(.sequenceJump, old.held.count + old.dropped + old.order.waitingCount) }
            candidates.removeAll { $0.sameSession }
        }
        // The candidate's own order carries on, with its counts.
        order = c.order
        deliver(c.held, now: now, into: &step)
    }
}
