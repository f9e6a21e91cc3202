import Foundation
import OarlogTestSupport
import XCTest

/// `oarlog workouts` as a person runs it: plans added in the text form and from a .json file,
/// listed (table and JSON), shown step by step (a saved name or a plan's text), removed; a bad
/// plan's error with its column and a caret under it, exit status 1. (CLITests' data directory
/// and `oarlog` runner.)
extension CLITests {
    func testWorkoutsAddListShowRemove() throws {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        let added = try oarlog("workouts", "add", "Tuesday 8s", "8x500m@1:48-1:52/1:30r")
        XCTAssertEqual(added.status, 0, added.err)
        XCTAssertEqual(added.out, "saved Tuesday 8s: 8 × 500 m at 1:48–1:52 split / 1:30 rest\n")

        let file = dataDirectory.appendingPathComponent("pyramid.json")
        try Data("""
            {"name": "Saturday pyramid", "steps": [{"kind": "warmup", "time_s": 600},
              {"repeat": 3, "steps": [{"kind": "work", "distance_m": 500, "rate_spm": [22, 24], "label": "race pace"},
                                      {"kind": "rest", "time_s": 90}]},
              {"kind": "cooldown", "time_s": 600}]}
            """.utf8).write(to: file)
        let fromFile = try oarlog("workouts", "add", "Pyramid", file.path)
        XCTAssertEqual(fromFile.status, 0, fromFile.err)
        XCTAssertEqual(fromFile.out, "saved Pyramid: 10:00 warm-up + 3 × 500 m at 22–24 spm / 1:30 rest + 10:00 cool-down\n")

        let list = try oarlog("workouts", "list")
        XCTAssertEqual(list.status, 0, list.err)
        XCTAssertEqual(list.out.split(separator: "\n").map(String.init), [
            "name        pieces  plan",
            "Pyramid          3  10:00 warm-up + 3 × 500 m at 22–24 spm / 1:30 rest + 10:00 cool-down",
            "Tuesday 8s       8  8 × 500 m at 1:48–1:52 split / 1:30 rest",
        ])
        let listJSON = try oarlog("workouts", "list", "--json")
        let plans = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listJSON.out.utf8)) as? [[String: Any]])
        XCTAssertEqual(plans.map { $0["name"] as? String }, ["Pyramid", "Tuesday 8s"])
        XCTAssertEqual(plans[1]["spec"] as? String, "8x500m@1:48-1:52/1:30r")
        XCTAssertEqual((plans[0]["steps"] as? [Any])?.count, 8)
        // Kept beside the sessions.
        let sessions = try oarlog("sessions", "--directory").out.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(FileManager.default.fileExists(atPath: sessions + "/workouts.json"), sessions)

        let show = try oarlog("workouts", "show", "Pyramid")
        XCTAssertEqual(show.status, 0, show.err)
        let lines = show.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertEqual(lines[0], "workout  Pyramid")
        XCTAssertEqual(lines[1], "plan     (JSON form)")
        XCTAssertEqual(lines[4], "step  piece  kind       length  target     label")
        XCTAssertEqual(lines[5], "   1         warm-up    10:00")
        XCTAssertEqual(lines[6], "   2  1/3    piece      500 m   22–24 spm  race pace")
        XCTAssertEqual(lines[7], "   3         rest       1:30")
        XCTAssertEqual(lines.count, 5 + 8 + 1)

        // A plan's text, to check it before saving it.
        let check = try oarlog("workouts", "show", "3x10:00@20spm,22spm,24spm/2:00r", "--json")
        XCTAssertEqual(check.status, 0, check.err)
        let plan = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(check.out.utf8)) as? [String: Any])
        let steps = try XCTUnwrap(plan["steps"] as? [[String: Any]])
        XCTAssertEqual(steps.compactMap { $0["rate_spm"] as? Int }, [20, 22, 24])
        XCTAssertEqual(steps.compactMap { $0["time_s"] as? Int }, [600, 120, 600, 120, 600])

        let removed = try oarlog("workouts", "remove", "Tuesday 8s")
        XCTAssertEqual(removed.status, 0, removed.err)
        XCTAssertEqual(removed.out, "removed Tuesday 8s\n")
        XCTAssertEqual(try oarlog("workouts", "list").out.split(separator: "\n").count, 2)
    }

    func testWorkoutMistakesAreClear() throws {
        let bad = try oarlog("workouts", "add", "Broken", "3x4:00/2:00")
        XCTAssertEqual(bad.status, 1)
        XCTAssertEqual(bad.err, "Error: spec: rest needs a trailing r at column 11\n  3x4:00/2:00\n            ^\n")
        let show = try oarlog("workouts", "show", "3x4:00/2:00")
        XCTAssertEqual(show.status, 1)
        XCTAssertTrue(show.err.hasPrefix("Error: ‘3x4:00/2:00’: no saved workout has that name, it is no .json file, and as a plan: rest needs a trailing r at column 11\n"), show.err)
        XCTAssertEqual(try oarlog("workouts", "add", "Too many", "10000x500m/1:30r").err.split(separator: "\n").first,
                       "Error: spec: 10000 pieces: a workout has at most 100 at column 1")
        let missing = try oarlog("workouts", "remove", "Nothing")
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.err, "Error: no saved workout named ‘Nothing’\n")
        let noFile = try oarlog("workouts", "add", "x", "/nonexistent/plan.json")
        XCTAssertEqual(noFile.err, "Error: /nonexistent/plan.json: no such file\n")
        XCTAssertEqual(try oarlog("workouts", "list").err, "no saved workouts (oarlog workouts add NAME SPEC)\n")
    }
}
