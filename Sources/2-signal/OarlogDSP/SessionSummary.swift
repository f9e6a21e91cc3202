import OarlogCore

/// Session totals, as on a coxswain's summary table. `nil` = the sensor gave no data.
/// Definitions are in `SummaryAccumulator`.
public struct SessionSummary: Sendable, Equatable {
    /// Last record time − first record time.
    public var elapsed: Seconds?
    public var distance: Metres?
    public var strokes: Int
    public var averageStrokeRate: StrokesPerMinute?
    public var maxStrokeRate: StrokesPerMinute?
    /// Moving time / distance × 500.
    public var averageSplit: SecondsPer500m?
    /// Fastest per-stroke split (fastest live split when there are no strokes).
    public var bestSplit: SecondsPer500m?
    public var distancePerStroke: Metres?
    /// Time the boat was moving according to GPS.
    public var movingTime: Seconds?
    /// GPS fixes rejected as implausible jumps.
    public var rejectedFixes: Int
    /// Times the GPS track restarted after a run of rejected fixes (no distance across).
    public var reanchors: Int
    /// `.gap` records per sensor.
    public var gpsGaps: Int
    public var accelerometerGaps: Int
    /// Stroke quality, averaged over the strokes that have it (`SummaryAccumulator`).
    public var averageDriveRecoveryRatio: Double?
    public var averageCheck: MetresPerSecondSquared?
    public var averageSpeedFluctuation: MetresPerSecond?
    public var averageSpeedFluctuationPercent: Double?
    /// Heart rate over the session's heart-rate records (nil without any).
    public var averageHeartRate: BeatsPerMinute?
    public var maxHeartRate: BeatsPerMinute?
    /// The device's per-stroke power, averaged (an EmPower oarlock; nil without it).
    public var averagePower: Watts?
    /// Heart rate per named sensor (empty when no heart rate named one).
    public var heartRateSensors = HeartRateBySensor()
    /// The instrumented oarlock's figures, averaged (no strokes without one).
    public var oarlock = OarlockAverages()
    public init(elapsed: Seconds? = nil, distance: Metres? = nil, strokes: Int = 0,
                averageStrokeRate: StrokesPerMinute? = nil, maxStrokeRate: StrokesPerMinute? = nil,
                averageSplit: SecondsPer500m? = nil, bestSplit: SecondsPer500m? = nil,
                distancePerStroke: Metres? = nil, movingTime: Seconds? = nil, rejectedFixes: Int = 0,
                reanchors: Int = 0, gpsGaps: Int = 0, accelerometerGaps: Int = 0) {
        self.elapsed = elapsed
        self.distance = distance
        self.strokes = strokes
        self.averageStrokeRate = averageStrokeRate
        self.maxStrokeRate = maxStrokeRate
        self.averageSplit = averageSplit
        self.bestSplit = bestSplit
        self.distancePerStroke = distancePerStroke
        self.movingTime = movingTime
        self.rejectedFixes = rejectedFixes
        self.reanchors = reanchors
        self.gpsGaps = gpsGaps
        self.accelerometerGaps = accelerometerGaps
    }
}
