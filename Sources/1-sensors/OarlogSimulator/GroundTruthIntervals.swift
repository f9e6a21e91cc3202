import OarlogCore

/// One step of a workout plan as the simulated crew rowed it (`SimulationConfiguration.workout`):
/// what a workout tracker should find. Definitions in docs/SIMULATOR.md.
public struct GroundTruthInterval: Sendable, Equatable {
    /// 1-based step index in the plan (rests and warm-up/cool-down count).
    public var index: Int
    public var kind: WorkoutStep.Kind
    /// The step's start and end, seconds from the trace start. Step 1 starts at the first catch; a
    /// step starts where the one before it ends.
    public var start: Seconds
    public var end: Seconds
    /// True distance travelled along the course from `start` to `end` (a distance step's own
    /// metres, to within nanometres).
    public var distance: Metres
    /// True catches with `start ≤ catch < end`.
    public var strokes: Int
    /// The first and last of those catches (`nil` when there are none).
    public var firstCatch: Seconds?
    public var lastCatch: Seconds?

    public init(index: Int, kind: WorkoutStep.Kind, start: Seconds, end: Seconds, distance: Metres, strokes: Int,
                firstCatch: Seconds?, lastCatch: Seconds?) {
        self.index = index
        self.kind = kind
        self.start = start
        self.end = end
        self.distance = distance
        self.strokes = strokes
        self.firstCatch = firstCatch
        self.lastCatch = lastCatch
    }

    public var duration: Seconds { end - start }

    /// 60 × (strokes − 1) / (last catch − first catch): the mean rate over the interval's own
    /// strokes; `nil` with fewer than 2.
    public var averageRate: StrokesPerMinute? {
        guard strokes >= 2, let first = firstCatch, let last = lastCatch, last > first else { return nil }
        return 60 * Double(strokes - 1) / (last - first)
    }
}

/// The interval being rowed, as the boat physics passes the plan's step starts and the catches.
struct OpenInterval: Sendable {
    var interval: GroundTruthInterval
    /// True distance at the interval's start.
    var startDistance: Metres

    init(index: Int, kind: WorkoutStep.Kind, start: Seconds, startDistance: Metres) {
        interval = GroundTruthInterval(index: index, kind: kind, start: start, end: start, distance: 0, strokes: 0,
                                       firstCatch: nil, lastCatch: nil)
        self.startDistance = startDistance
    }

    mutating func count(catchAt time: Seconds) {
        interval.strokes += 1
        if interval.firstCatch == nil { interval.firstCatch = time }
        interval.lastCatch = time
    }

    /// The interval ended at `time`, where the true distance was `distance`.
    func closed(at time: Seconds, distance: Metres) -> GroundTruthInterval {
        var done = interval
        done.end = time
        done.distance = distance - startDistance
        return done
    }
}
