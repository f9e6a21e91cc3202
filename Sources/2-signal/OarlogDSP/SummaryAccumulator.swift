import OarlogCore

/// Builds the session summary from the analyzer's strokes and GPS totals.
///
/// Definitions:
/// - elapsed: last record time − first record time (wall time of the trace, pauses included).
/// - movingTime: time the GPS judged the boat moving (see `DistanceAccumulator.movingTime`).
/// - averageSplit: movingTime / distance × 500 — the split of the rowing itself, pauses excluded
///   (a SpeedCoach divides elapsed time instead, so its figure is slower when there were stops).
/// - bestSplit: the fastest per-stroke split; with no strokes, the fastest averaged live split.
/// - averageStrokeRate: strokes over rowing time, 60 × n / Σ periods, over strokes that have a
///   rate (pauses excluded); maxStrokeRate: the highest smoothed rate (one-off detector glitches
///   do not count).
/// - distancePerStroke: distance / strokes.
/// - averageDriveRecoveryRatio, averageCheck, averageSpeedFluctuation(Percent): the means of the
///   strokes' figures over the strokes that have them (`StrokeQuality`).
/// - averageHeartRate, maxHeartRate: over the heart-rate records; heartRateSensors: the same per
///   named sensor (`HeartRateBySensor`, bounded); averagePower: over the device's per-stroke
///   power figures (the reference strokes'; without any, the oarlock strokes'); oarlock: the
///   means of the instrumented oarlock's figures (`OarlockAverages`).
public struct SummaryAccumulator: Sendable {
    public private(set) var strokes = 0
    private var ratedStrokes = 0
    private var ratedPeriods: Seconds = 0
    private var maxRate: StrokesPerMinute?
    private var bestStrokeSplit: SecondsPer500m?
    private var bestLiveSplit: SecondsPer500m?
    private var firstTime: Seconds?
    private var lastTime: Seconds?
    private var ratio = (sum: 0.0, count: 0)
    private var check = (sum: 0.0, count: 0)
    private var fluctuation = (sum: 0.0, count: 0)
    private var fluctuationPercent = (sum: 0.0, count: 0)
    private var heartRate = (sum: 0.0, count: 0)
    private var maxHeartRate: BeatsPerMinute?
    private var power = (sum: 0.0, count: 0)
    private var heartRateSensors = HeartRateBySensor()
    private var oarlock = OarlockAverages()

    public init() {}

    public mutating func observeTime(_ t: Seconds) {
        if firstTime == nil { firstTime = t }
        lastTime = max(lastTime ?? t, t)
    }

    /// The latest time observed, `nil` before the first.
    var latestTime: Seconds? { lastTime }

    /// `observeTime` for a run of times at once, once the first time is known: `latest` is the
    /// running maximum the run's times give (as `observeTime` takes them, in order).
    mutating func observeTimes(latest: Seconds) {
        lastTime = latest
    }

    public mutating func add(_ m: StrokeMetrics) {
        strokes += 1
        if let r = m.stroke.strokeRate, r.isFinite, r > 0 {
            ratedStrokes += 1
            ratedPeriods += 60 / r
        }
        if let r = m.smoothedRate ?? m.stroke.strokeRate { maxRate = max(maxRate ?? r, r) }
        if let s = m.split { bestStrokeSplit = min(bestStrokeSplit ?? s, s) }
        if let r = m.stroke.driveRecoveryRatio, r.isFinite { ratio = (ratio.sum + r, ratio.count + 1) }
        if let q = m.quality {
            check = (check.sum + Double(q.check), check.count + 1)
            fluctuation = (fluctuation.sum + q.speedFluctuation, fluctuation.count + 1)
            if let p = q.speedFluctuationPercent { fluctuationPercent = (fluctuationPercent.sum + p, fluctuationPercent.count + 1) }
        }
    }

    /// A heart rate (every record counts once: per stroke or per second, as the source gives them).
    public mutating func addHeartRate(_ bpm: BeatsPerMinute, sensor: String? = nil) {
        guard bpm.isFinite, bpm > 0 else { return }
        heartRate = (heartRate.sum + bpm, heartRate.count + 1)
        maxHeartRate = max(maxHeartRate ?? bpm, bpm)
        heartRateSensors.add(bpm, sensor: sensor)
    }

    /// An instrumented oarlock's stroke.
    public mutating func addOarlock(_ stroke: OarlockStroke) {
        oarlock.add(stroke)
    }

    /// A device's power figure for one stroke.
    public mutating func addPower(_ watts: Watts) {
        guard watts.isFinite, watts >= 0 else { return }
        power = (power.sum + watts, power.count + 1)
    }

    public mutating func observeLiveSplit(_ s: SecondsPer500m) {
        bestLiveSplit = min(bestLiveSplit ?? s, s)
    }

    public func summary(distance: Metres?, movingTime: Seconds?, rejectedFixes: Int, reanchors: Int,
                        gpsGaps: Int, accelerometerGaps: Int) -> SessionSummary {
        var s = SessionSummary()
        if let a = firstTime, let b = lastTime { s.elapsed = b - a }
        s.distance = distance
        s.strokes = strokes
        s.averageStrokeRate = ratedPeriods > 0 ? 60 * Double(ratedStrokes) / ratedPeriods : nil
        s.maxStrokeRate = maxRate
        if let d = distance, d >= 1, let t = movingTime, t > 0 { s.averageSplit = t / d * 500 }
        s.bestSplit = strokes > 0 ? (bestStrokeSplit ?? bestLiveSplit) : bestLiveSplit
        if let d = distance, strokes > 0 { s.distancePerStroke = d / Double(strokes) }
        s.movingTime = movingTime
        s.rejectedFixes = rejectedFixes
        s.reanchors = reanchors
        s.gpsGaps = gpsGaps
        s.accelerometerGaps = accelerometerGaps
        func mean(_ a: (sum: Double, count: Int)) -> Double? { a.count > 0 ? a.sum / Double(a.count) : nil }
        s.averageDriveRecoveryRatio = mean(ratio)
        s.averageCheck = mean(check).map { MetresPerSecondSquared($0) }
        s.averageSpeedFluctuation = mean(fluctuation)
        s.averageSpeedFluctuationPercent = mean(fluctuationPercent)
        s.averageHeartRate = mean(heartRate)
        s.maxHeartRate = maxHeartRate
        s.averagePower = mean(power) ?? oarlock.averagePower
        s.heartRateSensors = heartRateSensors
        s.oarlock = oarlock
        return s
    }
}
