import Foundation
import OarlogTestSupport
import XCTest

/// `--workout` as a person types it: `replay` prints the interval table and gives `intervals`
/// in its JSON with the contract's keys; a plan that does not read is refused with the column,
/// the place marked under it, and a non-zero status; `record --workout-at-go` needs a plan.
extension CLITests {
    func testReplayWithAWorkoutPrintsItsIntervals() throws {
        let table = try oarlog("replay", "samples/sim-workout.csv", "--workout", "3x2:00@18-20spm/1:00r")
        XCTAssertEqual(table.status, 0, table.err)
        XCTAssertTrue(table.out.contains("Workout 3x2:00@18-20spm/1:00r: 3 pieces, 5 of 5 intervals rowed"), table.out)
        XCTAssertTrue(table.out.contains("piece 3"))
        XCTAssertTrue(table.out.contains("18–20 spm"))

        let json = try oarlog("replay", "samples/sim-workout.csv", "--workout", "2x500m/1:00r", "--json")
        XCTAssertEqual(json.status, 0, json.err)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let workout = try XCTUnwrap(object["workout"] as? [String: Any])
        XCTAssertEqual(workout["pieces"] as? Int, 2)
        let intervals = try XCTUnwrap(object["intervals"] as? [[String: Any]])
        XCTAssertEqual(intervals.map { $0["kind"] as? String }, ["work", "rest", "work"])
        XCTAssertEqual(intervals.map { $0["index"] as? Int }, [1, 2, 3])
        for piece in [intervals[0], intervals[2]] {
            XCTAssertEqual(piece["distance_m"] as? Double ?? 0, 500, accuracy: 5)
            let elapsed = try XCTUnwrap(piece["elapsed_s"] as? Double)
            let split = try XCTUnwrap(piece["avg_split_s_per_500m"] as? Double)
            XCTAssertEqual(split, elapsed / (piece["distance_m"] as? Double ?? 1) * 500, accuracy: 0.02)
            let strokes = try XCTUnwrap(piece["strokes"] as? Int)
            XCTAssertEqual(piece["distance_per_stroke_m"] as? Double ?? 0, (piece["distance_m"] as? Double ?? 0) / Double(strokes), accuracy: 0.01)
        }
        XCTAssertEqual(intervals[1]["elapsed_s"] as? Double ?? 0, 60, accuracy: 1e-3)
        XCTAssertEqual((intervals[1]["start_s"] as? Double ?? 0) + 60, intervals[2]["start_s"] as? Double ?? 0, accuracy: 2e-3)
    }

    func testABadPlanIsRefusedWithItsColumn() throws {
        let run = try oarlog("replay", "samples/sim-workout.csv", "--workout", "3x4:00/2:00")
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.err.contains("rest needs a trailing r at column 11"), run.err)
        XCTAssertTrue(run.err.contains("3x4:00/2:00\n             ^") || run.err.contains("  3x4:00/2:00\n"), run.err)
        XCTAssertTrue(run.out.isEmpty, "nothing replayed: \(run.out)")
        let atGo = try oarlog("record", "--workout-at-go", "--no-gps", "--duration", "1")
        XCTAssertNotEqual(atGo.status, 0)
        XCTAssertTrue(atGo.err.contains("--workout-at-go starts a plan: add --workout"), atGo.err)
    }
}
