import Foundation
import OarlogTestSupport
import XCTest

/// `oarlog share`, `shares` and `unshare` as a person runs them over a kept session (the NK
/// logbook sample): `share last` prints `/share/TOKEN`, `shares --json` lists it with its session,
/// `unshare TOKEN` revokes that one link, `unshare ID` every link of the session; a session not
/// kept and a link not made are refused with the reason.
final class ShareCLITests: XCTestCase {
    var data: URL!

    override func setUpWithError() throws {
        data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-share-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: data) }

    func oarlog(_ arguments: String...) throws -> CommandRun { try runOarlog(arguments, dataDirectory: data.path) }

    private func shares() throws -> [[String: Any]] {
        let run = try oarlog("shares", "--json")
        XCTAssertEqual(run.status, 0, run.err)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [[String: Any]], run.out)
    }

    func testShareListAndRevoke() throws {
        XCTAssertEqual(try oarlog("replay", "samples/rowingdata/nk_logbook.csv", "--save", "--title", "Shared").status, 0)
        let listed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try oarlog("sessions", "--json").out.utf8)) as? [[String: Any]])
        let id = try XCTUnwrap(listed.first?["id"] as? String)
        XCTAssertEqual(try shares().count, 0)

        let first = try oarlog("share", "last"), second = try oarlog("share", id)
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertEqual(second.status, 0, second.err)
        let paths = [first.out, second.out].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        for p in paths { XCTAssertTrue(p.hasPrefix("/share/") && p.count == "/share/".count + 22, p) }
        XCTAssertNotEqual(paths[0], paths[1])
        let all = try shares()
        XCTAssertEqual(all.compactMap { $0["path"] as? String }, paths)
        XCTAssertEqual(all.compactMap { $0["session"] as? String }, [id, id])

        let one = try oarlog("unshare", String(paths[0].dropFirst("/share/".count)))
        XCTAssertEqual(one.status, 0, one.err)
        XCTAssertEqual(one.out, "revoked 1 share link\n")
        XCTAssertEqual(try shares().compactMap { $0["path"] as? String }, [paths[1]])
        XCTAssertEqual(try oarlog("share", "last").status, 0)
        let bySession = try oarlog("unshare", id)
        XCTAssertEqual(bySession.out, "revoked 2 share links\n")
        XCTAssertEqual(try shares().count, 0)

        let none = try oarlog("unshare", id)
        XCTAssertNotEqual(none.status, 0)
        XCTAssertTrue(none.err.contains("no share link and no shared session"), none.err)
        let nosuch = try oarlog("share", "1999-01-01T00-00-00Z_nothing")
        XCTAssertNotEqual(nosuch.status, 0)
        XCTAssertFalse(nosuch.err.isEmpty)
    }
}
