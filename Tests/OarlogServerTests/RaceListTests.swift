import Foundation
import OarlogTestSupport
import XCTest

/// The race list's filters (#races) in headless Chromium: each step's list is exactly what
/// `/api/sessions` and `oarlog sessions --json` give for the same filters, in the same order; the
/// filters survive in the address; a damaged file is listed with what to do. Screenshots in
/// `.build/screenshots/race-list-*.png`.
final class RaceListTests: XCTestCase {
    func testFiltersListWhatTheIndexAnswers() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-race-list-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        for (title, rate, date, boat) in [("Easy paddle to the bridge", "18", "2026-05-02T07:00:00Z", "Eight"),
                                          ("Race pace", "32", "2026-05-09T07:00:00Z", "Four"),
                                          ("Steady state", "22", "2026-05-20T07:00:00Z", "Eight"),
                                          ("Bridge sprints", "34", "2026-06-01T07:00:00Z", "Four")] {
            let trace = data.appendingPathComponent("\(rate).csv").path
            let simulated = try oarlogCLI(["simulate", "--minutes", "3", "--rate", rate, "--accel-hz", "25", "--seed", rate,
                                           "--start-utc", date, "-o", trace], dataDirectory: data)
            XCTAssertEqual(simulated.status, 0, simulated.err)
            let saved = try oarlogCLI(["replay", trace, "--save", "--title", title, "--boat", boat], dataDirectory: data)
            XCTAssertEqual(saved.status, 0, saved.err)
        }
        let sessions = try oarlogCLI(["sessions", "--directory"], dataDirectory: data).out.trimmingCharacters(in: .whitespacesAndNewlines)
        try Data("not a session".utf8).write(to: URL(fileURLWithPath: sessions + "/2026-05-25T07-00-00Z_junk.oarlog"))

        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "5"], dataDirectory: data)
        let shots = try BrowserScript.screenshots()
        let picked = try samplePath("rowingdata/SpeedCoach2Link_interval.csv")
        let dropped = TestPaths.packageRoot.appendingPathComponent("Tests/OarlogTraceTests/Fixtures/devices/SpeedCoach2v2.12.csv").path
        // A second boat, with no sessions, for the import (the list above stays as it was).
        let importData = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-race-import-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: importData) }
        try FileManager.default.createDirectory(at: importData, withIntermediateDirectories: true)
        let importing = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "5"], dataDirectory: importData)
        let result = try BrowserScript.run("race_list.py", [server.base, shots.path, importing.base, importing.token, picked, dropped])
        let steps = try XCTUnwrap(result["steps"] as? [String: [String: Any]])

        /// The ids the API gives for a query, checked against the CLI with the same filters.
        func answer(_ query: String, cli: [String]) throws -> [String] {
            let api = try XCTUnwrap(try jsonObject(String(decoding: try server.download("/api/sessions" + (query.isEmpty ? "" : "?" + query)).body,
                                                          as: UTF8.self)) as? [[String: Any]])
            let viaCLI = try XCTUnwrap(try jsonObject(try oarlogCLI(["sessions", "--json"] + cli, dataDirectory: data).out) as? [[String: Any]])
            XCTAssertEqual(api.compactMap { $0["id"] as? String }, viaCLI.compactMap { $0["id"] as? String }, query)
            return api.compactMap { $0["id"] as? String }
        }
        func titles(_ step: String) -> [String] { steps[step]?["titles"] as? [String] ?? ["missing \(step)"] }
        func ids(_ step: String) -> [String] { steps[step]?["ids"] as? [String] ?? ["missing \(step)"] }

        let cases: [(step: String, query: String, cli: [String], titles: [String])] = [
            // The damaged file has no readable start: last, under its id.
            ("all", "", [], ["Bridge sprints · Four", "Steady state · Eight", "Race pace · Four", "Easy paddle to the bridge · Eight",
                             "2026-05-25T07-00-00Z_junk"]),
            ("search", "search=bridge", ["--search", "bridge"], ["Bridge sprints · Four", "Easy paddle to the bridge · Eight"]),
            ("search_from", "search=bridge&from=2026-05-03", ["--search", "bridge", "--from", "2026-05-03"], ["Bridge sprints · Four"]),
            ("from_to", "from=2026-05-03&to=2026-05-31", ["--from", "2026-05-03", "--to", "2026-05-31"],
             ["Steady state · Eight", "Race pace · Four"]),
            ("rate", "rate=28-36", ["--rate", "28-36"], ["Bridge sprints · Four", "Race pace · Four"]),
            ("boat", "boat=Eight", ["--boat", "Eight"], ["Steady state · Eight", "Easy paddle to the bridge · Eight"]),
            ("boat_by_split", "boat=Eight&sort=split", ["--boat", "Eight", "--sort", "split"],
             ["Steady state · Eight", "Easy paddle to the bridge · Eight"]),
            ("none", "search=henley", ["--search", "henley"], []),
            ("address", "sort=distance&near=51.48730,-0.22410,300", ["--sort", "distance", "--near", "51.48730,-0.22410,300"],
             ["Bridge sprints · Four", "Race pace · Four", "Steady state · Eight", "Easy paddle to the bridge · Eight"]),
        ]
        for c in cases {
            XCTAssertEqual(titles(c.step), c.titles, c.step)
            XCTAssertEqual(ids(c.step), try answer(c.query, cli: c.cli), "\(c.step): the page lists what the API answers")
            XCTAssertEqual(steps[c.step]?["overflow_x"] as? Bool, false, "\(c.step): nothing wider than the phone")
        }
        // Distances: whatever the index says, the page lists in its order and threshold.
        XCTAssertEqual(ids("min_distance"), try answer("min_distance=800", cli: ["--min-distance", "800"]))
        XCTAssertFalse(ids("min_distance").isEmpty)
        XCTAssertLessThan(ids("min_distance").count, 4)
        XCTAssertEqual(ids("cleared"), ids("all"))
        XCTAssertEqual(ids("near_cleared"), try answer("sort=distance", cli: ["--sort", "distance"]))
        // What the page says.
        XCTAssertEqual(steps["all"]?["count"] as? String, "5 sessions")
        XCTAssertEqual(steps["search"]?["count"] as? String, "2 sessions match (of 5)")
        XCTAssertEqual(steps["none"]?["count"] as? String, "0 sessions match (of 5)")
        XCTAssertEqual(steps["all"]?["damaged"] as? [String],
                       ["Damaged file: run “oarlog recover 2026-05-25T07-00-00Z_junk” on the boat to keep what can be read."])
        XCTAssertEqual(steps["all"]?["boats"] as? [String], ["", "Eight", "Four"])
        XCTAssertEqual(steps["address"]?["near"] as? String, "Near 51.4873, -0.2241 (within 300 m)")
        XCTAssertEqual(steps["boat_by_split"]?["hash"] as? String, "#races?boat=Eight&sort=split", "the filters are in the address")
        XCTAssertEqual(steps["laptop"]?["overflow_x"] as? Bool, false)
        XCTAssertEqual(result["console"] as? [String], [])
        // Imported on the page: the chosen file is a new session (titled by its own name, 5x1:00,
        // as `oarlog sessions` lists it); dropped again it is a duplicate, the other dropped file
        // is imported and a file of no format is refused with why.
        let pickedStep = try XCTUnwrap(result["picked"] as? [String: Any])
        XCTAssertEqual(pickedStep["counts"] as? String, "Imported 1, skipped as duplicates 0, refused 0")
        XCTAssertEqual(pickedStep["titles"] as? [String], ["5x1:00"], "the list shows it at once")
        let droppedStep = try XCTUnwrap(result["dropped"] as? [String: Any])
        XCTAssertEqual(droppedStep["counts"] as? String, "Imported 1, skipped as duplicates 1, refused 1")
        XCTAssertEqual((droppedStep["refused"] as? [String])?.count, 1)
        XCTAssertTrue((droppedStep["refused"] as? [String])?.first?.hasPrefix("notes.csv: unrecognised trace format") == true, "\(droppedStep)")
        XCTAssertEqual(droppedStep["titles"] as? [String], ["Dist-1000M", "5x1:00"])
        XCTAssertEqual(droppedStep["overflow_x"] as? Bool, false)
        let cli = try XCTUnwrap(try jsonObject(try oarlogCLI(["sessions", "--json"], dataDirectory: importData).out) as? [[String: Any]])
        XCTAssertEqual(cli.compactMap { $0["title"] as? String }, ["Dist-1000M", "5x1:00"], "newest first, as `oarlog sessions` lists them")
        BrowserScript.checkScreenshots(result, minimumBytes: 5_000)
        // A bad filter through the API: 400 naming it.
        let bad = try server.request("GET", "/api/sessions?from=May")
        XCTAssertEqual(bad.status, 400)
        XCTAssertTrue(bad.body.contains("--from 'May'"), bad.body)
        XCTAssertEqual(try server.request("GET", "/api/sessions?search=" + String(repeating: "a", count: 201)).status, 400)
    }
}
