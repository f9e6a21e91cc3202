import Foundation
import OarlogTestSupport
import XCTest

/// `oarlog sessions` with filters, as a person types them: the binary's table and JSON over
/// saved simulated outings, a damaged file listed with the recover hint, a bad option named.
extension CLITests {
    func testSessionsSearchFilterAndSort() throws {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        for (title, rate, date, boat) in [("Easy paddle", "18", "2026-05-02T07:00:00Z", "Eight"), ("Race pace", "32", "2026-05-09T07:00:00Z", "Four"),
                                          ("Steady state", "22", "2026-06-01T07:00:00Z", "Eight")] {
            let trace = dataDirectory.appendingPathComponent("\(rate).csv").path
            let simulated = try oarlog("simulate", "--minutes", "3", "--rate", rate, "--accel-hz", "25", "--seed", rate,
                                       "--start-utc", date, "-o", trace)
            XCTAssertEqual(simulated.status, 0, simulated.err)
            let saved = try oarlog("replay", trace, "--save", "--title", title, "--boat", boat)
            XCTAssertEqual(saved.status, 0, saved.err)
        }
        let note = try oarlog("note", "2026-05-09", "Pushed off the bridge", "--at", "1:00")
        XCTAssertEqual(note.status, 0, note.err)

        func titles(_ arguments: String...) throws -> [String] {
            let run = try oarlog(arguments: ["sessions", "--json"] + arguments)
            XCTAssertEqual(run.status, 0, run.err)
            let array = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [[String: Any]])
            return array.compactMap { $0["title"] as? String }
        }
        XCTAssertEqual(try titles(), ["Steady state", "Race pace", "Easy paddle"])
        XCTAssertEqual(try titles("--search", "bridge"), ["Race pace"], "the note added afterwards is searched")
        XCTAssertEqual(try titles("--search", "STEAD"), ["Steady state"])
        XCTAssertEqual(try titles("--from", "2026-05-03", "--to", "2026-05-31"), ["Race pace"])
        XCTAssertEqual(try titles("--boat", "eight"), ["Steady state", "Easy paddle"])
        XCTAssertEqual(try titles("--rate", "30-34"), ["Race pace"])
        XCTAssertEqual(try titles("--sort", "split"), ["Race pace", "Steady state", "Easy paddle"])
        XCTAssertEqual(try titles("--sort", "distance").first, "Race pace")
        XCTAssertEqual(try titles("--near", "51.4873,-0.2241"), ["Steady state", "Race pace", "Easy paddle"], "the simulator's start")
        XCTAssertEqual(try titles("--near", "52.2246,6.8522,2000"), [])
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try oarlog("sessions", "--json", "--search", "race").out.utf8))
            as? [[String: Any]])
        XCTAssertEqual(json.first?["boat"] as? String, "Four")
        XCTAssertEqual(json.first?["notes"] as? [String], ["Pushed off the bridge"])

        // A damaged file: listed, with the hint, and the rest still answer.
        let sessions = try oarlog("sessions", "--directory").out.trimmingCharacters(in: .whitespacesAndNewlines)
        try Data("not a session".utf8).write(to: URL(fileURLWithPath: sessions + "/2026-05-20T07-00-00Z_junk.oarlog"))
        let table = try oarlog("sessions")
        XCTAssertEqual(table.status, 0, table.err)
        XCTAssertTrue(table.out.contains("oarlog recover 2026-05-20T07-00-00Z_junk"), table.out)
        XCTAssertEqual(table.out.split(separator: "\n").count, 5, "a header and four sessions: \(table.out)")
        XCTAssertEqual(try titles("--search", "race"), ["Race pace"])

        // Nothing matches: said so. A bad option: exit 64 naming it.
        let none = try oarlog("sessions", "--search", "henley")
        XCTAssertEqual(none.out, "no session matches\n")
        let bad = try oarlog("sessions", "--from", "May 3")
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.err.contains("--from 'May 3': give a date YYYY-MM-DD"), bad.err)
        let badNear = try oarlog("sessions", "--near", "51.5")
        XCTAssertEqual(badNear.status, 64)
        XCTAssertTrue(badNear.err.contains("--near '51.5'"), badNear.err)
    }
}
