import Foundation
import OarlogTestSupport
import XCTest

/// `oarlog courses` and `oarlog attempts` as a person types them: the NK export saved twice and
/// its course added give two attempts of `oarlog course`'s time, in the contract's JSON keys;
/// what cannot be kept is refused with the reason and a non-zero status.
extension CLITests {
    func testCoursesAndTheLeaderboard() throws {
        let nk = try samplePath("rowingdata/nk_logbook.csv")
        XCTAssertEqual(try oarlog("replay", nk, "--save").status, 0)
        XCTAssertEqual(try oarlog("replay", nk, "--save", "--boat", "Eight").status, 0)
        let course = try oarlog("course", nk, "--fences", "samples/nk-course.geojson")
        XCTAssertTrue(course.out.contains("total                          2,000 m   10:08.3"), course.out)

        let add = try oarlog("courses", "add", "samples/nk-course.geojson", "--name", "NK 2k")
        XCTAssertEqual(add.status, 0, add.err)
        XCTAssertTrue(add.out.contains("kept NK 2k: 2,000 m, 5 gates; searched 2 sessions, 2 attempts found"), add.out)

        let board = try oarlog("attempts", "--course", "NK 2k", "--json")
        XCTAssertEqual(board.status, 0, board.err)
        let attempts = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(board.out.utf8)) as? [[String: Any]])
        XCTAssertEqual(attempts.count, 2)
        for a in attempts {
            for key in ["course", "session", "boat", "date", "start_s", "time_s", "legs"] { XCTAssertNotNil(a[key], key) }
            XCTAssertEqual(a["course"] as? String, "NK 2k")
            XCTAssertEqual(a["time_s"] as? Double ?? 0, 608.3, accuracy: 0.05, "10:08.3")
            let legs = try XCTUnwrap(a["legs"] as? [[String: Any]])
            XCTAssertEqual(legs.map { $0["to"] as? String }, ["500 m", "1000 m", "1500 m", "Finish"])
            let total = legs.reduce(0.0) { $0 + ($1["time_s"] as? Double ?? 0) }
            XCTAssertEqual(total, a["time_s"] as? Double ?? 0, accuracy: 0.03, "the legs add up to the time")
            for leg in legs {
                XCTAssertEqual(leg["split_s_per_500m"] as? Double ?? 0, (leg["time_s"] as? Double ?? 0) * 500 / (leg["distance_m"] as? Double ?? 1), accuracy: 0.01)
            }
        }
        XCTAssertEqual(Set(attempts.map { $0["boat"] as? String }), ["", "Eight"])
        let eight = try oarlog("attempts", "--boat", "eight", "--json")
        XCTAssertEqual((try JSONSerialization.jsonObject(with: Data(eight.out.utf8)) as? [Any])?.count, 1)

        let listed = try oarlog("courses", "list", "--json")
        let courses = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [[String: Any]])
        XCTAssertEqual(courses.map { $0["name"] as? String }, ["NK 2k"])
        XCTAssertEqual(courses.first?["attempts"] as? Int, 2)
        XCTAssertEqual(courses.first?["best_time_s"] as? Double ?? 0, 608.3, accuracy: 0.05)
        let list = try oarlog("courses", "list")
        XCTAssertTrue(list.out.contains("NK 2k  2,000 m      5         2  10:08.3"), list.out)
        let again = try oarlog("courses", "add", "samples/nk-course.geojson", "--name", "Canal")
        XCTAssertEqual(again.status, 1)
        XCTAssertEqual(again.err, "Error: the course \"NK 2k\" has the same gates\n")
        XCTAssertEqual(try oarlog("courses", "delete", "NK 2k").status, 0)
        XCTAssertEqual(try oarlog("courses", "show", "NK 2k").status, 1)
        XCTAssertEqual(try oarlog("attempts", "--json").out, "[]\n")
    }
}
