import OarlogCore

/// What the ghost race was given to race: whose attempt, when it started in its own session, its
/// time, and its time at each gate.
public struct GhostReferenceInfo: Sendable, Equatable {
    public var course: String
    public var session: String
    /// Session time of the attempt's start crossing.
    public var startTime: Seconds
    /// Start to finish.
    public var time: Seconds
    /// Each course gate: name, course metres, the attempt's time from its start (nil: skipped).
    public var gates: [(name: String, distance: Metres, time: Seconds?)]

    public init(_ reference: GhostReference) {
        course = reference.course.name
        session = reference.session
        startTime = reference.startTime
        time = reference.time
        gates = reference.course.gates.indices.map {
            (reference.course.gates[$0].name, reference.course.distances[$0], reference.gateTimes[$0])
        }
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.course == b.course && a.session == b.session && a.startTime == b.startTime && a.time == b.time
            && a.gates.elementsEqual(b.gates) { $0.name == $1.name && $0.distance == $1.distance && $0.time == $1.time }
    }
}

/// The race against the ghost at one catch: how far behind (+) or ahead (−) the boat is, in
/// seconds and metres, and where the ghost is.
public struct GhostStatus: Sendable, Equatable {
    /// Trace time of the catch.
    public var time: Seconds
    /// Seconds since the boat's start crossing.
    public var elapsed: Seconds
    /// The boat's course metres (at its latest fix).
    public var along: Metres
    /// The boat's time to `along` minus the ghost's time to it: + behind, − ahead.
    public var gapSeconds: Seconds
    /// How far the ghost had got at the boat's time minus how far the boat has: + behind, − ahead.
    public var gapMetres: Metres
    /// The ghost's course metres and position at the boat's latest fix (the moment `along` is of).
    public var ghostAlong: Metres
    public var ghostPosition: GeoPoint
}

/// A course gate crossed in the race: the boat's time from its start, the ghost's, and the gap.
public struct GhostGateSplit: Sendable, Equatable {
    public var gate: String
    /// The gate's index in the course (0: the start).
    public var index: Int
    public var distance: Metres
    /// Trace time of the boat's crossing.
    public var crossingTime: Seconds
    /// The boat's time from its start to the gate.
    public var time: Seconds
    /// The reference's (nil where it skipped the gate).
    public var referenceTime: Seconds?
    /// `time − referenceTime`: + behind, − ahead (nil without a reference time).
    public var gapSeconds: Seconds?
}

/// What the ghost race reports (to every sink as `PipelineEvent.ghost`).
public enum GhostEvent: Sendable, Equatable {
    /// The reference raced (once, when the pipeline starts).
    case reference(GhostReferenceInfo)
    /// The boat crossed the start line the right way: the race (again) begins.
    case started(time: Seconds)
    /// At each catch while racing.
    case status(GhostStatus)
    /// At each course gate crossed after the start (the finish included).
    case gate(GhostGateSplit)
    /// The finish crossed: the boat's time and the final gap (+ behind).
    case finished(time: Seconds, gapSeconds: Seconds)
}
