import Foundation
import OarlogTestSupport
import XCTest

/// The command line as a person runs it: the built `oarlog` binary, its output, its exit status.
/// (The assembly behind each command is tested in OarlogAppTests; these check the thin shell.)
final class CLITests: XCTestCase {
    var dataDirectory: URL!

    override func setUp() {
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-cli-\(UUID().uuidString)")
    }

    override func tearDown() { try? FileManager.default.removeItem(at: dataDirectory) }

    func oarlog(_ arguments: String...) throws -> CommandRun {
        try oarlog(arguments: arguments)
    }

    /// `oarlog` beside the test bundle (`swift test` builds it: this target depends on it).
    func oarlog(arguments: [String]) throws -> CommandRun {
        try runOarlog(arguments, dataDirectory: dataDirectory.path)
    }

    func testReplayJSONHasTheDocumentedKeys() throws {
        let run = try oarlog("replay", "samples/sim-workout.csv", "--json", "--strokes")
        XCTAssertEqual(run.status, 0, run.err)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        for key in ["elapsed_s", "distance_m", "strokes", "avg_stroke_rate_spm", "max_stroke_rate_spm", "avg_split_s_per_500m",
                    "best_split_s_per_500m", "distance_per_stroke_m", "stroke_list"] {
            XCTAssertNotNil(object[key], key)
        }
        let truth = try String(contentsOfFile: try samplePath("sim-workout.truth.csv"), encoding: .utf8)
        let truthStrokes = truth.split(separator: "\n").filter { $0.hasPrefix("stroke,") }.count
        XCTAssertEqual(object["strokes"] as? Int, truthStrokes)
        XCTAssertEqual((object["stroke_list"] as? [Any])?.count, truthStrokes)
        XCTAssertEqual(object["elapsed_s"] as? Double ?? 0, 1200, accuracy: 1)
    }

    func testSaveShowAndSessionsAgree() throws {
        let saved = try oarlog("replay", "samples/sim-workout.csv", "--save", "--title", "Head race", "--split-averaging", "4strokes")
        XCTAssertEqual(saved.status, 0, saved.err)
        XCTAssertTrue(saved.err.contains("saved as session 2026-05-02T07-00-00Z_head-race"), saved.err)
        let show = try oarlog("show", "last")
        XCTAssertEqual(show.status, 0, show.err)
        XCTAssertTrue(show.out.hasPrefix("Oarlog session — Head race\n"), show.out)
        XCTAssertTrue(show.out.contains("split_averaging 4strokes"), show.out)
        let list = try oarlog("sessions", "--json")
        let array = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [[String: Any]])
        XCTAssertEqual(array.count, 1)
        XCTAssertEqual(array.first?["title"] as? String, "Head race")
        let shown = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try oarlog("show", "last", "--json").out.utf8)) as? [String: Any])
        XCTAssertEqual(shown["strokes"] as? Int, array.first?["strokes"] as? Int)
        XCTAssertEqual(shown["distance_m"] as? Double, array.first?["distance_m"] as? Double)
    }

    /// `evaluate --open-goals` prints the rows of the goals not met everywhere yet and exits 0
    /// whatever they read (they are reported, not gating).
    func testEvaluateOpenGoalsPrintsTheirRowsAndExitsZero() throws {
        let run = try oarlog("evaluate", "--open-goals")
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.out.hasPrefix("Goals not met everywhere yet (reported; they do not set the exit status):\n"), run.out)
        for dataset in ["simulated 20→32 spm in three strokes", "simulated 500 m from a standing start, positions only",
                        "SpeedCoach GPS Pro, from the session's start", "nk_logbook (NK LiNK), from rest at 2916.1 s"] {
            XCTAssertTrue(run.out.contains(dataset), dataset)
        }
        XCTAssertTrue(run.out.contains("2 of 6 checks within tolerance"), run.out)
        // The SpeedCoach interval file's five pieces are registered (in `oarlog evaluate`), not open.
        XCTAssertFalse(run.out.contains("5 intervals"), run.out)
    }

    func testMistakesAreClearAndExitNonZero() throws {
        let badAxis = try oarlog("replay", "samples/sim-workout.csv", "--axis", "sideways")
        XCTAssertEqual(badAxis.status, 64)
        XCTAssertTrue(badAxis.err.contains("--axis 'sideways': expected auto, +x"), badAxis.err)
        let missing = try oarlog("show", "last")
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.err.hasPrefix("Error: "), missing.err)
        let noTrace = try oarlog("replay", "no-such-trace.csv")
        XCTAssertEqual(noTrace.status, 1)
        XCTAssertTrue(noTrace.err.contains("no-such-trace.csv"), noTrace.err)
        let badTime = try oarlog("play", "last", "--from", "1:75")
        XCTAssertEqual(badTime.status, 64)
        XCTAssertTrue(badTime.err.contains("--from '1:75': expected m:ss"), badTime.err)
    }
}
