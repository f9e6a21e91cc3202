import Foundation
import OarlogApp
import OarlogCore
import OarlogPipeline
import OarlogSession
import XCTest

/// A workout kept in a session file: the intervals the replay concluded are the ones recorded,
/// a replay of the recorded session gives them again, the report shows them, and a file cut
/// during a piece (a power cut) keeps every interval that ended before it.
final class WorkoutSessionTests: XCTestCase {
    static let plan = "3x2:00@18-20spm/1:00r"

    /// Replays the sample with the plan, kept in `sessions`; returns the session's path and the
    /// intervals the run reported.
    func keptReplay(_ sessions: TemporarySessions) throws -> (String, WorkoutCollector) {
        var replay = try TraceReplay(path: try simWorkout())
        replay.workout = try WorkoutSpec.parse(Self.plan)
        let writer = try SessionSaving.replayWriter(for: replay.input, title: "pieces", settings: replay.settings,
                                                    directory: sessions.directory)
        let collected = WorkoutCollector()
        _ = try replay.run(sinks: [collected], saveTo: writer)
        return (writer.path, collected)
    }

    func testTheRecordedIntervalsAreTheReplaysAndAReplayOfTheSessionGivesThemAgain() throws {
        let sessions = TemporarySessions()
        defer { sessions.remove() }
        let (path, collected) = try keptReplay(sessions)
        XCTAssertEqual(collected.intervals.count, 5)
        XCTAssertEqual(collected.intervals.map(\.kind), [.work, .rest, .work, .rest, .work])

        let reader = try SessionReader(path: path)
        let recorded = try XCTUnwrap(try reader.workout())
        XCTAssertEqual(recorded.plan, try WorkoutSpec.parse(Self.plan))
        XCTAssertEqual(recorded.intervals, collected.intervals)
        XCTAssertEqual(try XCTUnwrap(recorded.startTime), collected.intervals[0].start, accuracy: 1e-9)

        let again = WorkoutCollector()
        _ = try SessionReplay(reader).run(sinks: [again])
        XCTAssertEqual(again.intervals.count, collected.intervals.count)
        for (a, b) in zip(again.intervals, collected.intervals) {
            XCTAssertEqual(a.start, b.start, accuracy: 1e-6, "interval \(a.index)")
            XCTAssertEqual(a.end, b.end, accuracy: 1e-6, "interval \(a.index)")
            XCTAssertEqual(a.strokes, b.strokes, "interval \(a.index)")
            XCTAssertEqual(try XCTUnwrap(a.distance), try XCTUnwrap(b.distance), accuracy: 0.5, "interval \(a.index)")
        }

        // The report: `intervals` in the JSON with the contract's keys, and the table.
        let report = try StoredSessionReport(reader, includeStrokes: false)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        let intervals = try XCTUnwrap(json["intervals"] as? [[String: Any]])
        XCTAssertEqual(intervals.count, 5)
        for key in ["index", "kind", "start_s", "elapsed_s", "distance_m", "strokes", "avg_stroke_rate_spm",
                    "avg_split_s_per_500m", "distance_per_stroke_m", "target"] {
            XCTAssertNotNil(intervals[0][key], "intervals[0] has \(key)")
        }
        XCTAssertEqual(intervals.map { $0["kind"] as? String }, ["work", "rest", "work", "rest", "work"])
        XCTAssertEqual(intervals[2]["strokes"] as? Int, collected.intervals[2].strokes)
        let target = try XCTUnwrap(intervals[0]["target"] as? [String: Any])
        XCTAssertEqual(target["stroke_rate_spm"] as? [Double], [18, 20])
        XCTAssertTrue(report.table().contains("piece 3"))
    }

    func testAPowerCutDuringAPieceKeepsTheIntervalsThatEndedBeforeIt() throws {
        let sessions = TemporarySessions()
        defer { sessions.remove() }
        let (path, collected) = try keptReplay(sessions)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let cutPath = sessions.path("cut.oarlog")
        // Cut in the middle of the third piece (6:00…8:00): the file's bytes are about even in time.
        let third = collected.intervals[4]
        let session = collected.intervals.last!.end + 30
        var cutAt = Int(Double(original.count) * ((third.start + 60) / session))
        var kept: RecordedWorkout?
        // Find the cut's time from what the cut file still holds (a chunk is about a second).
        while true {
            try original.prefix(cutAt).write(to: URL(fileURLWithPath: cutPath))
            let reader = try SessionReader(path: cutPath)
            let fixes = try reader.fixes()
            if let last = fixes.last?.time, last < third.start + 90 {
                kept = try reader.workout()
                XCTAssertGreaterThan(last, third.start + 5, "the cut falls inside the third piece")
                break
            }
            cutAt -= original.count / 50
        }
        let workout = try XCTUnwrap(kept)
        XCTAssertEqual(workout.intervals, Array(collected.intervals.prefix(4)),
                       "every interval that ended before the cut is kept, and nothing of the piece it cut")
    }
}
