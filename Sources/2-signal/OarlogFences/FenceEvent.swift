import OarlogCore

/// A boat crossing a gate line, interpolated between the two fixes either side of it.
public struct GateCrossing: Sendable, Equatable {
    public var gate: FenceID
    /// When the straight track between the two fixes meets the line (linear in time).
    public var time: Seconds
    /// Where it meets the line.
    public var position: GeoPoint
    /// Boat speed at the crossing: the receiver's Doppler speeds interpolated when both fixes have
    /// one, else the distance between the fixes over their interval.
    public var speed: MetresPerSecond
    /// Direction of travel between the two fixes, degrees clockwise from true north.
    public var heading: Degrees
    /// The crossing went against the gate's required direction.
    public var wrongWay: Bool
    /// Time between the two fixes the crossing was interpolated from.
    public var fixInterval: Seconds

    public init(gate: FenceID, time: Seconds, position: GeoPoint, speed: MetresPerSecond, heading: Degrees,
                wrongWay: Bool, fixInterval: Seconds) {
        self.gate = gate
        self.time = time
        self.position = position
        self.speed = speed
        self.heading = heading
        self.wrongWay = wrongWay
        self.fixInterval = fixInterval
    }
}

/// Why a pair of fixes was not trusted to time a crossing.
public enum RejectionReason: Sendable, Equatable {
    /// The fixes were further apart in time than the monitor allows.
    case gap(Seconds)
    /// The fixes imply a speed no rowing boat reaches (a GPS jump).
    case jump(MetresPerSecond)
}

/// A gate the track crossed between two fixes that could not be trusted: counted, not timed.
public struct RejectedCrossing: Sendable, Equatable {
    public var gate: FenceID
    /// The earlier and later fix times of the rejected pair.
    public var after: Seconds
    public var before: Seconds
    public var reason: RejectionReason
    public init(gate: FenceID, after: Seconds, before: Seconds, reason: RejectionReason) {
        self.gate = gate
        self.after = after
        self.before = before
        self.reason = reason
    }
}

/// One leg of a course piece, gate to gate.
public struct CourseSegment: Sendable, Equatable {
    /// 1-based leg number in the piece.
    public var number: Int
    public var from: FenceID
    public var to: FenceID
    public var startTime: Seconds
    public var endTime: Seconds
    /// Course distance of the leg (from the gates' `distance_m` or the distance between them).
    public var distance: Metres
    /// Strokes whose catch fell in the leg.
    public var strokes: Int
    /// Mean stroke rate of those strokes (`nil` if none had a rate).
    public var strokeRate: StrokesPerMinute?
    /// Gates of the course skipped inside this leg.
    public var missedGates: [FenceID]

    public init(number: Int, from: FenceID, to: FenceID, startTime: Seconds, endTime: Seconds, distance: Metres,
                strokes: Int = 0, strokeRate: StrokesPerMinute? = nil, missedGates: [FenceID] = []) {
        self.number = number
        self.from = from
        self.to = to
        self.startTime = startTime
        self.endTime = endTime
        self.distance = distance
        self.strokes = strokes
        self.strokeRate = strokeRate
        self.missedGates = missedGates
    }

    public var duration: Seconds { endTime - startTime }
    /// Mean split over the leg, s/500 m.
    public var split: SecondsPer500m? { meanSplit(distance: distance, duration: duration) }
}

/// A course rowed from start to finish.
public struct CoursePiece: Sendable, Equatable {
    public var course: String
    public var startTime: Seconds
    public var finishTime: Seconds
    public var distance: Metres
    public var segments: [CourseSegment]
    public init(course: String, startTime: Seconds, finishTime: Seconds, distance: Metres, segments: [CourseSegment]) {
        self.course = course
        self.startTime = startTime
        self.finishTime = finishTime
        self.distance = distance
        self.segments = segments
    }
    public var duration: Seconds { finishTime - startTime }
    /// Mean split over the piece, s/500 m.
    public var split: SecondsPer500m? { meanSplit(distance: distance, duration: duration) }
    public var strokes: Int { segments.reduce(0) { $0 + $1.strokes } }
    /// Stroke rate over the piece: each leg's mean weighted by its stroke count.
    public var strokeRate: StrokesPerMinute? {
        var sum = 0.0, n = 0
        for s in segments { if let r = s.strokeRate { sum += r * Double(s.strokes); n += s.strokes } }
        return n > 0 ? sum / Double(n) : nil
    }
    /// Gates skipped anywhere in the piece.
    public var missedGates: [FenceID] { segments.flatMap(\.missedGates) }
}

/// The mean split of `distance` rowed in `duration`, s/500 m; nil unless both are positive.
private func meanSplit(distance: Metres, duration: Seconds) -> SecondsPer500m? {
    distance > 0 && duration > 0 ? duration * 500 / distance : nil
}

/// Something wrong with how a course was rowed.
public enum CourseProblem: Sendable, Equatable {
    /// A gate of the course crossed against its direction (the course rowed the wrong way).
    case wrongWay(gate: FenceID, time: Seconds)
    /// A gate skipped: the boat crossed a later gate without crossing this one.
    case missedGate(gate: FenceID, time: Seconds)
    /// A gate crossed while no piece was under way (the start was missed or not yet crossed).
    case notStarted(gate: FenceID, time: Seconds)
    /// A piece given up: a new start, or the session ended, before the finish. `reached` is the
    /// last gate crossed.
    case incomplete(startTime: Seconds, reached: FenceID, time: Seconds)
}

/// What the fence monitor reports.
public enum FenceEvent: Sendable, Equatable {
    /// The boat entered an area (time: the interpolated boundary crossing).
    case enter(fence: FenceID, time: Seconds)
    /// The boat left an area; `timeInside` since its enter, if it was seen entering.
    case exit(fence: FenceID, time: Seconds, timeInside: Seconds?)
    /// The boat has been inside the area for its dwell time (time: when that was reached).
    case dwell(fence: FenceID, time: Seconds, timeInside: Seconds)
    case cross(GateCrossing)
    case rejectedCrossing(RejectedCrossing)
    /// A course leg completed (reported once strokes up to its end have arrived).
    case segment(CourseSegment)
    /// A course rowed start to finish.
    case piece(CoursePiece)
    case courseProblem(CourseProblem)

    /// The trace time the event refers to.
    public var time: Seconds {
        switch self {
        case .enter(_, let t), .exit(_, let t, _), .dwell(_, let t, _): return t
        case .cross(let c): return c.time
        case .rejectedCrossing(let r): return r.before
        case .segment(let s): return s.endTime
        case .piece(let p): return p.finishTime
        case .courseProblem(let p):
            switch p {
            case .wrongWay(_, let t), .missedGate(_, let t), .notStarted(_, let t), .incomplete(_, _, let t): return t
            }
        }
    }
}
