import OarlogCore
import OarlogDSP
import OarlogPipeline
import OarlogSimulator
import OarlogTrace

/// Stroke quality (`StrokeQuality`) against the truth: the check, the drive/recovery ratio and
/// the boat-speed fluctuation on simulated strokes (the simulator knows the true boat speed and
/// acceleration), and the piece's average stroke curve on the real Quiske curves.
extension Evaluation {
    /// Relative tolerance of the check, the drive/recovery ratio and the speed fluctuation
    /// against the simulator's truth (the mean over a session's strokes).
    public static let qualityTolerance = 0.05
    /// RMS difference allowed between the piece's average curve and the mean of the input
    /// curves, as a fraction of the mean curve's range.
    public static let curveTolerance = 0.05

    /// Every quality check.
    public static func quality(dataDirectory: String, simulated: Bool = true) -> [EvaluationRow] {
        var rows = quiskeCurve(dataDirectory: dataDirectory)
        if simulated { rows += simulatedQuality() }
        return rows
    }

    // MARK: Simulated strokes: the true check, ratio and speed swing known

    /// Steady pieces at `rates`, sampled at `accelRates`, with the simulator's sensor noise,
    /// boat motion and GPS receiver; each detected stroke matched to the true one (catches within
    /// 100 ms). Per session, the mean relative error over the strokes must be within
    /// `qualityTolerance`; the spread (90th percentile of |error|) is reported. The drive and
    /// recovery times, stroke by stroke, within `strokeTimingTolerance` (median and p90).
    public static func simulatedQuality(rates: [StrokesPerMinute] = [18, 24, 32, 40], accelRates: [Hertz] = [100, 500],
                                        mounting mountingName: String = "tilted", minutes: Double = 2) -> [EvaluationRow] {
        var rows: [EvaluationRow] = []
        for accelRate in accelRates {
            var check = QualityErrors(), fluctuation = QualityErrors(), ratio = QualityErrors()
            var drive = TimingErrors(), recovery = TimingErrors()
            var failures: [String] = []
            for rate in rates {
                do {
                    var configuration = SimulationConfiguration(minutes: minutes, rate: rate)
                    configuration.accelRate = accelRate
                    configuration.mounting = try Mounting.parse(mountingName)
                    configuration.gpsDropoutsPerHour = 0
                    configuration.seed = UInt64(rate) &* 7919 &+ UInt64(accelRate)
                    var simulator = try BoatSimulator(configuration: configuration)
                    let (_, collector) = try Pipeline.collect(&simulator, configuration: accelerometerOnly)
                    let truth = simulator.groundTruth.strokes
                    var session = (check: QualityErrors(), fluctuation: QualityErrors(), ratio: QualityErrors())
                    for m in collector.strokes {
                        guard let q = m.quality, let t = nearest(truth, to: m.stroke.catchTime, within: simulatedTolerance) else { continue }
                        session.check.add(Double(q.check), truth: Double(t.check))
                        if let f = q.speedFluctuationPercent, let tf = t.speedFluctuationPercent { session.fluctuation.add(f, truth: tf) }
                        if let r = m.stroke.driveRecoveryRatio, let tr = t.driveRecoveryRatio { session.ratio.add(r, truth: tr) }
                    }
                    // Drive and recovery times: every stroke matched, whether or not it has a quality.
                    for m in collector.strokes {
                        guard m.stroke.driveDuration > 0, let t = nearest(truth, to: m.stroke.catchTime, within: simulatedTolerance) else { continue }
                        drive.add(m.stroke.driveDuration - t.driveDuration)
                        if let r = m.stroke.recoveryDuration, let tr = t.recoveryDuration { recovery.add(r - tr) }
                    }
                    for (name, e) in [("check", session.check), ("fluctuation", session.fluctuation), ("ratio", session.ratio)] where !e.within(qualityTolerance) {
                        failures.append("\(Int(rate)) spm \(name) " + e.meanText)
                    }
                    check.merge(session.check)
                    fluctuation.merge(session.fluctuation)
                    ratio.merge(session.ratio)
                } catch {
                    failures.append("\(Int(rate)) spm: \(error)")
                }
            }
            let name = "simulated \(mountingName) @\(Int(accelRate)) Hz, \(Int(rates.first ?? 0))–\(Int(rates.last ?? 0)) spm"
            rows.append(qualityRow(dataset: name, check: "check (m/s²)", errors: check, places: 2,
                                   failures: failures.filter { $0.contains("check") || $0.contains(":") }))
            rows.append(qualityRow(dataset: name, check: "speed fluctuation (%)", errors: fluctuation, places: 1,
                                   failures: failures.filter { $0.contains("fluctuation") }))
            rows.append(qualityRow(dataset: name, check: "drive/recovery ratio", errors: ratio, places: 3,
                                   failures: failures.filter { $0.contains("ratio") }))
            rows.append(timingRow(dataset: name, check: "drive time (ms)", errors: drive))
            rows.append(timingRow(dataset: name, check: "recovery time (ms)", errors: recovery))
        }
        return rows
    }

    /// Drive and recovery times per stroke against the simulator's truth: the median |error|
    /// within this, and 90 % of strokes within it too.
    public static let strokeTimingTolerance: Seconds = 0.050

    static func timingRow(dataset: String, check: String, errors: TimingErrors) -> EvaluationRow {
        func ms(_ x: Seconds?) -> String { x.map { "\(Int(($0 * 1000).rounded()))" } ?? "—" }
        let median = errors.absolutePercentile(0.5), p90 = errors.absolutePercentile(0.9)
        return EvaluationRow(
            dataset: dataset, check: check, expected: "the truth's, stroke by stroke",
            found: "\(errors.count) strokes, mean error \(ms(errors.mean)) ms",
            error: "median |e| \(ms(median)) ms, p90 \(ms(p90)) ms, max \(ms(errors.absolutePercentile(1)))",
            tolerance: "median and p90 |e| ≤ \(ms(strokeTimingTolerance)) ms",
            passed: errors.count > 0 && (median ?? .infinity) <= strokeTimingTolerance && (p90 ?? .infinity) <= strokeTimingTolerance)
    }

    /// Measured minus true durations, stroke by stroke, s.
    struct TimingErrors {
        private(set) var errors: [Seconds] = []
        var count: Int { errors.count }
        mutating func add(_ error: Seconds) { if error.isFinite { errors.append(error) } }
        var mean: Seconds? { errors.isEmpty ? nil : errors.reduce(0, +) / Double(errors.count) }
        func absolutePercentile(_ p: Double) -> Seconds? {
            guard !errors.isEmpty else { return nil }
            let sorted = errors.map(abs).sorted()
            return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
        }
    }

    /// The truth stroke whose catch is nearest `time`, if within `tolerance`.
    static func nearest(_ truth: [GroundTruthStroke], to time: Seconds, within tolerance: Seconds) -> GroundTruthStroke? {
        var lo = 0, hi = truth.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if truth[mid].catchTime < time { lo = mid + 1 } else { hi = mid }
        }
        let candidates = [lo - 1, lo].filter { $0 >= 0 && $0 < truth.count }
        guard let best = candidates.min(by: { abs(truth[$0].catchTime - time) < abs(truth[$1].catchTime - time) }),
              abs(truth[best].catchTime - time) <= tolerance else { return nil }
        return truth[best]
    }

    static func qualityRow(dataset: String, check: String, errors: QualityErrors, places: Int, failures: [String],
                           tolerance: Double = qualityTolerance) -> EvaluationRow {
        var row = EvaluationRow(
            dataset: dataset, check: check, expected: RowingFormat.decimal(errors.meanTruth, places: places) + " (mean truth)",
            found: RowingFormat.decimal(errors.meanMeasured, places: places) + " over \(errors.count) strokes",
            error: errors.meanText + ", p90 |e| " + RowingFormat.decimal(errors.percentile(0.9).map { $0 * 100 }, places: 1) + " %",
            tolerance: "mean within ±" + RowingFormat.decimal(tolerance * 100, places: 0) + " % per session",
            passed: errors.count > 0 && errors.within(tolerance) && failures.isEmpty)
        if !failures.isEmpty { row.found += " [" + failures.joined(separator: "; ") + "]" }
        return row
    }

    /// Measured against true values, stroke by stroke.
    struct QualityErrors {
        private(set) var relative: [Double] = []
        private(set) var measuredSum = 0.0
        private(set) var truthSum = 0.0
        var count: Int { relative.count }

        mutating func add(_ measured: Double, truth: Double) {
            guard measured.isFinite, truth.isFinite, truth != 0 else { return }
            relative.append((measured - truth) / truth)
            measuredSum += measured
            truthSum += truth
        }

        mutating func merge(_ other: QualityErrors) {
            relative += other.relative
            measuredSum += other.measuredSum
            truthSum += other.truthSum
        }

        var meanMeasured: Double? { count > 0 ? measuredSum / Double(count) : nil }
        var meanTruth: Double? { count > 0 ? truthSum / Double(count) : nil }
        /// Mean measured / mean truth − 1.
        var meanError: Double? { truthSum != 0 && count > 0 ? measuredSum / truthSum - 1 : nil }
        func within(_ tolerance: Double) -> Bool { meanError.map { abs($0) <= tolerance } ?? false }
        var meanText: String { RowingFormat.decimal(meanError.map { $0 * 100 }, places: 1) + " %" }
        func percentile(_ p: Double) -> Double? {
            guard !relative.isEmpty else { return nil }
            let sorted = relative.map(abs).sorted()
            return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
        }
    }

    // MARK: Quiske: the piece's average curve against the mean of the real curves

    /// The real Quiske curves chained (as recorded, and resampled), through the analyzer: its
    /// piece curve (`RowingAnalyzer.pieceCurve`: detected catches, the mounting's surge, the
    /// quality meter's ring) against the mean of the input curves over the same normalised
    /// stroke, resampled here independently (linear interpolation at phase k / 99 of each curve).
    public static func quiskeCurve(dataDirectory: String, sampleRates: [Hertz?] = [nil, 50, 500]) -> [EvaluationRow] {
        let path = dataDirectory + "/rowingdata/quiske_per_stroke_seat.csv"
        var rows: [EvaluationRow] = []
        for rate in sampleRates {
            let name = "quiske chained" + (rate.map { " @\(Int($0)) Hz" } ?? " (as recorded)")
            do {
                var source = try QuiskeCurveReader(path: path, sampleRate: rate)
                let points = StrokeQualityMeter.curvePoints
                let truth = meanCurve(source.strokes, points: points)
                var analyzer = RowingAnalyzer(configuration: accelerometerOnly)
                while let record = try source.next() { analyzer.process(record) { _ in } }
                analyzer.finish { _ in }
                let curve = analyzer.pieceCurve
                var squares = 0.0
                for k in 0..<points { squares += pow2((curve.mean(at: k) ?? .nan) - truth[k]) }
                let rms = (squares / Double(points)).squareRoot()
                let range = (truth.max() ?? 0) - (truth.min() ?? 0)
                let fraction = range > 0 ? rms / range : .nan
                rows.append(EvaluationRow(
                    dataset: name, check: "average curve (\(points) points)",
                    expected: "mean of \(source.strokes.count) curves, range " + RowingFormat.decimal(range, places: 2) + " m/s²",
                    found: "\(curve.strokes) strokes averaged, RMS diff " + RowingFormat.decimal(rms, places: 3) + " m/s²",
                    error: RowingFormat.decimal(fraction * 100, places: 2) + " % of range",
                    tolerance: "< " + RowingFormat.decimal(curveTolerance * 100, places: 0) + " % of range",
                    passed: fraction.isFinite && fraction < curveTolerance && curve.strokes >= source.strokes.count - 3))
            } catch {
                rows.append(.failure(dataset: name, check: "average curve", "\(error)"))
            }
        }
        return rows
    }

    /// The mean of the curves at `points` evenly spaced phases of each stroke (0 = its catch,
    /// 1 = the next catch, which is the next curve's first sample; the last curve is held).
    static func meanCurve(_ strokes: [QuiskeCurveReader.Stroke], points: Int) -> [Double] {
        var mean = [Double](repeating: 0, count: points)
        for (i, s) in strokes.enumerated() {
            let a = s.acceleration.map(Double.init)
            let next = i + 1 < strokes.count ? strokes[i + 1].acceleration.first.map(Double.init) : nil
            let n = a.count
            for k in 0..<points {
                let x = Double(k) / Double(points - 1) * Double(n)   // sample j is at phase j / n
                let j = Int(x.rounded(.down))
                let f = x - Double(j)
                let v0 = j < n ? a[j] : (next ?? a[n - 1])
                let v1 = j + 1 < n ? a[j + 1] : (next ?? a[n - 1])
                mean[k] += v0 + (v1 - v0) * f
            }
        }
        return mean.map { $0 / Double(max(1, strokes.count)) }
    }

    static func pow2(_ x: Double) -> Double { x * x }
}
