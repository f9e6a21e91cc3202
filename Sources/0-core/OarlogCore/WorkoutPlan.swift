/// A workout plan: the pieces a crew means to row and the rests between them, in order, the way a
/// coach writes them on the board (`3x4:00/2:00r`, `8x500m/1:30r`) or in a longer JSON form
/// with warm-up and cool-down. Value types only: the text form is read by `WorkoutSpec`, the
/// JSON form by the application layer; the tracker (`WorkoutTracker`, OarlogDSP) times it.
public struct WorkoutPlan: Sendable, Equatable {
    /// What the crew calls it (`3x4:00/2:00r`, or a saved plan's name).
    public var name: String
    /// The steps in the order they are rowed. Never empty.
    public var steps: [WorkoutStep]

    public init(name: String, steps: [WorkoutStep]) {
        self.name = name
        self.steps = steps
    }

    /// The pieces (work steps, warm-up and cool-down excluded): "piece n of m" counts these.
    public var pieceCount: Int { steps.reduce(0) { $0 + ($1.kind == .work ? 1 : 0) } }

    /// The 1-based piece number of the step at `index` (nil for a rest, warm-up or cool-down).
    public func pieceNumber(ofStep index: Int) -> Int? {
        guard steps.indices.contains(index), steps[index].kind == .work else { return nil }
        return steps[...index].reduce(0) { $0 + ($1.kind == .work ? 1 : 0) }
    }
}

/// One step of a plan: a piece, a rest, a warm-up or a cool-down, with its length and target.
public struct WorkoutStep: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        case warmup, work, rest, cooldown
        /// Whether the crew rows it as an effort (everything but a rest).
        public var isRowed: Bool { self != .rest }
    }
    public var kind: Kind
    public var length: WorkoutLength
    public var target: WorkoutTarget
    /// An optional label ("warm-up", "race pace").
    public var label: String?

    public init(kind: Kind, length: WorkoutLength, target: WorkoutTarget = .none, label: String? = nil) {
        self.kind = kind
        self.length = length
        self.target = target
        self.label = label
    }
}

/// How long a step lasts: a time or a distance.
public enum WorkoutLength: Sendable, Equatable {
    case time(Seconds)
    case distance(Metres)

    public var seconds: Seconds? { if case .time(let s) = self { return s } else { return nil } }
    public var metres: Metres? { if case .distance(let m) = self { return m } else { return nil } }
}

/// What a piece aims at: a stroke-rate band and/or a split band (either may be a single value, a
/// band of width zero).
public struct WorkoutTarget: Sendable, Equatable {
    public var strokeRate: ClosedRange<StrokesPerMinute>?
    /// Split band, seconds per 500 m (`lowerBound` is the faster end).
    public var split: ClosedRange<SecondsPer500m>?

    public init(strokeRate: ClosedRange<StrokesPerMinute>? = nil, split: ClosedRange<SecondsPer500m>? = nil) {
        self.strokeRate = strokeRate
        self.split = split
    }

    public static let none = WorkoutTarget()
    public var isEmpty: Bool { strokeRate == nil && split == nil }
}

/// Where a live figure stands against a target band.
public enum TargetBand: String, Sendable, Equatable {
    /// Below the band's lower end (rate too low; split faster than the band).
    case under
    case within = "in"
    /// Above the band's upper end (rate too high; split slower than the band).
    case over

    /// Within half a stroke per minute, or half a second of split, a figure counts as in band: the
    /// figures a cox sees are rounded to a tenth.
    public init(_ value: Double, in band: ClosedRange<Double>, tolerance: Double) {
        if value < band.lowerBound - tolerance { self = .under } else if value > band.upperBound + tolerance { self = .over } else { self = .within }
    }

    public static let strokeRateTolerance: StrokesPerMinute = 0.5
    public static let splitTolerance: SecondsPer500m = 0.5
}

/// The limits a plan must keep: a typo (`10000x500m`, `48:00:00`) is refused, not rowed.
public enum WorkoutLimits {
    public static let maximumSteps = 200
    public static let maximumPieces = 100
    public static let maximumStepTime: Seconds = 4 * 3600
    public static let maximumStepDistance: Metres = 50_000
    public static let minimumStepTime: Seconds = 1
    public static let minimumStepDistance: Metres = 10
    public static let strokeRateRange: ClosedRange<StrokesPerMinute> = 10...60
    public static let splitRange: ClosedRange<SecondsPer500m> = 60...600
    public static let maximumNameLength = 80
}
