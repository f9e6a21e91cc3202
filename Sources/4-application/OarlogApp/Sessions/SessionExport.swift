import OarlogCore
import OarlogDSP
import OarlogExport
import OarlogPipeline
import OarlogWorkouts
import OarlogSession
import OarlogTrace

/// An export of a recorded session or a trace (`oarlog export`, the web app's downloads): the
/// input replayed through the same pipeline as a replay, into one streaming exporter.
public struct SessionExport {
    /// What is exported: a recorded session (replayed with its recorded settings, unless the
    /// person gave others) or a trace file.
    public enum Input {
        case session(SessionReader)
        case trace(path: String, format: TraceFormat?)
    }

    public var input: Input
    public var format: ExportFormat
    public var laps: LapRule
    public var csvColumns: StrokeCSVExporter.Columns
    public var title: String?
    /// Settings the person gave (for a session, those left at their defaults keep the recorded ones).
    public var settings: AnalysisSettings
    /// A plan to time over a trace (`export TRACE --workout`): its intervals become the laps of
    /// FIT and TCX. A session brings its own recorded plan.
    public var workout: WorkoutPlan?

    public init(input: Input, format: ExportFormat, laps: LapRule = .rests(minimumPause: 30),
                csvColumns: StrokeCSVExporter.Columns = .oarlog, title: String? = nil, settings: AnalysisSettings = .defaults) {
        self.input = input
        self.format = format
        self.laps = laps
        self.csvColumns = csvColumns
        self.title = title
        self.settings = settings
    }

    /// The file written when none is named: ID.EXT for a session (in the current directory),
    /// the trace's name with the format's extension for a trace (`.strokes.csv` for csv).
    public var defaultOutputPath: String {
        switch input {
        case .session(let reader): return format.defaultOutputPath(forInput: SessionText.id(of: reader.path) + ".oarlog")
        case .trace(let path, _): return format.defaultOutputPath(forInput: path)
        }
    }

    var inputPath: String {
        switch input {
        case .session(let reader): return reader.path
        case .trace(let path, _): return path
        }
    }

    /// What a run ends with.
    public struct Outcome {
        public var path: String
        public var summary: SessionSummary
        /// The trace reader's skipped rows (nil when none, and for a session).
        public var skipNote: String?
    }

    /// Writes the export to `path` (default: `defaultOutputPath`); `sinks` see the run too
    /// (progress). Refuses to overwrite its own input.
    public func run(to path: String? = nil, sinks: [any PipelineSink] = [], shouldStop: () -> Bool = { false }) throws -> Outcome {
        let output = path ?? defaultOutputPath
        if output == inputPath { throw AppError("the export would overwrite \(inputPath): choose another output file") }
        if format == .html { return try writeReport(to: output) }
        switch input {
        case .session(let reader):
            let replay = SessionReplay(reader, overrides: settings)
            let exporter = try exporter(output, settings: replay.settings, title: title ?? reader.metadata.title)
            let outcome = try replay.run(sinks: [exporter] + sinks, shouldStop: shouldStop)
            return Outcome(path: output, summary: outcome.summary, skipNote: nil)
        case .trace(let tracePath, let traceFormat):
            let exporter = try exporter(output, settings: settings, title: title)
            var pipeline = try RowingPipeline.make(settings: settings, sinks: [exporter] + sinks,
                                                   workout: workout.map { WorkoutTracker(plan: $0) })
            var source = try TraceOpener.open(path: tracePath, format: traceFormat)
            let summary = try pipeline.run(&source, shouldStop: shouldStop)
            return Outcome(path: output, summary: summary, skipNote: TraceInput.skipNote(TraceOpener.statistics(of: source), path: tracePath))
        }
    }

    /// The format's streaming exporter to `path`, with the analysis and laps it labels.
    private func exporter(_ path: String, settings: AnalysisSettings, title: String?) throws -> any PipelineSink {
        var analyzer = try settings.analyzerConfiguration()
        analyzer.distance.smoothing = DistanceConfiguration.replaySmoothing  // as the export's pipeline (RowingPipeline)
        let configuration = ExportConfiguration(analyzer: analyzer, laps: laps, title: title)
        return try format.makeExporter(path: path, configuration: configuration, csvColumns: csvColumns)
    }
}
