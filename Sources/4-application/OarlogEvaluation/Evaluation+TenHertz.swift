import OarlogCore
import OarlogDSP
import OarlogPipeline
import OarlogSimulator

/// A 10 Hz receiver (a u-blox M8/M9 set to CFG-RATE 100 ms) on the simulated outings of the 1 Hz
/// distance rows: the same receiver errors (1.5 m wander correlated over a minute, 0.3 m jitter
/// per fix, Doppler speed), ten fixes a second. Every fix the receiver gave must be used (none
/// rejected as a jump, none ignored), and the distance must be as good as at 1 Hz.
extension Evaluation {
    /// Distance tolerance at 10 Hz (fraction of the true distance), as at 1 Hz with Doppler speed.
    public static let tenHertzDistanceTolerance = 0.003
    /// The receiver rate of these rows.
    public static let tenHertzRate: Hertz = 10

    /// What one 10 Hz run found.
    public struct TenHertzRun: Sendable {
        /// Fixes the simulated receiver gave (outages give none).
        public var fixesGiven = 0
        /// Fixes the analyzer's distance accumulator used.
        public var fixesUsed = 0
        /// Our distance / the true distance − 1.
        public var distanceError = 0.0
    }

    /// Both distance outings at 10 Hz with Doppler speed: fixes used and distance, over every seed.
    public static func tenHertz() -> [EvaluationRow] {
        distanceOutings.flatMap { tenHertzRows($0.name, profile: $0.profile, course: $0.course) }
    }

    /// One outing at 10 Hz over `distanceSeeds`, through the pipeline as a replay runs it.
    public static func tenHertzRuns(profile: SimulationProfile, course: SimulationConfiguration.Course) throws -> [TenHertzRun] {
        try distanceSeeds.map { seed in
            var configuration = SimulationConfiguration(duration: profile.totalDuration, profile: profile)
            configuration.accelRate = 25  // distance comes from GPS only; keep the run cheap
            configuration.gpsRate = tenHertzRate
            configuration.course = course
            configuration.seed = seed
            var source = FixCounter(inner: TruthAtFixes(simulator: try BoatSimulator(configuration: configuration)))
            var pipeline = Pipeline(analyzer: RowingAnalyzer(configuration: accelerometerOnly))
            let summary = try pipeline.run(&source)
            let truth = source.inner.truthAtLastFix
            guard let ours = summary.distance, truth > 0 else { throw SimulationConfigurationError("seed \(seed): no distance") }
            return TenHertzRun(fixesGiven: source.fixes, fixesUsed: pipeline.analyzer.distance.usedFixes,
                               distanceError: ours / truth - 1)
        }
    }

    static func tenHertzRows(_ name: String, profile: SimulationProfile, course: SimulationConfiguration.Course) -> [EvaluationRow] {
        let dataset = "simulated outing, \(name), 10 Hz receiver, Doppler speed"
        do {
            let runs = try tenHertzRuns(profile: profile, course: course)
            let given = runs.map(\.fixesGiven).reduce(0, +), used = runs.map(\.fixesUsed).reduce(0, +)
            let fixesRow = EvaluationRow(dataset: dataset, check: "fixes used", expected: "\(given) (every fix, \(runs.count) seeds)",
                                         found: "\(used)", error: signed(used - given), tolerance: "0",
                                         passed: used == given && given > 0)
            let errors = runs.map(\.distanceError)
            let worst = errors.max { abs($0) < abs($1) } ?? .nan
            let mean = errors.reduce(0, +) / Double(max(1, errors.count))
            let distanceRow = EvaluationRow(dataset: dataset, check: "total distance vs truth",
                                            expected: "true distance, \(errors.count) seeds", found: "mean " + percent(mean),
                                            error: "worst " + percent(worst),
                                            tolerance: "±" + RowingFormat.decimal(tenHertzDistanceTolerance * 100, places: 1) + " %",
                                            passed: errors.count == distanceSeeds.count && abs(worst) <= tenHertzDistanceTolerance)
            return [fixesRow, distanceRow]
        } catch {
            return [.failure(dataset: dataset, check: "fixes used", "\(error)")]
        }
    }
}

/// A source's records, counting the GPS fixes that pass.
struct FixCounter<Inner: RecordSource>: RecordSource {
    var inner: Inner
    private(set) var fixes = 0
    init(inner: Inner) { self.inner = inner }
    mutating func next() throws -> TraceRecord? {
        let record = try inner.next()
        if case .fix? = record { fixes += 1 }
        return record
    }
    mutating func nextAccelBatch(into buffer: UnsafeMutableBufferPointer<AccelSample>) throws -> Int {
        try inner.nextAccelBatch(into: buffer)
    }
}
