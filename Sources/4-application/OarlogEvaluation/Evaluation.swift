import OarlogCore
import OarlogDSP
import OarlogPipeline
import OarlogSimulator
import OarlogTrace

/// The accuracy evaluation on real recordings (and on simulated sessions with ground truth):
/// each check says what was expected, what Oarlog found, the error and the tolerance. Run by
/// `oarlog evaluate` and asserted by the EvaluationTests.
public enum Evaluation {
    /// Catch timing tolerance on chained real Quiske curves.
    public static let quiskeTolerance: Seconds = 0.050
    /// Catch timing tolerance on simulated sessions.
    public static let simulatedTolerance: Seconds = 0.100
    /// Total distance tolerance against the NK LiNK Logbook's own GPS distance (fraction).
    public static let nkDistanceTolerance = 0.002
    /// Median |our per-stroke split − the device's| on the NK LiNK Logbook export, s/500 m.
    public static let nkSplitTolerance: SecondsPer500m = 1.5
    /// Total distance tolerance against the SpeedCoach's own GPS distance (fraction).
    public static let speedCoachDistanceTolerance = 0.002

    /// Every check. `dataDirectory` holds the real recordings (`rowingdata/`, and `talos/` when
    /// `talos` is true): the project's `samples/` has the MIT rowingdata files; the GPL Talos trace
    /// is never bundled and comes from a folder outside the project (CI: `../shared/data`).
    public static func all(dataDirectory: String, talos includeTalos: Bool = true, simulated: Bool = true) -> [EvaluationRow] {
        var rows: [EvaluationRow] = []
        if includeTalos { rows += talos(dataDirectory: dataDirectory) }
        rows += quiske(dataDirectory: dataDirectory)
        rows += chainedCurves(dataDirectory: dataDirectory)
        rows += displayLatency(dataDirectory: dataDirectory)
        rows += nkLogbook(dataDirectory: dataDirectory)
        rows += speedCoach(dataDirectory: dataDirectory)
        rows += quality(dataDirectory: dataDirectory, simulated: simulated)
        if simulated { rows += distance(dataDirectory: dataDirectory) }
        if simulated { rows += tenHertz() }
        if simulated { rows += fusedSpeed() }
        if simulated {
            rows += simulatedSessions()
            rows += simulatedWorkouts()
        }
        return rows
    }

    // MARK: Talos: a phone in a boat, 12 strokes known

    public static func talos(dataDirectory: String) -> [EvaluationRow] {
        let name = "talos 100m-12-strokes"
        do {
            var source = try TalosLogReader(path: dataDirectory + "/talos/100m-12-strokes-dataInput.txt")
            let (summary, _) = try Pipeline.collect(&source, configuration: accelerometerOnly)
            var rows = [EvaluationRow(dataset: name, check: "strokes", expected: "12", found: String(summary.strokes),
                                      error: signed(summary.strokes - 12), tolerance: "exact", passed: summary.strokes == 12)]
            let rate = summary.averageStrokeRate
            rows.append(EvaluationRow(dataset: name, check: "avg rate (spm)", expected: "19.25",
                                      found: RowingFormat.decimal(rate, places: 2),
                                      error: rate.map { RowingFormat.decimal($0 - 19.25, places: 2) } ?? "—",
                                      tolerance: "±2.0 (info: the app's own figure)",
                                      passed: rate.map { abs($0 - 19.25) <= 2.0 } ?? false))
            return rows
        } catch {
            return [.failure(dataset: name, check: "strokes", "\(error)")]
        }
    }

    // MARK: Quiske: real per-stroke boat acceleration curves chained, boundaries known

    public static func quiske(dataDirectory: String) -> [EvaluationRow] {
        let path = dataDirectory + "/rowingdata/quiske_per_stroke_seat.csv"
        var rows: [EvaluationRow] = []
        for rate in [nil, 25.0, 50.0, 500.0] as [Hertz?] {
            let name = "quiske chained" + (rate.map { " @\(Int($0)) Hz" } ?? " (as recorded)")
            do {
                var source = try QuiskeCurveReader(path: path, sampleRate: rate)
                // Every curve runs catch to catch; the first starts with the recording, after its
                // catch dip, so only the later boundaries are observable catches.
                let truth = Array(source.strokes.map(\.time).dropFirst())
                let (_, collector) = try Pipeline.collect(&source, configuration: accelerometerOnly)
                let match = StrokeMatch.match(detected: collector.strokes.map(\.stroke.catchTime), truth: truth, tolerance: quiskeTolerance)
                rows.append(strokeRow(dataset: name, match: match, tolerance: quiskeTolerance))
            } catch {
                rows.append(.failure(dataset: name, check: "strokes within 50 ms", "\(error)"))
            }
        }
        return rows
    }

    // MARK: NK LiNK Logbook: GPS distance and per-stroke split against the device

    public static func nkLogbook(dataDirectory: String) -> [EvaluationRow] {
        let name = "nk_logbook (NK LiNK)"
        do {
            var source = try NKLogbookReader(path: dataDirectory + "/rowingdata/nk_logbook.csv")
            let (summary, collector) = try Pipeline.collect(&source, configuration: asNKDevices)
            var rows = [distanceRow(dataset: name, summary: summary, collector: collector, tolerance: nkDistanceTolerance)]
            // Per-stroke split: ours (from our GPS processing over the device's stroke times) against the device's pace.
            var deviceSplitAt: [Seconds: SecondsPer500m] = [:]
            for r in collector.references { if let s = r.split { deviceSplitAt[r.time] = s } }
            var differences: [Double] = []
            for m in collector.strokes {
                if let ours = m.split, let theirs = deviceSplitAt[m.stroke.catchTime], ours.isFinite, theirs.isFinite {
                    differences.append(abs(ours - theirs))
                }
            }
            differences.sort()
            let median = differences.isEmpty ? nil : differences[differences.count / 2]
            rows.append(EvaluationRow(dataset: name, check: "per-stroke split, median |diff|",
                                      expected: "device's gpsPace", found: "\(differences.count) strokes compared",
                                      error: median.map { RowingFormat.decimal($0, places: 2) + " s/500m" } ?? "—",
                                      tolerance: "≤ " + RowingFormat.decimal(nkSplitTolerance, places: 1) + " s/500m",
                                      passed: median.map { $0 <= nkSplitTolerance } ?? false))
            return rows
        } catch {
            return [.failure(dataset: name, check: "distance", "\(error)")]
        }
    }

    // MARK: SpeedCoach GPS Pro: total distance against the device

    public static func speedCoach(dataDirectory: String) -> [EvaluationRow] {
        let name = "SpeedCoach GPS Pro"
        do {
            var source = try SpeedCoachReader(path: dataDirectory + "/rowingdata/SpeedCoach2Linkv1.27.csv")
            let (summary, collector) = try Pipeline.collect(&source, configuration: asNKDevices)
            return [distanceRow(dataset: name, summary: summary, collector: collector, tolerance: speedCoachDistanceTolerance)]
        } catch {
            return [.failure(dataset: name, check: "distance", "\(error)")]
        }
    }

    // MARK: Simulated sessions: every stroke known

    /// Rates 16–40 spm × accelerometer rates 25/50/100/500 Hz × three mountings.
    public static func simulatedSessions(rates: [StrokesPerMinute] = [16, 20, 24, 28, 32, 36, 40],
                                         accelRates: [Hertz] = [25, 50, 100, 500],
                                         mountings: [String] = ["flat", "upright", "tilted"],
                                         minutes: Double = 2) -> [EvaluationRow] {
        var rows: [EvaluationRow] = []
        for mountingName in mountings {
            for accelRate in accelRates {
                var failures: [String] = []
                var total = StrokeMatch()
                for rate in rates {
                    do {
                        var configuration = SimulationConfiguration(minutes: minutes, rate: rate)
                        configuration.accelRate = accelRate
                        configuration.mounting = try Mounting.parse(mountingName)
                        configuration.seed = UInt64(rate) &* 1000 &+ UInt64(accelRate)
                        var simulator = try BoatSimulator(configuration: configuration)
                        let (_, collector) = try Pipeline.collect(&simulator, configuration: accelerometerOnly)
                        let truth = simulator.groundTruth.strokes.map(\.catchTime)
                        let match = StrokeMatch.match(detected: collector.strokes.map(\.stroke.catchTime), truth: truth, tolerance: simulatedTolerance)
                        total = total.combined(with: match)
                        if match.missed > 0 || match.extra > 0 {
                            failures.append("\(Int(rate)) spm: \(match.missed) missed, \(match.extra) extra")
                        }
                    } catch {
                        failures.append("\(Int(rate)) spm: \(error)")
                    }
                }
                var row = strokeRow(dataset: "simulated \(mountingName) @\(Int(accelRate)) Hz, \(Int(rates.first ?? 0))–\(Int(rates.last ?? 0)) spm",
                                    match: total, tolerance: simulatedTolerance)
                if !failures.isEmpty {
                    row.found += " [" + failures.joined(separator: "; ") + "]"
                    row.passed = false
                }
                rows.append(row)
            }
        }
        return rows
    }

    /// Full workouts: warm-up paddling, pieces from 18 to 40 spm, rests to a stop and standing
    /// restarts — the detector must follow every change of rate and every restart.
    public static func simulatedWorkouts(accelRates: [Hertz] = [25, 100], mountings: [String] = ["flat", "tilted", "upside-down"],
                                         minutes: Double = 20) -> [EvaluationRow] {
        var rows: [EvaluationRow] = []
        for mountingName in mountings {
            for accelRate in accelRates {
                let name = "simulated workout \(mountingName) @\(Int(accelRate)) Hz, \(Int(minutes)) min with rests"
                do {
                    var configuration = try SimulationConfiguration.fromOptions(
                        minutes: minutes, accelHz: accelRate, profile: "workout", mounting: mountingName, seed: UInt64(accelRate) &+ 77)
                    configuration.gpsDropoutsPerHour = 4
                    var simulator = try BoatSimulator(configuration: configuration)
                    let (_, collector) = try Pipeline.collect(&simulator, configuration: accelerometerOnly)
                    let match = StrokeMatch.match(detected: collector.strokes.map(\.stroke.catchTime),
                                                  truth: simulator.groundTruth.strokes.map(\.catchTime), tolerance: simulatedTolerance)
                    rows.append(strokeRow(dataset: name, match: match, tolerance: simulatedTolerance))
                } catch {
                    rows.append(.failure(dataset: name, check: "strokes", "\(error)"))
                }
            }
        }
        return rows
    }

    // MARK: helpers

    static var accelerometerOnly: AnalyzerConfiguration {
        var c = AnalyzerConfiguration()
        c.strokeSource = .accelerometer
        return c
    }

    static func strokeRow(dataset: String, match: StrokeMatch, tolerance: Seconds) -> EvaluationRow {
        let ms = Int((tolerance * 1000).rounded())
        return EvaluationRow(
            dataset: dataset, check: "strokes within \(ms) ms",
            expected: String(match.truthCount),
            found: "\(match.matched) matched, \(match.missed) missed, \(match.extra) extra",
            error: "max " + (match.maxError.map { String(Int(($0 * 1000).rounded())) } ?? "—") + " ms, median "
                + (match.medianError.map { String(Int(($0 * 1000).rounded())) } ?? "—") + " ms",
            tolerance: "all within \(ms) ms",
            passed: match.missed == 0 && match.extra == 0 && match.truthCount > 0)
    }

    /// Our total distance against the device's: its session summary when the export has one,
    /// else its distance at the last stroke.
    static func distanceRow(dataset: String, summary: SessionSummary, collector: StrokeCollector, tolerance: Double) -> EvaluationRow {
        let device = collector.metadata["device_total_distance_m"].flatMap(Double.init)
            ?? collector.references.compactMap(\.distance).max()
        let ours = summary.distance
        var error: Double?
        if let device, let ours, device > 0 { error = (ours - device) / device }
        return EvaluationRow(dataset: dataset, check: "total distance (m)", expected: RowingFormat.decimal(device, places: 1),
                             found: RowingFormat.decimal(ours, places: 1),
                             error: error.map { RowingFormat.decimal($0 * 100, places: 3) + " %" } ?? "—",
                             tolerance: "±" + RowingFormat.decimal(tolerance * 100, places: 1) + " %",
                             passed: error.map { abs($0) <= tolerance } ?? false)
    }

    static func signed(_ n: Int) -> String { n > 0 ? "+\(n)" : String(n) }
}
