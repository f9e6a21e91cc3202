import OarlogCore
import OarlogDSP
import OarlogSession

/// The boat's acceleration through a stroke (the seed app's acceleration plot), from a stored
/// session's accelerometer samples: one stroke, or the average stroke of a piece
/// (`/api/sessions/{id}/curve`). Each stroke runs from its catch to the next catch (the last of
/// a run: one stroke period on); its surge acceleration (the mounting estimator's, as the stroke
/// detector sees it, restored by `SurgeRestorer` as the live stroke quality takes it: m/s²,
/// positive = the boat speeding up) is resampled at `points` evenly
/// spaced moments of the stroke, so strokes of different lengths line up catch to catch, and the
/// piece's curve is the mean and standard deviation at each moment (`StrokeCurveAverage`, the
/// resampling and averaging the live analyzer uses too). The file is read from just
/// before the first stroke (through its index) to just after the last, with fixed memory.
public struct StrokeCurve {
    /// Seconds of samples read before the first stroke so that the mounting has settled.
    public static let leadIn: Seconds = 60
    /// Longest stroke taken (a longer gap is a rest, not a stroke).
    public static let longestStroke: Seconds = 10

    public let points: Int
    /// Strokes that went into the curve (those with samples throughout).
    public private(set) var strokesUsed = 0
    /// Mean and standard deviation of the surge at each of the `points` moments, m/s².
    public private(set) var mean: [Double?]
    public private(set) var standardDeviation: [Double?]
    /// Mean stroke length and drive length, s.
    public private(set) var strokeDuration: Seconds?
    public private(set) var driveDuration: Seconds?

    /// A curve of no strokes (a piece without any, a session without an accelerometer).
    public init(points: Int) {
        self.points = max(2, points)
        mean = Array(repeating: nil, count: self.points)
        standardDeviation = mean
    }

    /// The curve of `strokes[range]` (the session's strokes, in order) from `reader`'s samples.
    public init(_ reader: SessionReader, strokes: [StrokeMetrics], range: ClosedRange<Int>, points: Int) throws {
        self.init(points: points)
        guard !strokes.isEmpty, range.lowerBound >= 0, range.upperBound < strokes.count else { return }
        // Where each stroke ends: the next catch, or one stroke period on for the last of a run
        // (which has no rate of its own: the stroke before's).
        var spans: [(start: Seconds, end: Seconds, drive: Seconds)] = []
        for i in range {
            let catchTime = strokes[i].stroke.catchTime
            let rate = strokes[i].stroke.strokeRate ?? strokes[i].smoothedRate
                ?? (i > 0 ? strokes[i - 1].stroke.strokeRate ?? strokes[i - 1].smoothedRate : nil)
            let period = rate.map { 60 / $0 }
            var end = i + 1 < strokes.count ? strokes[i + 1].stroke.catchTime : catchTime + (period ?? 0)
            if end - catchTime > Self.longestStroke { end = catchTime + (period ?? 0) }
            guard catchTime.isFinite, end.isFinite, end > catchTime, end - catchTime <= Self.longestStroke else { continue }
            spans.append((catchTime, end, strokes[i].stroke.driveDuration))
        }
        guard let first = spans.first, let last = spans.last else { return }

        let settings = SessionReplay(reader).settings
        var mounting = MountingEstimator(configuration: try settings.analyzerConfiguration().mounting)
        var average = StrokeCurveAverage(points: self.points)
        // The surge as the live analyzer's quality meter takes it (`SurgeRestorer`).
        var restorer = SurgeRestorer(gravityTimeConstant: mounting.configuration.gravityTimeConstant)
        var lastSampleTime = -Double.infinity
        // The current stroke's samples (times, surges), reused stroke after stroke.
        var times: [Seconds] = [], values: [Double] = []
        times.reserveCapacity(2048)
        values.reserveCapacity(2048)
        var span = 0

        func finishStroke() {
            defer { times.removeAll(keepingCapacity: true); values.removeAll(keepingCapacity: true) }
            let s = spans[span]
            // Samples throughout: the first within 50 ms of the catch, the last within 50 ms of the end.
            average.add(start: s.start, end: s.end, drive: s.drive, count: times.count,
                        time: { times[$0] }, value: { values[$0] })
        }

        struct Done: Error {}
        func take(_ t: Seconds, _ given: Double) throws {
            if t - lastSampleTime > StrokeQualityMeter.gapLength { restorer.reset() }
            lastSampleTime = max(lastSampleTime, t)
            let surge = restorer.restore(time: t, surge: given)
            guard t >= first.start - 0.05 else { return }
            while span < spans.count && t >= spans[span].end {
                finishStroke()
                span += 1
            }
            if span >= spans.count || t > last.end { throw Done() }
            if t >= spans[span].start { times.append(t); values.append(surge) }
        }
        // Samples of the first strokes of a session come before the mounting has settled: the
        // estimator gives them back, projected as it settled (as the stroke detector takes them).
        var settling: [(Seconds, Double)] = []
        do {
            try reader.forEachAccelerometerBlock(from: max(0, first.start - Self.leadIn), onDamage: .skipDamagedChunks) { block in
                for i in 0..<block.count {
                    let sample = block[i]
                    guard let surge = mounting.surge(of: sample) else { continue }
                    if mounting.hasSettlingHistory {
                        mounting.drainSettlingHistory { t, s in settling.append((t, Double(s))) }
                        for (t, s) in settling { try take(t, s) }
                        settling = []
                    }
                    try take(sample.time, Double(surge))
                }
            }
            while span < spans.count { finishStroke(); span += 1 }
        } catch is Done {
        }
        self = StrokeCurve(average)
    }

    /// The curve `average` holds.
    public init(_ average: StrokeCurveAverage) {
        self.init(points: average.points)
        strokesUsed = average.strokes
        guard average.strokes > 0 else { return }
        for k in 0..<points {
            mean[k] = average.mean(at: k)
            standardDeviation[k] = average.standardDeviation(at: k)
        }
        strokeDuration = average.meanStrokeDuration
        driveDuration = average.meanDriveDuration
    }

    /// The answer as JSON: `strokes` used, `stroke_s` and `drive_s` (means), `points`, and per
    /// moment `phase` (0 at the catch, 1 at the next), `t_s` (the mean stroke's seconds from the
    /// catch), `mps2` (mean) and `sd_mps2`; arrays of nulls when no stroke had samples.
    public func json(extra: (inout JSONWriter) -> Void = { _ in }) -> String {
        var w = JSONWriter()
        w.beginObject()
        extra(&w)
        w.field("strokes", strokesUsed)
        w.field("stroke_s", strokeDuration, places: 3)
        w.field("drive_s", driveDuration, places: 3)
        w.field("points", points)
        w.array("phase", (0..<points).lazy.map { k in Double(k) / Double(points - 1) }, places: 4)
        w.array("t_s", (0..<points).lazy.map { k in strokeDuration.map { $0 * Double(k) / Double(points - 1) } }, places: 3)
        w.array("mps2", mean, places: 3)
        w.array("sd_mps2", standardDeviation, places: 3)
        w.endObject()
        return w.take()
    }
}
