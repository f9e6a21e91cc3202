import Foundation
import OarlogTestSupport
import XCTest

/// `oarlog hr assign`, `list`, `unassign` as a person runs them: seats and addresses kept in
/// `straps.json` beside the sessions, a strap moved from one seat to another, bad seats and
/// addresses refused with the reason, at most eight straps. (The scan and the live straps are
/// tested against a stand-in of bluetoothd in OarlogHeartRateTests.)
final class HeartRateCLITests: XCTestCase {
    var data: URL!

    override func setUpWithError() throws {
        data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-hr-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: data) }

    func oarlog(_ arguments: String...) throws -> CommandRun { try runOarlog(arguments, dataDirectory: data.path) }

    /// seat → address of the assigned straps, as `hr list --json` gives them.
    private func seats() throws -> [String: String] {
        let run = try oarlog("hr", "list", "--json")
        XCTAssertEqual(run.status, 0, run.err)
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [[String: Any]], run.out)
        var seats: [String: String] = [:]
        for row in rows { if let seat = row["seat"] as? String { seats[seat] = row["address"] as? String } }
        return seats
    }

    func testAssignListMoveAndUnassign() throws {
        XCTAssertEqual(try seats(), [:])
        let stroke = try oarlog("hr", "assign", "stroke", "c0:ff:ee:00:00:01")
        XCTAssertEqual(stroke.status, 0, stroke.err)
        XCTAssertEqual(stroke.out, "stroke: C0:FF:EE:00:00:01\n")
        XCTAssertEqual(try oarlog("hr", "assign", "bow", "C0:FF:EE:00:00:02").status, 0)
        XCTAssertEqual(try seats(), ["stroke": "C0:FF:EE:00:00:01", "bow": "C0:FF:EE:00:00:02"])

        // The bow's strap given to seat 2 leaves the bow.
        let moved = try oarlog("hr", "assign", "2", "C0:FF:EE:00:00:02")
        XCTAssertEqual(moved.out, "2: C0:FF:EE:00:00:02 (taken from bow)\n")
        XCTAssertEqual(try seats(), ["stroke": "C0:FF:EE:00:00:01", "2": "C0:FF:EE:00:00:02"])

        XCTAssertEqual(try oarlog("hr", "unassign", "C0:FF:EE:00:00:01").out, "stroke: C0:FF:EE:00:00:01 unassigned\n")
        XCTAssertEqual(try oarlog("hr", "unassign", "2").status, 0)
        XCTAssertEqual(try seats(), [:])
        let none = try oarlog("hr", "unassign", "cox")
        XCTAssertNotEqual(none.status, 0)
        XCTAssertTrue(none.err.contains("no strap is assigned to 'cox'"), none.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: data.path + "/sessions/straps.json"))
    }

    func testBadSeatsAndAddressesAndANinthStrapAreRefused() throws {
        let address = try oarlog("hr", "assign", "stroke", "C0:FF:EE:00:00")
        XCTAssertNotEqual(address.status, 0)
        XCTAssertTrue(address.err.contains("is not a Bluetooth address"), address.err)
        let seat = try oarlog("hr", "assign", "stroke,seat", "C0:FF:EE:00:00:01")
        XCTAssertNotEqual(seat.status, 0)
        XCTAssertTrue(seat.err.contains("expected 1–16 letters"), seat.err)
        for n in 1...8 { XCTAssertEqual(try oarlog("hr", "assign", "\(n)", "C0:FF:EE:00:00:0\(n)").status, 0) }
        let ninth = try oarlog("hr", "assign", "cox", "C0:FF:EE:00:00:09")
        XCTAssertNotEqual(ninth.status, 0)
        XCTAssertTrue(ninth.err.contains("8 straps are assigned already"), ninth.err)
        XCTAssertEqual(try seats().count, 8)
    }
}
