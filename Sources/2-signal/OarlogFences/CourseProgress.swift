import OarlogCore

/// One crew's way along a course, from its gate crossings and fixes: the race starts at a start
/// crossing the right way (another one starts it again), each later gate of the course crossed
/// the right way and in order is timed from the start (a skipped marker is left untimed, as
/// `CourseTracker` leaves it missed), and the finish ends it. Between gates, each fix is placed
/// along the course by the `CourseRuler`, never behind where the crew already was.
///
/// A ghost race runs one for the reference attempt (when it is read back) and one for the boat,
/// so both are measured by the same code. Memory is fixed by the number of gates.
public struct CourseProgress: Sendable {
    public let ruler: CourseRuler
    /// Trace time of the start crossing of the race under way or finished (nil before one).
    public private(set) var startTime: Seconds?
    /// Time from the start at each course gate crossed in this race (nil: not yet, or skipped).
    public private(set) var gateTimes: [Seconds?]
    /// The course index of the last gate crossed in this race.
    public private(set) var lastGate: Int?
    /// The latest place along the course: trace time and course metres.
    public private(set) var latest: (time: Seconds, along: Metres)?
    /// The finish has been crossed (the race is over until a new start).
    public private(set) var finished = false

    /// What a crossing meant for the race.
    public enum Step: Sendable, Equatable {
        case started(time: Seconds)
        /// Course gate `index` crossed `elapsed` seconds after the start.
        case gate(index: Int, elapsed: Seconds)
        case finished(elapsed: Seconds)
    }

    public init(ruler: CourseRuler) {
        self.ruler = ruler
        gateTimes = Array(repeating: nil, count: ruler.course.gates.count)
    }

    public var course: Course { ruler.course }
    /// A race is under way (started, not finished).
    public var racing: Bool { startTime != nil && !finished }

    /// Feeds a gate crossing; returns what it meant (nil: nothing for this course's race).
    public mutating func crossed(_ crossing: GateCrossing) -> [Step] {
        guard !crossing.wrongWay, let k = course.gates.firstIndex(of: crossing.gate) else { return [] }
        let t = crossing.time
        if k == 0 {
            startTime = t
            finished = false
            gateTimes = Array(repeating: nil, count: course.gates.count)
            gateTimes[0] = 0
            lastGate = 0
            latest = (t, 0)
            return [.started(time: t)]
        }
        guard racing, let start = startTime, let last = lastGate, k > last else { return [] }
        gateTimes[k] = t - start
        lastGate = k
        latest = (t, course.distances[k])
        if k == course.gates.count - 1 {
            finished = true
            return [.gate(index: k, elapsed: t - start), .finished(elapsed: t - start)]
        }
        return [.gate(index: k, elapsed: t - start)]
    }

    /// Feeds a fix; returns its course metres while a race is under way.
    @discardableResult
    public mutating func fix(_ fix: GPSFix) -> Metres? {
        guard racing, let last = lastGate, let previous = latest, fix.time > previous.time else { return nil }
        let along = max(previous.along, ruler.along(fix.point, leg: last))
        latest = (fix.time, along)
        return along
    }
}
