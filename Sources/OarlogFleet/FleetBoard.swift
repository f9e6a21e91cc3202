import OarlogCore

/// What a coach's launch knows of every boat, built from their messages: the latest figures,
/// the strokes of the session under way, the recent track, and how the messages arrived
/// (duplicates dropped, gaps). Messages are put in order per boat and session first
/// (`MessageOrder`). Memory is bounded: `strokeLimit` strokes and `trackLimit` positions a boat.
public struct FleetBoard: Sendable {
    public struct Boat: Sendable {
        public var id: String
        public var name: String
        public var session: String
        public var title = ""
        /// started, rowing, paused or ended (from the latest status or session message).
        public var state = "started"
        public var latitude: Degrees?
        public var longitude: Degrees?
        public var speed: MetresPerSecond?
        public var course: Degrees?
        public var strokeRate: StrokesPerMinute?
        public var split: SecondsPer500m?
        public var distance: Metres?
        /// Strokes received in this session (the last stroke's index when none was lost).
        public var strokeCount = 0
        /// Strokes the boat's display has counted: the last catch received (less one withdrawn),
        /// ahead of `strokeCount` by the strokes not yet concluded.
        public var caughtStrokes = 0
        public var lastStrokeIndex = 0
        /// Whether every stroke so far arrived once and in order (index 1, 2, 3, …).
        public var strokesInOrder = true
        public var elapsed: Seconds = 0
        /// UTC of the latest message's content, and when (on the receiver's clock) it arrived.
        public var lastUTC: Double = 0
        public var lastHeard: Double = 0
        public var summary: FleetSummary?
        public var strokes: [FleetStroke] = []
        /// Recent positions: (UTC, latitude, longitude, session distance).
        public var track: [(utc: Double, latitude: Degrees, longitude: Degrees, distance: Metres?)] = []
        public var notes: [(utc: Double, text: String)] = []
        public var fenceEvents: [(utc: Double, event: FleetFenceEvent)] = []
        public var messages = 0
        fileprivate var order = MessageOrder()
        public var duplicates: Int { order.duplicates }
        public var missed: Int { order.missed }
    }

    public let strokeLimit: Int
    public let trackLimit: Int
    public private(set) var boats: [String: Boat] = [:]
    /// Payloads that could not be read, and the last reason.
    public private(set) var unreadable = 0
    public private(set) var lastProblem: String?

    public init(strokeLimit: Int = 20_000, trackLimit: Int = 1200) {
        self.strokeLimit = strokeLimit
        self.trackLimit = trackLimit
    }

    /// Reads a payload from `topic` and applies what is now in order. Returns those messages.
    @discardableResult
    public mutating func receive(topic: String, payload: [UInt8], topics: FleetTopics, now: Double) -> [FleetMessage] {
        guard let (boat, kind) = topics.parse(topic) else { return [] }
        do {
            return apply(try SignalKDelta.message(boat: boat, kind: kind, payload: payload), now: now)
        } catch {
            unreadable += 1
            lastProblem = "\(topic): \(error)"
            return []
        }
    }

    /// Applies one message (after ordering). Returns the messages delivered in order.
    @discardableResult
    public mutating func apply(_ message: FleetMessage, now: Double) -> [FleetMessage] {
        if let known = boats[message.boat]?.session, known != message.session {
            // A session that started after the one we have: the boat starts again. An older one
            // (a retained message from before) is passed over.
            guard message.session > known else { return [] }
            let name = message.boatName ?? boats[message.boat]?.name ?? message.boat
            boats[message.boat] = Boat(id: message.boat, name: name, session: message.session)
        }
        // Taken out of the dictionary while it changes: a copy left in it would make every
        // append copy the boat's strokes and track.
        var boat = boats.removeValue(forKey: message.boat) ?? Boat(id: message.boat, name: message.boatName ?? message.boat, session: message.session)
        let delivered = boat.order.accept(message, now: now)
        for m in delivered { update(&boat, with: m, now: now) }
        boats[message.boat] = boat
        return delivered
    }

    /// Gives up gaps that waited too long; returns what that delivered.
    public mutating func tick(now: Double) -> [FleetMessage] {
        var all: [FleetMessage] = []
        for id in boats.compactMap({ $0.value.order.waitingCount > 0 ? $0.key : nil }) {
            guard var boat = boats.removeValue(forKey: id) else { continue }
            let delivered = boat.order.tick(now: now)
            for m in delivered { update(&boat, with: m, now: now) }
            boats[id] = boat
            all += delivered
        }
        return all
    }

    private func update(_ boat: inout Boat, with m: FleetMessage, now: Double) {
        if let name = m.boatName { boat.name = name }
        boat.messages += 1
        boat.lastHeard = now
        boat.lastUTC = max(boat.lastUTC, m.utc)
        boat.elapsed = max(boat.elapsed, m.elapsed)
        switch m.content {
        case .caught(let c):
            if c.withdrawn {
                if boat.caughtStrokes == c.index { boat.caughtStrokes = c.index - 1 }
            } else {
                boat.caughtStrokes = max(boat.caughtStrokes, c.index)
                boat.strokeRate = c.smoothedRate ?? c.strokeRate
                if boat.state != "ended" { boat.state = "rowing" }
            }
        case .stroke(let s):
            boat.caughtStrokes = max(boat.caughtStrokes, s.index)
            if s.index != boat.lastStrokeIndex + 1 { boat.strokesInOrder = false }
            boat.lastStrokeIndex = s.index
            boat.strokeCount += 1
            boat.strokeRate = s.smoothedRate ?? s.strokeRate
            if let split = s.split { boat.split = split }
            if let d = s.distance { boat.distance = max(boat.distance ?? 0, d) }
            if boat.strokes.count >= strokeLimit { boat.strokes.removeFirst(strokeLimit / 10) }
            boat.strokes.append(s)
            if boat.state != "ended" { boat.state = "rowing" }
        case .position(let p):
            boat.latitude = p.latitude
            boat.longitude = p.longitude
            boat.speed = p.speed
            boat.course = p.course
            if let d = p.distance { boat.distance = max(boat.distance ?? 0, d) }
            if boat.track.count >= trackLimit { boat.track.removeFirst(trackLimit / 10) }
            boat.track.append((m.utc, p.latitude, p.longitude, p.distance))
        case .status(let s):
            boat.state = s.state.rawValue
            boat.strokeRate = s.strokeRate
            boat.split = s.split
            boat.speed = s.speed ?? boat.speed
            boat.distance = max(boat.distance ?? 0, s.distance)
        case .note(let text):
            if boat.notes.count >= 200 { boat.notes.removeFirst() }
            boat.notes.append((m.utc, text))
        case .fence(let f):
            if boat.fenceEvents.count >= 500 { boat.fenceEvents.removeFirst() }
            boat.fenceEvents.append((m.utc, f))
        case .session(let s):
            boat.title = s.title
            if !s.started {
                boat.state = "ended"
                boat.summary = s.summary
                if let d = s.summary?.distance { boat.distance = d }
            }
        }
    }
}
