/// One stroke as the detector found it in the boat's surge acceleration.
///
/// `catchTime` is the start of the drive (the catch); a stroke's period is catch to next catch.
/// The detector emits the event once the stroke's drive has been recognised; `recoveryDuration`
/// is the time from the end of the drive (the finish) to the next catch, and so is only known
/// when the next stroke begins — it is `nil` until then (and for the last stroke of a piece).
public struct StrokeEvent: Sendable, Equatable {
    /// 1-based index of the stroke in the session.
    public var index: Int
    public var catchTime: Seconds
    public var driveDuration: Seconds
    public var recoveryDuration: Seconds?
    /// Peak surge acceleration during the drive, m/s² (gravity removed).
    public var peakAcceleration: MetresPerSecondSquared
    /// Stroke rate, spm. From the detector (and in `.caught`, the catch a display shows): the
    /// stroke just finished, 60 / (this catch − previous catch), the only rate known at a catch.
    /// In a completed stroke (`StrokeMetrics`, what tables, files, exports and summaries hold):
    /// the stroke's own, 60 / (next catch − this catch), the period its drive and recovery, split
    /// and distance per stroke span; `nil` for the first stroke of a piece, a stroke whose period
    /// holds a pause, and the last stroke (`RowingAnalyzer`, `StrokePauseRule`).
    public var strokeRate: StrokesPerMinute?
    /// How final the event is (a detector set to announce catches sends a stroke twice).
    public var stage: Stage

    public enum Stage: Sendable, Equatable {
        /// Announced at its catch, while the drive is still on: its drive duration and peak are 0
        /// until the same index comes again `.complete`.
        case caught
        /// Everything the detector will know of it.
        case complete
        /// A catch announced that turned out to be no stroke (its index is free again).
        case withdrawn
    }

    public init(index: Int, catchTime: Seconds, driveDuration: Seconds, recoveryDuration: Seconds?,
                peakAcceleration: MetresPerSecondSquared, strokeRate: StrokesPerMinute?, stage: Stage = .complete) {
        self.index = index
        self.catchTime = catchTime
        self.driveDuration = driveDuration
        self.recoveryDuration = recoveryDuration
        self.peakAcceleration = peakAcceleration
        self.strokeRate = strokeRate
        self.stage = stage
    }
}

/// Everything known about one completed stroke once GPS is combined with it: what a coxswain's
/// per-stroke table shows. `nil` means "no data" (no GPS, or the first stroke).
public struct StrokeMetrics: Sendable, Equatable {
    public var stroke: StrokeEvent
    /// Smoothed stroke rate at this stroke: the mean of the last few strokes' own rates, this
    /// one's included (`nil` when it has none).  At a catch (`AnalyzerEvent.caught`): the smoothed
    /// rate of the stroke just finished.
    public var smoothedRate: StrokesPerMinute?
    /// Split from the distance covered during this stroke (catch to next catch).
    public var split: SecondsPer500m?
    /// Distance covered during this stroke (distance per stroke).
    public var distancePerStroke: Metres?
    /// Cumulative session distance at this stroke's catch.
    public var distance: Metres?
    /// The stroke's quality from the accelerometer (`nil` without one, or for a stroke whose
    /// samples did not cover it: the last of a piece, longer than `StrokeQualityMeter.longestStroke`).
    public var quality: StrokeQuality?

    public init(stroke: StrokeEvent, smoothedRate: StrokesPerMinute? = nil, split: SecondsPer500m? = nil,
                distancePerStroke: Metres? = nil, distance: Metres? = nil, quality: StrokeQuality? = nil) {
        self.stroke = stroke
        self.quality = quality
        self.smoothedRate = smoothedRate
        self.split = split
        self.distancePerStroke = distancePerStroke
        self.distance = distance
    }
}

/// How a stroke moved the boat, from the accelerometer (what CrewNerd and Rowing in Motion show
/// beside the rate): the check at the catch, the boat's acceleration through the drive and the
/// swing of the boat's speed within the stroke. Accelerations are the boat's surge (fore-aft)
/// acceleration as the stroke detector sees it, m/s², positive = the boat speeding up.
public struct StrokeQuality: Sendable, Equatable {
    /// Depth of the boat's deceleration at the catch (the check), m/s², as a positive number:
    /// the lowest surge acceleration from a little before the catch into the start of the drive.
    public var check: MetresPerSecondSquared
    /// Highest and mean surge acceleration from the catch to the finish, m/s².
    public var peakDriveAcceleration: MetresPerSecondSquared
    public var meanDriveAcceleration: MetresPerSecondSquared
    /// How far the boat's speed fell below and rose above its mean over the stroke (catch to next
    /// catch), m/s, both ≥ 0: the surge acceleration integrated over the stroke, its linear
    /// drift removed so that it ends where it started.
    public var speedBelowMean: MetresPerSecond
    public var speedAboveMean: MetresPerSecond
    /// The stroke's mean boat speed from GPS, which anchors the swing (`nil` without GPS).
    public var meanSpeed: MetresPerSecond?

    public init(check: MetresPerSecondSquared, peakDriveAcceleration: MetresPerSecondSquared,
                meanDriveAcceleration: MetresPerSecondSquared, speedBelowMean: MetresPerSecond,
                speedAboveMean: MetresPerSecond, meanSpeed: MetresPerSecond? = nil) {
        self.check = check
        self.peakDriveAcceleration = peakDriveAcceleration
        self.meanDriveAcceleration = meanDriveAcceleration
        self.speedBelowMean = speedBelowMean
        self.speedAboveMean = speedAboveMean
        self.meanSpeed = meanSpeed
    }

    /// Highest minus lowest boat speed within the stroke, m/s (known without GPS).
    public var speedFluctuation: MetresPerSecond { speedBelowMean + speedAboveMean }
    /// Lowest and highest boat speed within the stroke, m/s (need GPS).
    public var minimumSpeed: MetresPerSecond? { meanSpeed.map { $0 - speedBelowMean } }
    public var maximumSpeed: MetresPerSecond? { meanSpeed.map { $0 + speedAboveMean } }
    /// (highest − lowest) / mean speed, % (needs GPS and a moving boat).
    public var speedFluctuationPercent: Double? {
        guard let v = meanSpeed, v > 0.5 else { return nil }
        return 100 * speedFluctuation / v
    }
}

extension StrokeEvent {
    /// Drive time / recovery time (about 1 : 2 at low rates, nearer 1 : 1 racing); `nil` without
    /// drive timing or before the next catch is known.
    public var driveRecoveryRatio: Double? {
        guard driveDuration > 0, let r = recoveryDuration, r > 0 else { return nil }
        return driveDuration / r
    }
}
