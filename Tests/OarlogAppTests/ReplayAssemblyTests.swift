import Foundation
@testable import OarlogApp
import OarlogCore
import OarlogDSP
import OarlogPipeline
import OarlogSession
import OarlogTestSupport
import OarlogTrace
import XCTest

/// Each mode's assembly, through the library (no CLI): a trace replay, a replay kept as a
/// session, that session replayed with its recorded settings, and exports.
final class ReplayAssemblyTests: XCTestCase {
    let sessions = TemporarySessions()
    override func tearDown() { sessions.remove() }

    /// The same trace straight through a bare pipeline, record by record (no batch path, no wrapper).
    func reference(settings: AnalysisSettings = .defaults) throws -> (SessionSummary, [StrokeMetrics], [LiveFigures]) {
        struct RecordByRecord: RecordSource {
            var base: any RecordSource
            mutating func next() throws -> TraceRecord? { try base.next() }
        }
        var source = RecordByRecord(base: try TraceOpener.open(path: try simWorkout()))
        let strokes = StrokeCollector()
        let live = LiveFiguresCollector()
        var pipeline = Pipeline(analyzer: RowingAnalyzer(configuration: try settings.analyzerConfiguration()), sinks: [strokes, live])
        return (try pipeline.run(&source), strokes.strokes, live.figures)
    }

    func testTraceReplayGivesTheBarePipelinesFiguresAndEveryTrueStroke() throws {
        let (expected, expectedStrokes, _) = try reference()
        var replay = try TraceReplay(path: try simWorkout())
        let strokes = StrokeCollector()
        let outcome = try replay.run(sinks: [strokes])
        XCTAssertEqual(outcome.summary, expected)
        XCTAssertEqual(strokes.strokes, expectedStrokes)
        XCTAssertEqual(outcome.summary.strokes, try simWorkoutTruthStrokes())
        XCTAssertNil(outcome.skipNote)
        XCTAssertEqual(replay.input.startUTC, UTCTime.parseISO8601("2026-05-02T07:00:00.000Z"))
        XCTAssertEqual(replay.facts.accelSamples, 60_000)
        let gpsRows = try String(contentsOfFile: try simWorkout(), encoding: .utf8).split(separator: "\n").filter { $0.contains(",gps,") }.count
        XCTAssertEqual(replay.facts.fixes, gpsRows)
    }

    func testTheWrappedReplayTakesTheBatchPath() throws {
        var input = try TraceInput(path: try simWorkout())
        let buffer = UnsafeMutableBufferPointer<AccelSample>.allocate(capacity: 4096)
        defer { buffer.deallocate() }
        // While read-ahead records remain, the batch call hands out nothing…
        XCTAssertEqual(try input.source.nextAccelBatch(into: buffer), 0)
        var viaRecords = 0, viaBatches = 0
        while true {
            let n = try input.source.nextAccelBatch(into: buffer)
            if n > 0 { viaBatches += n; continue }
            guard let r = try input.source.next() else { break }
            if case .accel = r { viaRecords += 1 }
        }
        // …then the reader's batches come through: most samples arrive in batches, none lost.
        XCTAssertEqual(viaRecords + viaBatches, 60_000)
        XCTAssertGreaterThan(viaBatches, 50_000)
    }

    func testASavedReplayReplaysWithItsRecordedSettings() throws {
        let settings = AnalysisSettings(splitAveraging: "4strokes")
        var replay = try TraceReplay(path: try simWorkout(), settings: settings)
        let writer = try SessionSaving.replayWriter(for: replay.input, title: "Head race", settings: settings, directory: sessions.directory)
        let outcome = try replay.run(sinks: [], saveTo: writer)
        let reader = try SessionStore(directory: sessions.directory).open("last")
        XCTAssertEqual(reader.metadata.title, "Head race")
        XCTAssertEqual(reader.metadata.startUTC, UTCTime.parseISO8601("2026-05-02T07:00:00.000Z"))

        let session = SessionReplay(reader)
        XCTAssertEqual(session.settings, settings)
        let strokes = StrokeCollector()
        let live = LiveFiguresCollector()
        let again = try session.run(sinks: [strokes, live])
        XCTAssertEqual(again.summary.strokes, outcome.summary.strokes)
        XCTAssertEqual(again.summary.distance ?? .nan, outcome.summary.distance ?? 0, accuracy: 1e-6)
        XCTAssertTrue(again.damage.isEmpty)
        // The recorded 4-stroke averaging, not the default 5 s: the live splits equal the trace's
        // with 4strokes and differ from the default's.
        let (_, _, defaultLive) = try reference()
        let (_, fourStrokes, fourStrokesLive) = try reference(settings: settings)
        XCTAssertEqual(strokes.strokes, fourStrokes)
        XCTAssertEqual(live.figures.map(\.split), fourStrokesLive.map(\.split))
        XCTAssertNotEqual(live.figures.map(\.split), defaultLive.map(\.split))

        // The stored figures and the recomputed ones agree.
        let stored = try SessionFigures.load(reader, includeStrokes: true)
        let recomputed = try SessionFigures.recompute(reader, includeStrokes: true)
        XCTAssertFalse(stored.recomputed)
        XCTAssertTrue(recomputed.recomputed)
        XCTAssertEqual(stored.summary.strokes, recomputed.summary.strokes)
        XCTAssertEqual(stored.strokes?.count, recomputed.strokes?.count)
        XCTAssertEqual(stored.accelerometerSamples, 60_000)
    }

    func testReportsShareTheReplayJSONKeys() throws {
        var replay = try TraceReplay(path: try simWorkout())
        var json = ""
        let sink = JSONReportSink(source: "x", includeStrokes: false, facts: replay.facts) { json += $0 }
        let writer = try SessionSaving.replayWriter(for: replay.input, title: nil, settings: .defaults, directory: sessions.directory)
        _ = try replay.run(sinks: [sink], saveTo: writer)
        let live = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
        let report = try StoredSessionReport(try SessionStore(directory: sessions.directory).open("last"), includeStrokes: true)
        let shown = try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as! [String: Any]
        for key in ["elapsed_s", "distance_m", "strokes", "avg_stroke_rate_spm", "max_stroke_rate_spm", "avg_split_s_per_500m",
                    "best_split_s_per_500m", "distance_per_stroke_m", "accel_samples", "gps_fixes", "notes", "gaps"] {
            XCTAssertEqual("\(live[key] ?? "missing")", "\(shown[key] ?? "missing")", key)
        }
        XCTAssertEqual((shown["stroke_list"] as? [Any])?.count, try simWorkoutTruthStrokes())
        XCTAssertEqual(shown["title"] as? String, "sim-workout.csv")
        XCTAssertTrue(report.table().contains("Strokes          \(try simWorkoutTruthStrokes())\n"), report.table())

        let list = try SessionList(sessions.directory)
        XCTAssertEqual(list.sessions.count, 1)
        let rows = list.rows()
        XCTAssertEqual(rows[0], ["DATE (UTC)", "TITLE", "DURATION", "DISTANCE", "STROKES", "RATE", "SPLIT", "ID"])
        XCTAssertEqual(rows[1][0], "2026-05-02 07:00")
        XCTAssertEqual(rows[1][4], String(try simWorkoutTruthStrokes()))
        let array = try JSONSerialization.jsonObject(with: Data(list.json().utf8)) as! [[String: Any]]
        XCTAssertEqual(array.first?["strokes"] as? Int, try simWorkoutTruthStrokes())
    }

    func testASessionExportsAsItsTraceDoesWithTheSameSettings() throws {
        let settings = AnalysisSettings(splitAveraging: "4strokes")
        var replay = try TraceReplay(path: try simWorkout(), settings: settings)
        let writer = try SessionSaving.replayWriter(for: replay.input, title: "Export me", settings: settings, directory: sessions.directory)
        _ = try replay.run(sinks: [], saveTo: writer)
        let reader = try SessionStore(directory: sessions.directory).open("last")

        let fromSession = try SessionExport(input: .session(reader), format: .csv).run(to: sessions.path("session.strokes.csv"))
        let fromTrace = try SessionExport(input: .trace(path: try simWorkout(), format: nil), format: .csv, settings: settings)
            .run(to: sessions.path("trace.strokes.csv"))
        XCTAssertEqual(fromSession.summary.strokes, fromTrace.summary.strokes)
        let a = try String(contentsOfFile: fromSession.path, encoding: .utf8)
        let b = try String(contentsOfFile: fromTrace.path, encoding: .utf8)
        XCTAssertEqual(a.split(separator: "\n").count, try simWorkoutTruthStrokes() + 1)
        XCTAssertEqual(a, b)
        // The default name of a session's export is its id; an export never overwrites its input.
        XCTAssertEqual(SessionExport(input: .session(reader), format: .gpx).defaultOutputPath, SessionText.id(of: reader.path) + ".gpx")
        XCTAssertThrowsError(try SessionExport(input: .session(reader), format: .gpx).run(to: reader.path)) {
            XCTAssertTrue("\($0)".contains("would overwrite"), "\($0)")
        }
    }

    func testABadSettingOrAMissingTraceIsAClearError() {
        XCTAssertThrowsError(try TraceReplay(path: "/nonexistent.csv")) { XCTAssertTrue("\($0)".contains("/nonexistent.csv"), "\($0)") }
        XCTAssertThrowsError(try TraceReplay(path: "/nonexistent.csv", settings: AnalysisSettings(axis: "q"))) {
            XCTAssertTrue("\($0)".hasPrefix("--axis 'q'"), "\($0)")
        }
        XCTAssertThrowsError(try SessionStore(directory: sessions.directory).open("last"))
    }
}

/// Keeps the live figures a run shows.
final class LiveFiguresCollector: PipelineSink {
    var figures: [LiveFigures] = []
    func receive(_ event: PipelineEvent) {
        if case .analysis(.live(let f)) = event { figures.append(f) }
    }
}
