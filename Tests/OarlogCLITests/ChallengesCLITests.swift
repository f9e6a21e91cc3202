import Foundation
import OarlogTestSupport
import XCTest

/// `oarlog challenges` as a person runs it: set on a kept course (refused with the reason for a
/// time that does not read, a course not kept, a past deadline), listed as a table and as JSON,
/// and an answer refused while nothing waits. The NK sample's attempt (2021) was rowed before a
/// challenge set now, so it does not count: the challenge is open with nothing tried.
final class ChallengesCLITests: XCTestCase {
    var data: URL!

    override func setUpWithError() throws {
        data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-challenges-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: data) }

    func oarlog(_ arguments: String...) throws -> CommandRun { try runOarlog(arguments, dataDirectory: data.path) }

    func testSetListAndAnswer() throws {
        XCTAssertEqual(try oarlog("courses", "add", "samples/nk-course.geojson", "--name", "NK course").status, 0)
        XCTAssertEqual(try oarlog("replay", "samples/rowingdata/nk_logbook.csv", "--save", "--boat", "W8+ Blue").status, 0)
        let set = try oarlog("challenges", "set", "--course", "nk course", "--under", "9:30", "--before", "2099-12-20", "--boat", "W8+ Blue",
                             "--handicap", "--by", "Coach Ann", "--note", "head race pace")
        XCTAssertEqual(set.status, 0, set.err)
        XCTAssertTrue(set.out.contains("NK course under 9:30.0 handicapped before 2099-12-20 for W8+ Blue"), set.out)
        let list = try oarlog("challenges", "--json")
        XCTAssertEqual(list.status, 0, list.err)
        let all = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [[String: Any]])
        XCTAssertEqual(all.count, 1)
        let c = all[0]
        XCTAssertEqual(c["course"] as? String, "NK course")
        XCTAssertEqual(c["target_s"] as? Double, 570)
        XCTAssertEqual(c["deadline"] as? String, "2099-12-20T00:00:00.000Z")
        XCTAssertEqual(c["boat"] as? String, "W8+ Blue")
        XCTAssertEqual(c["handicap"] as? Bool, true)
        XCTAssertEqual(c["set_by"] as? String, "Coach Ann")
        XCTAssertEqual(c["state"] as? String, "open")
        XCTAssertTrue(c["attempt"] is NSNull)
        XCTAssertEqual((c["tried"] as? [Any])?.count, 0, "rowed in 2021, before the challenge was set")
        let id = try XCTUnwrap(c["id"] as? String)
        let table = try oarlog("challenges")
        XCTAssertTrue(table.out.contains(id) && table.out.contains("open"), table.out)

        let accept = try oarlog("challenges", "accept", id, "--note", "well rowed")
        XCTAssertEqual(accept.status, 1)
        XCTAssertTrue(accept.err.contains("no attempt waiting"), accept.err)
        for (args, words) in [(["--course", "NK course", "--under", "nine"], "target"), (["--course", "Nowhere", "--under", "9:30"], "no course"),
                              (["--course", "NK course", "--under", "9:30", "--before", "2001-01-01"], "past"),
                              (["--course", "NK course", "--under", "9:30", "--class", "canoe"], "class")] {
            let bad = try runOarlog(["challenges", "set"] + args, dataDirectory: data.path)
            XCTAssertEqual(bad.status, 1, args.joined(separator: " "))
            XCTAssertTrue(bad.err.contains(words), bad.err)
        }
        XCTAssertEqual(try oarlog("challenges", "--json").out.filter { $0 == "{" }.count, 1, "nothing refused was kept")
    }
}
