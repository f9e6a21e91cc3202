import OarlogCore

/// Which fence an event concerns: its position among the file's features (0-based) and its name
/// (the `name` property, or `feature N` when it has none).
public struct FenceID: Sendable, Hashable, CustomStringConvertible {
    public var index: Int
    public var name: String
    public init(index: Int, name: String) {
        self.index = index
        self.name = name
    }
    public var description: String { "'\(name)' (feature \(index))" }
}

/// Which way a gate must be crossed.
public enum GateDirection: Sendable, Equatable {
    /// Either way counts.
    case either
    /// The boat must travel roughly along this bearing (degrees clockwise from true north): a
    /// crossing whose motion across the line points away from it is the wrong way.
    case bearing(Degrees)
}

/// A gate's place in a course.
public enum CourseRole: String, Sendable, Equatable {
    case start, marker, finish
}

/// The shape of a fence on the ellipsoid.
public enum FenceShape: Sendable, Equatable {
    /// A circle of `radius` metres (geodesic) about `centre`.
    case circle(centre: GeoPoint, radius: Metres)
    /// A polygon: an outer ring and holes, each without the repeated closing point.
    case polygon(outer: [GeoPoint], holes: [[GeoPoint]])
    /// A line (two points or more) the boat crosses: a start, finish or marker line.
    case gate(line: [GeoPoint], direction: GateDirection)
}

/// One fence as defined in a GeoJSON file: an area (circle or polygon) with its enter/exit rules,
/// or a gate (a line) with its crossing direction and course role.
public struct Fence: Sendable, Equatable {
    public var id: FenceID
    public var shape: FenceShape
    /// Areas: report `dwell` once the boat has been inside this long.
    public var dwellTime: Seconds?
    /// Areas: the extra margin beyond the fix's error estimate before a side is taken (`nil`: the
    /// monitor's default).
    public var hysteresis: Metres?
    /// Gates: where the gate stands in a course, if it belongs to one.
    public var courseRole: CourseRole?
    /// Gates: distance from the start line along the course, if the file gives it.
    public var courseDistance: Metres?

    public init(id: FenceID, shape: FenceShape, dwellTime: Seconds? = nil, hysteresis: Metres? = nil,
                courseRole: CourseRole? = nil, courseDistance: Metres? = nil) {
        self.id = id
        self.shape = shape
        self.dwellTime = dwellTime
        self.hysteresis = hysteresis
        self.courseRole = courseRole
        self.courseDistance = courseDistance
    }

    /// Whether the fence is an area (circle or polygon) rather than a gate.
    public var isArea: Bool {
        if case .gate = shape { return false }
        return true
    }
}
