import OarlogCore
import OarlogWorkouts

/// What a coach's launch knows of every boat, built from their messages: the latest figures,
/// the strokes of the session under way, the recent track, and how the messages arrived
/// (duplicates dropped, gaps). Messages are put in order per boat and session first, and only
/// the boat's own stream is followed (`BoatStream`); what is not applied is counted in
/// `refused` by reason. Memory is bounded: at most `maximumBoats` boats, each gone after
/// `expiry` seconds unheard, with `strokeLimit` strokes, `trackLimit` positions, 50 notes and
/// 100 fence events a boat.
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
        /// The crew's heart rates in the boat's latest status.
        public var heartRates: [FleetHeartRate] = []
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
        /// Without their fields (the board shows the line; the archive keeps the fields).
        public var fenceEvents: [(utc: Double, event: FleetFenceEvent)] = []
        /// Where the crew is in its workout plan (the latest status), and when the boat sent it.
        public var workout: WorkoutStatus?
        public var workoutUTC: Double?
        /// The plan's steps rowed this session (at most a plan's steps, the latest kept).
        public var intervals: [WorkoutInterval] = []
        public var messages = 0
        fileprivate var stream: BoatStream
        public var duplicates: Int { stream.duplicates }
        public var missed: Int { stream.missed }
        /// Another stream claiming this boat, held and not applied (a warning for the coach).
        public var pending: (session: String, messages: Int)? { stream.pending }

        init(id: String, session: String, stream: BoatStream) {
            self.id = id
            self.name = id
            self.session = session
            self.stream = stream
        }
    }

    public static let noteLimit = 50
    public static let fenceEventLimit = 100
    public let strokeLimit: Int
    public let trackLimit: Int
    public let maximumBoats: Int
    public let expiry: Double
    public let limits: BoatStream.Limits
    public private(set) var boats: [String: Boat] = [:]
    /// Messages not applied, by why (`FleetRefusal`).
    public private(set) var refused: [FleetRefusal: Int] = [:]
    /// Payloads that could not be read, and the last reason.
    public var unreadable: Int { refused[.unreadable] ?? 0 }
    public private(set) var lastProblem: String?

    /// - Parameters:
    ///   - maximumBoats: boats followed at once (a regatta's launch sees a few dozen); a new one past it is refused.
    ///   - expiry: seconds unheard after which a boat leaves the board.
    public init(strokeLimit: Int = 20_000, trackLimit: Int = 1200, maximumBoats: Int = 64, expiry: Double = 1800,
                limits: BoatStream.Limits = .init()) {
        self.strokeLimit = strokeLimit
        self.trackLimit = trackLimit
        self.maximumBoats = maximumBoats
        self.expiry = expiry
        self.limits = limits
    }

    /// Reads a payload from `topic` and applies what is now in order. Returns those messages.
    @discardableResult
    public mutating func receive(topic: String, payload: [UInt8], topics: FleetTopics, now: Double) -> [FleetMessage] {
        switch topics.read(topic: topic, payload: payload) {
        case nil: return []
        case .success(let message): return apply(message, now: now)
        case .failure(let refusal):
            refused[refusal.reason, default: 0] += 1
            lastProblem = refusal.description
            return []
        }
    }

    /// Applies one message (after ordering). Returns the messages delivered in order.
    @discardableResult
    public mutating func apply(_ message: FleetMessage, now: Double) -> [FleetMessage] {
        guard FleetTopics.isBoatID(message.boat) else {
            refused[.badID, default: 0] += 1
            return []
        }
        if boats[message.boat] == nil, boats.count >= maximumBoats {
            refused[.tooManyBoats, default: 0] += 1
            return []
        }
        // Taken out of the dictionary while it changes: a copy left in it would make every
        // append copy the boat's strokes and track.
        var boat = boats.removeValue(forKey: message.boat) ?? Boat(id: message.boat, session: message.session, stream: BoatStream(limits: limits))
        let step = boat.stream.accept(message, now: now)
        apply(step, to: &boat, now: now)
        // A boat whose first message was refused is not kept.
        if boat.stream.session != nil { boats[message.boat] = boat }
        return step.delivered
    }

    /// Gives up gaps that waited too long and settles other streams claiming a boat; returns
    /// what that delivered.
    public mutating func tick(now: Double) -> [FleetMessage] {
        var all: [FleetMessage] = []
        for id in boats.compactMap({ $0.value.stream.hasWaiting ? $0.key : nil }) {
            guard var boat = boats.removeValue(forKey: id) else { continue }
            let step = boat.stream.tick(now: now)
            apply(step, to: &boat, now: now)
            boats[id] = boat
            all += step.delivered
        }
        return all
    }

    /// Takes off the board the boats not heard of for `expiry` seconds; returns their ids.
    public mutating func expire(now: Double) -> [String] {
        let gone = boats.compactMap { now - $0.value.lastHeard > expiry ? $0.key : nil }
        for id in gone { boats.removeValue(forKey: id) }
        return gone
    }

    private mutating func apply(_ step: BoatStream.Step, to boat: inout Boat, now: Double) {
        for (reason, count) in step.refused { refused[reason, default: 0] += count }
        for m in step.delivered {
            if m.session != boat.session {
                // The boat started again (its stream says so): a fresh board for the new session.
                let name = boat.name
                boat = Boat(id: boat.id, session: m.session, stream: boat.stream)
                boat.name = name
            }
            update(&boat, with: m, now: now)
        }
    }

    private mutating func update(_ boat: inout Boat, with m: FleetMessage, now: Double) {
        if let name = m.boatName {
            // Only the topic's own name: "B" on another boat's topic would show that boat's figures as B's.
            if FleetTopics.boatID(name) == boat.id { boat.name = name } else { refused[.nameClaimed, default: 0] += 1 }
        }
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
            boat.heartRates = s.heartRates
        case .note(let text):
            if boat.notes.count >= Self.noteLimit { boat.notes.removeFirst() }
            boat.notes.append((m.utc, text))
        case .fence(let f):
            if boat.fenceEvents.count >= Self.fenceEventLimit { boat.fenceEvents.removeFirst() }
            boat.fenceEvents.append((m.utc, FleetFenceEvent(name: f.name, fence: f.fence, text: f.text)))
        case .workout(let s):
            boat.workout = s
            boat.workoutUTC = m.utc
        case .interval(let i):
            if boat.intervals.count >= WorkoutLimits.maximumSteps { boat.intervals.removeFirst() }
            boat.intervals.append(i)
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
