import OarlogCore

/// One step of a plan as it was rowed: its boundaries on the strokes' clock and its figures. A
/// work step is a piece; a rest is the time between pieces (the crew may paddle in it).
public struct WorkoutInterval: Sendable, Equatable {
    /// 1-based, in the order rowed (pieces and rests together).
    public var index: Int
    /// The plan step (0-based) this interval rows.
    public var stepIndex: Int
    public var kind: WorkoutStep.Kind
    /// 1-based piece number for a work step ("piece 2 of 3").
    public var pieceNumber: Int?
    public var label: String?
    public var start: Seconds
    public var end: Seconds
    /// Metres rowed in it by GPS; nil without GPS over it.
    public var distance: Metres?
    /// Catches at or after `start` and before `end`.
    public var strokes: Int
    /// 60 × (strokes − 1) / (last catch − first catch): the mean rate of its full stroke cycles.
    public var averageStrokeRate: StrokesPerMinute?
    public var target: WorkoutTarget
    /// Share (0…1) of its stroke cycles whose rate was within the rate band (± 0.5 spm).
    public var strokeRateInBand: Double?
    /// Share (0…1) of its time whose live split was within the split band (± 0.5 s).
    public var splitInBand: Double?
    /// False when the session (or the plan) stopped before the step's time or distance was done.
    public var completed: Bool

    public init(index: Int, stepIndex: Int, kind: WorkoutStep.Kind, pieceNumber: Int?, label: String?,
                start: Seconds, end: Seconds, distance: Metres?, strokes: Int, averageStrokeRate: StrokesPerMinute?,
                target: WorkoutTarget, strokeRateInBand: Double?, splitInBand: Double?, completed: Bool) {
        self.index = index
        self.stepIndex = stepIndex
        self.kind = kind
        self.pieceNumber = pieceNumber
        self.label = label
        self.start = start
        self.end = end
        self.distance = distance
        self.strokes = strokes
        self.averageStrokeRate = averageStrokeRate
        self.target = target
        self.strokeRateInBand = strokeRateInBand
        self.splitInBand = splitInBand
        self.completed = completed
    }

    public var elapsed: Seconds { end - start }
    /// Mean split over the interval, s/500 m.
    public var averageSplit: SecondsPer500m? {
        guard let distance, distance > 1, elapsed > 0 else { return nil }
        return elapsed / distance * 500
    }
    public var distancePerStroke: Metres? {
        guard let distance, strokes > 0 else { return nil }
        return distance / Double(strokes)
    }
    /// `work` or `rest` as the `intervals` JSON names it (warm-up and cool-down are rowed: `work`).
    public var workOrRest: String { kind == .rest ? "rest" : "work" }
}

/// What the workout tracker reports as the session goes.
public enum WorkoutEvent: Sendable, Equatable {
    /// The plan the session rows (sent once, before anything else).
    case planned(WorkoutPlan)
    /// A step began (the first at the first catch or at the go; the others at the previous end).
    case started(step: Int, time: Seconds)
    /// A step is over and its figures are known (a little after its end: the catches and the GPS
    /// distance up to the end must have come in).
    case interval(WorkoutInterval)
    /// The plan's last step ended, or the session stopped inside the plan.
    case finished(time: Seconds)
    /// Where the crew is in the plan, with every live tick of the analyzer (for the screens; a
    /// recorder passes over it).
    case status(WorkoutStatus)
}

/// Where the crew is in its plan, for the cox's screen and the coach's.
public struct WorkoutStatus: Sendable, Equatable {
    public enum Phase: String, Sendable, Equatable {
        /// The plan is set; it starts at the first catch (or the go).
        case waiting
        case rowing
        case finished
    }
    public var phase: Phase
    /// The current step (0-based); the first while waiting, the last when finished.
    public var stepIndex: Int
    public var stepCount: Int
    public var kind: WorkoutStep.Kind
    public var label: String?
    public var pieceNumber: Int?
    public var pieceCount: Int
    /// The step's own length.
    public var length: WorkoutLength
    public var target: WorkoutTarget
    /// Time since the step started.
    public var elapsed: Seconds
    /// Time left of a timed step (a rest counts down with it).
    public var remainingTime: Seconds?
    /// Metres left of a distance step (nil until its start distance is known).
    public var remainingDistance: Metres?
    /// Metres rowed since the step started (nil without GPS).
    public var distance: Metres?
    /// The live rate and split against the step's target bands.
    public var strokeRate: StrokesPerMinute?
    public var split: SecondsPer500m?
    public var strokeRateBand: TargetBand?
    public var splitBand: TargetBand?
    /// The step after this one (a rest shows what comes next).
    public var next: WorkoutStep?

    public init(phase: Phase, stepIndex: Int, stepCount: Int, kind: WorkoutStep.Kind, label: String?, pieceNumber: Int?,
                pieceCount: Int, length: WorkoutLength, target: WorkoutTarget, elapsed: Seconds = 0,
                remainingTime: Seconds? = nil, remainingDistance: Metres? = nil, distance: Metres? = nil,
                strokeRate: StrokesPerMinute? = nil, split: SecondsPer500m? = nil, strokeRateBand: TargetBand? = nil,
                splitBand: TargetBand? = nil, next: WorkoutStep? = nil) {
        self.phase = phase
        self.stepIndex = stepIndex
        self.stepCount = stepCount
        self.kind = kind
        self.label = label
        self.pieceNumber = pieceNumber
        self.pieceCount = pieceCount
        self.length = length
        self.target = target
        self.elapsed = elapsed
        self.remainingTime = remainingTime
        self.remainingDistance = remainingDistance
        self.distance = distance
        self.strokeRate = strokeRate
        self.split = split
        self.strokeRateBand = strokeRateBand
        self.splitBand = splitBand
        self.next = next
    }
}
