import ArgumentParser
import OarlogApp
import OarlogCore
import OarlogExport
import OarlogTrace
import OarlogTerminal

/// `oarlog export TRACE|SESSION --format gpx|tcx|fit|csv|geojson|html [-o FILE]`: replays a trace or a
/// recorded session through the pipeline into one exporter, streaming the file as it goes; `html`
/// is a kept session's single-file report (SessionReport).
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a session as GPX, TCX, FIT, a per-stroke CSV, GeoJSON or a one-file HTML report.",
        discussion: """
            The trace or session is replayed through the same pipeline as `oarlog replay`, so the export \
            carries the same distance, strokes and stroke rate. A recorded session (a path, an id or \
            `last`) is replayed with the analysis settings it was recorded with, unless given here, and \
            its export is written to the current directory as ID.EXT by default. See docs/EXPORTS.md.
            Examples:
              oarlog export last --format gpx                        writes 2026-05-02T07-00-00Z_….gpx
              oarlog export session.csv --format fit                 writes session.fit
              oarlog export session.csv --format gpx -o row.gpx
              oarlog export session.csv --format tcx --laps every:500
              oarlog export session.csv --format csv --csv-columns rowingdata
              oarlog export last --format html                       the report: one file that opens offline
            """
    )

    @Argument(help: "A recorded session (a path, an id or `last`) or a trace file (native CSV, a SpeedCoach, NK LiNK Logbook, BoatCoach, CoxMate, Talos or Quiske export, TCX, GPX, FIT).")
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

    @Option(help: "A workout plan to time over a trace (`3x4:00/2:00r`; docs/WORKOUTS.md): its intervals are the FIT and TCX laps. A session brings its own.")
    var workout: String?

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
        var export = SessionExport(input: SessionStore.default.exportInput(trace, traceFormat: inputFormat), format: format,
                                   laps: LapRule(parsing: laps) ?? .whole,
                                   csvColumns: StrokeCSVExporter.Columns(rawValue: csvColumns.lowercased()) ?? .oarlog,
                                   title: title, settings: analysis.settings)
        export.workout = try workout.map(WorkoutArgument.plan)
        let outcome = try export.run(to: output, sinks: ProgressReporter.ifTerminal().map { [$0] } ?? [],
                                     shouldStop: { SignalFlag.interrupted })
        reportSkips(outcome.skipNote)
        StandardStreams.error("wrote \(outcome.path) (\(format.rawValue)): \(RowingFormat.distance(outcome.summary.distance)), "
            + "\(outcome.summary.strokes) strokes\n")
    }
}

extension ExportFormat: ExpressibleByArgument {}
