import ArgumentParser
import OarlogCore
import OarlogDSP
import OarlogExport
import OarlogPipeline
import OarlogReport
import OarlogSession
import OarlogTrace

/// `oarlog export TRACE|SESSION --format gpx|tcx|fit|csv|geojson [-o FILE]`: replays a trace or a
/// recorded session through the pipeline into one exporter, streaming the file as it goes.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a session as GPX, TCX, FIT, a per-stroke CSV or GeoJSON.",
        discussion: """
            The trace or session is replayed through the same pipeline as `oarlog replay`, so the export
            carries the same distance, strokes and stroke rate. A recorded session (a path, an id or
            `last`) is replayed with the analysis settings it was recorded with, unless given here, and
            its export is written to the current directory as ID.EXT by default. See docs/EXPORTS.md.
            Examples:
              oarlog export last --format gpx                        writes 2026-05-02T07-00-00Z_….gpx
              oarlog export session.csv --format fit                 writes session.fit
              oarlog export session.csv --format gpx -o row.gpx
              oarlog export session.csv --format tcx --laps every:500
              oarlog export session.csv --format csv --csv-columns rowingdata
            """
    )

    @Argument(help: "A recorded session (a path, an id or `last`) or a trace file (native CSV, SpeedCoach, NK LiNK Logbook, Talos, Quiske).")
    var trace: String

    @Option(help: "The export format: \(ExportFormat.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: ExportFormat

    @Option(name: .shortAndLong, help: "The output file (default: the trace's name with the format's extension; csv: .strokes.csv).")
    var output: String?

    @Option(name: .customLong("input-format"),
            help: "The trace format: \(TraceFormat.allCases.map(\.rawValue).joined(separator: ", ")) (default: detected).")
    var inputFormat: TraceFormat?

    @Option(help: "Laps: rests (a new lap at the first catch after a 30 s pause), rests:SECONDS, every:METRES, whole.")
    var laps: String = "rests"

    @Option(name: .customLong("csv-columns"), help: "Per-stroke CSV columns: oarlog (plain names with units) or rowingdata (rowsandall.com).")
    var csvColumns: String = "oarlog"

    @Option(help: "A title for the session (GPX track name, TCX notes, GeoJSON name).")
    var title: String?

    @OptionGroup(title: "Analysis")
    var analysis: AnalysisOptions

    func validate() throws {
        if LapRule(parsing: laps) == nil {
            throw ValidationError("--laps '\(laps)': expected rests, rests:SECONDS (e.g. rests:45), every:METRES (e.g. every:500) or whole")
        }
        if StrokeCSVExporter.Columns(rawValue: csvColumns.lowercased()) == nil {
            throw ValidationError("--csv-columns '\(csvColumns)': expected oarlog or rowingdata")
        }
    }

    func run() throws {
        SignalFlag.install()
        let session = inputFormat == nil ? SessionSupport.sessionIfAny(trace) : nil
        let inputPath = session?.path ?? trace
        let path = output ?? format.defaultOutputPath(forInput: session.map { SessionSupport.id(of: $0.path) + ".oarlog" } ?? trace)
        if path == inputPath { throw ValidationError("the export would overwrite \(inputPath): choose another -o") }
        var source: any RecordSource = try session.map { try SessionSupport.replaySource($0) } ?? openTrace(trace, format: inputFormat)
        let options = try session.map { try recordedSettings(of: $0) } ?? analysis
        let analyzerConfiguration = try options.analyzerConfiguration()
        let configuration = ExportConfiguration(analyzer: analyzerConfiguration, laps: LapRule(parsing: laps) ?? .whole,
                                                title: title ?? session.map { $0.metadata.title })
        let exporter = try format.makeExporter(path: path, configuration: configuration,
                                               csvColumns: StrokeCSVExporter.Columns(rawValue: csvColumns.lowercased()) ?? .oarlog)
        var sinks: [any PipelineSink] = [exporter]
        if let progress = ProgressReporter.ifTerminal() { sinks.append(progress) }
        var pipeline = Pipeline(analyzer: RowingAnalyzer(configuration: analyzerConfiguration), sinks: sinks)
        let summary = try pipeline.run(&source, shouldStop: { SignalFlag.interrupted })
        if session == nil { reportSkips(of: source, path: trace) }
        let distance = RowingFormat.distance(summary.distance)
        StandardStreams.error("wrote \(path) (\(format.rawValue)): \(distance), \(summary.strokes) strokes\n")
    }
}

extension Export {
    /// The session's recorded analysis settings, overridden by any option given on the command line
    /// (an option left at its default does not override).
    func recordedSettings(of reader: SessionReader) throws -> AnalysisOptions {
        var recorded = try SessionSupport.analysisOptions(for: reader.metadata)
        let defaults = AnalysisOptions.parseOrDefault()
        if analysis.axis != defaults.axis { recorded.axis = analysis.axis }
        if analysis.splitAveraging != defaults.splitAveraging { recorded.splitAveraging = analysis.splitAveraging }
        if analysis.strokesFrom != defaults.strokesFrom { recorded.strokesFrom = analysis.strokesFrom }
        return recorded
    }
}

extension ExportFormat: ExpressibleByArgument {}
