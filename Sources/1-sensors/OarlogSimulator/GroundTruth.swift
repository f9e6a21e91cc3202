import OarlogCore

/// One stroke as the simulator rowed it: what a stroke detector should find.
public struct GroundTruthStroke: Sendable, Equatable {
    /// 1-based index in the session.
    public var index: Int
    /// The catch: the instant of the minimum of the noise-free surge acceleration in the catch
    /// dip (the deepest point of the dip before the drive), seconds from the trace start.
    public var catchTime: Seconds
    /// 60 / (next catch − this catch): the stroke's own rate, as a completed stroke's
    /// `StrokeEvent.strokeRate` defines it; `nil` for the last stroke of a piece. (The analyzer
    /// gives the first stroke of a piece no rate either: compare only the others.)
    public var strokeRate: StrokesPerMinute?
    /// Catch to finish (end of the propulsive pulse; the surge crosses zero some 20 ms earlier
    /// because of drag).
    public var driveDuration: Seconds
    /// Finish to the next catch; `nil` for the last stroke of a piece or of the session.
    public var recoveryDuration: Seconds?
    /// True distance travelled along the course from t = 0 to the catch.
    public var distance: Metres
    /// The noise-free surge acceleration at the catch (the bottom of the dip), m/s².
    public var catchAcceleration: MetresPerSecondSquared
    /// The rate the profile asked for at this stroke.
    public var profileRate: StrokesPerMinute
    /// The true boat speed through the stroke, catch to next catch: lowest, highest and
    /// time-averaged, m/s (`nil` until the next catch of the same piece; not in the truth CSV).
    public var minimumSpeed: MetresPerSecond? = nil
    public var maximumSpeed: MetresPerSecond? = nil
    public var meanSpeed: MetresPerSecond? = nil

    /// The true check: depth of the noise-free deceleration at the catch, m/s² (≥ 0).
    public var check: MetresPerSecondSquared { max(0, -catchAcceleration) }
    /// True (highest − lowest) / mean speed within the stroke, %.
    public var speedFluctuationPercent: Double? {
        guard let lo = minimumSpeed, let hi = maximumSpeed, let v = meanSpeed, v > 0 else { return nil }
        return 100 * (hi - lo) / v
    }
    /// True drive time / recovery time.
    public var driveRecoveryRatio: Double? { recoveryDuration.flatMap { $0 > 0 ? driveDuration / $0 : nil } }

    public init(index: Int, catchTime: Seconds, strokeRate: StrokesPerMinute?, driveDuration: Seconds,
                recoveryDuration: Seconds?, distance: Metres, catchAcceleration: MetresPerSecondSquared,
                profileRate: StrokesPerMinute) {
        self.index = index
        self.catchTime = catchTime
        self.strokeRate = strokeRate
        self.driveDuration = driveDuration
        self.recoveryDuration = recoveryDuration
        self.distance = distance
        self.catchAcceleration = catchAcceleration
        self.profileRate = profileRate
    }
}

/// The truth of a session so far, kept as the simulator runs. Memory stays bounded with
/// `.recent(n)` retention: only the last `n` strokes are kept (the counts and distance are
/// always complete). `.all` keeps every stroke — fine for tests and sessions of hours
/// (about 60 bytes a stroke).
public struct GroundTruth: Sendable {
    public enum Retention: Sendable, Equatable {
        case all
        case recent(Int)
    }

    public let retention: Retention
    /// The retained strokes, oldest first (all of them, or the most recent window).
    public private(set) var strokes: [GroundTruthStroke] = []
    /// Strokes rowed so far (catches at or before `elapsed`).
    public private(set) var strokeCount = 0
    /// Simulated time the truth covers.
    public private(set) var elapsed: Seconds = 0
    /// True distance travelled by `elapsed`.
    public private(set) var distance: Metres = 0
    /// True boat speed at `elapsed`.
    public private(set) var speed: MetresPerSecond = 0
    /// The session has been simulated to its end; the totals are final.
    public private(set) var isComplete = false
    /// With a workout plan: its steps as rowed, in order, each added once the boat passes its end
    /// (all of them, whatever the retention: a plan has at most `WorkoutLimits.maximumSteps`).
    public private(set) var intervals: [GroundTruthInterval] = []
    /// On a measured course: every gate crossing of the true track, in time order (all of them,
    /// whatever the retention: one a gate per run along the course, a few a minute at most).
    public private(set) var gateCrossings: [GroundTruthGateCrossing] = []

    public init(retention: Retention = .all) {
        self.retention = retention
        if case .recent(let n) = retention { strokes.reserveCapacity(max(0, n) + 1) }
    }

    public var lastStroke: GroundTruthStroke? { strokes.last }

    mutating func record(_ stroke: GroundTruthStroke) {
        strokeCount = stroke.index
        switch retention {
        case .all:
            strokes.append(stroke)
        case .recent(let n):
            guard n > 0 else { return }
            if strokes.count >= n { strokes.removeFirst(strokes.count - n + 1) }
            strokes.append(stroke)
        }
    }

    /// The boat speed through the latest stroke, known at the next catch.
    mutating func completeLastStroke(minimumSpeed: MetresPerSecond, maximumSpeed: MetresPerSecond, meanSpeed: MetresPerSecond) {
        guard !strokes.isEmpty else { return }
        strokes[strokes.count - 1].minimumSpeed = minimumSpeed
        strokes[strokes.count - 1].maximumSpeed = maximumSpeed
        strokes[strokes.count - 1].meanSpeed = meanSpeed
    }

    mutating func update(elapsed: Seconds, distance: Metres, speed: MetresPerSecond) {
        self.elapsed = elapsed
        self.distance = distance
        self.speed = speed
    }

    mutating func record(_ interval: GroundTruthInterval) {
        intervals.append(interval)
    }

    mutating func record(_ crossing: GroundTruthGateCrossing) {
        gateCrossings.append(crossing)
    }

    mutating func markComplete() {
        isComplete = true
    }
}
