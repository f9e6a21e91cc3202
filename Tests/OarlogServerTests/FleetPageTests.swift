import Foundation
import OarlogTestSupport
import XCTest

/// The fleet page (`#fleet`) of a coach's launch: a real mosquitto on a loopback port, `oarlog
/// serve --coach --subscribe … --course …`, three simulated boats side by side in lanes 15 m
/// apart at 26, 31 and 36 spm replayed with `--publish` at 10× real time. In headless Chromium
/// (browser/fleet_page.py) the app opens on #fleet; during the race and at its end the boats
/// table, the results, the gates' gaps and the crossed paths are /api/fleet's values formatted
/// (the end compared with the API read by the script itself), the map shows the three boats,
/// the gates and the meetings, keeps a view the coach set, centres on a tapped meeting; boats
/// silent for 30 s are flagged; leaving the page stops the polling. Screenshots in
/// `.build/screenshots/fleet-*.png`.
final class FleetPageTests: XCTestCase {
    /// Name, stroke rate and lane (metres north of the middle lane) of each boat.
    static let boats = [("Alpha", "26", -15.0), ("Bravo", "31", 0.0), ("Charlie", "36", 15.0)]
    static let start = (lat: 51.4873, lon: -0.2241)
    static let metresPerDegreeLat = 111_320.0
    private var broker: MosquittoBroker?
    private var replays: [ChildProcess] = []

    override func tearDown() {
        for p in replays { p.send(SIGTERM) }
        broker?.stop()
        broker = nil
        super.tearDown()
    }

    func testFleetPageShowsTheRace() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-fleet-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let broker = try MosquittoBroker()
        try broker.start()
        self.broker = broker

        // A 1000 m course with gates every 250 m, heading east, its start 20 m ahead of the boats
        // (they start from rest), its gates 60 m wide: every lane through them.
        let lonPerMetre = 1 / (Self.metresPerDegreeLat * cos(Self.start.lat * .pi / 180))
        let course = work.appendingPathComponent("course.geojson").path
        let made = try oarlogCLI(["fences", "make-course", "--start", "\(Self.start.lat),\(Self.start.lon + 20 * lonPerMetre)", "--heading", "90",
                                  "--length", "1000", "--markers", "250", "--width", "60", "--name", "Lanes 1000 m", "-o", course], dataDirectory: work)
        XCTAssertEqual(made.status, 0, made.err)
        let gates = try XCTUnwrap(try jsonObject(try String(contentsOfFile: course, encoding: .utf8)) as? [String: Any])["features"] as? [[String: Any]]
        let gateNames = try XCTUnwrap(gates).compactMap { ($0["properties"] as? [String: Any])?["name"] as? String }
        XCTAssertEqual(gateNames.count, 5, "start, 3 markers, finish: \(gateNames)")

        // Lanes 15 m apart count as crossed paths at 20 m: the boats meet at the start and part as
        // the faster pull away.
        let server = try ServerProcess(arguments: ["--coach", "--subscribe", "mqtt://127.0.0.1:\(broker.port)", "--course", course,
                                                   "--meeting-distance", "20"], dataDirectory: work.appendingPathComponent("coach"))
        defer { server.stop() }
        XCTAssertEqual(try server.request("GET", "/api/fleet").status, 200)
        // The boats start once the coach's subscription stands.
        let subscribed = Date().addingTimeInterval(30)
        while ((try jsonObject(try server.request("GET", "/api/fleet").body) as? [String: Any])?["broker"] as? [String: Any])?["subscribed"] as? Bool != true {
            guard Date() < subscribed else { throw ServerTestError("the coach did not subscribe: \(server.log)") }
            usleep(100_000)
        }

        for (name, rate, lane) in Self.boats {
            let trace = work.appendingPathComponent("\(name).csv").path
            let simulated = try oarlogCLI(["simulate", "--minutes", "5.5", "--rate", rate, "--heading", "90", "--gps-dropouts", "0",
                                           "--start", "\(Self.start.lat + lane / Self.metresPerDegreeLat),\(Self.start.lon)",
                                           "--start-utc", "2026-05-02T07:00:00Z", "--seed", rate, "-o", trace], dataDirectory: work)
            XCTAssertEqual(simulated.status, 0, simulated.err)
            replays.append(try ChildProcess(try Binaries.oarlog(),
                                            ["replay", trace, "--publish", "mqtt://127.0.0.1:\(broker.port)", "--boat", name, "--speed", "10"],
                                            environment: ["OARLOG_DATA_DIR": work.appendingPathComponent(name).path],
                                            errors: work.appendingPathComponent("\(name).log").path))
        }

        let shots = try BrowserScript.screenshots()
        let result = try BrowserScript.run("fleet_page.py", [server.base, shots.path], detail: "\n" + server.log)
        for (p, (name, _, _)) in zip(replays, Self.boats) {
            XCTAssertEqual(p.wait(), 0, "\(name): " + ChildProcess.text(work.appendingPathComponent("\(name).log").path))
        }

        // Opened at /: the fleet, its tab shown and active.
        let opened = try XCTUnwrap(result["opened"] as? [String: Any])
        XCTAssertEqual(opened["hash"] as? String, "#fleet")
        XCTAssertEqual(opened["nav_active"] as? [String], ["nav-fleet"])
        XCTAssertEqual(opened["nav_fleet_shown"] as? Bool, true)

        // The race as the API gave it at the end: three boats finished, the fastest rate first,
        // each a margin behind the one before; the boats met.
        let api = try XCTUnwrap(result["api_end"] as? [String: Any])
        let apiBoats = try XCTUnwrap(api["boats"] as? [[String: Any]])
        XCTAssertEqual(apiBoats.map { $0["name"] as? String ?? "?" }, Self.boats.map { $0.0 })
        let race = try XCTUnwrap(api["race"] as? [String: Any])
        let results = try XCTUnwrap(race["results"] as? [[String: Any]])
        XCTAssertEqual(results.map { $0["boat"] as? String ?? "?" }, ["Charlie", "Bravo", "Alpha"])
        let margins = results.compactMap { $0["margin_s"] as? Double }
        XCTAssertEqual(margins.count, 3)
        XCTAssertEqual(margins.first, 0)
        XCTAssertEqual(margins, margins.sorted())
        XCTAssertGreaterThan(margins.last ?? 0, 5, "26 against 36 spm over 1000 m")
        let meetings = try XCTUnwrap(api["meetings"] as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(meetings.count, 2, "neighbouring lanes within 20 m at the start")

        // At the end: the page shows exactly that (the same answer, apart from how long ago each boat was heard).
        let end = try XCTUnwrap(result["end"] as? [String: Any])
        try Self.assertShows(end, api: api, label: "end")
        try Self.assertShows(end, api: try XCTUnwrap(end["data"] as? [String: Any]), label: "end (its own data)")
        XCTAssertEqual(end["overflow_x"] as? Bool, false)
        XCTAssertEqual(end["outside"] as? [String], [])
        // During the race: what the page drew from the answer it had, boats still racing shown
        // with how far along they are and their last gate.
        let during = try XCTUnwrap(result["during"] as? [String: Any])
        let duringData = try XCTUnwrap(during["data"] as? [String: Any])
        try Self.assertShows(during, api: duringData, label: "during")
        let racing = try XCTUnwrap(((duringData["race"] as? [String: Any])?["results"] as? [[String: Any]])?.filter { $0["time_s"] is NSNull })
        XCTAssertFalse(racing.isEmpty)

        // The map: three boat markers, named, in view once fitted; the gates; a ring per meeting.
        for (seen, label) in [(end, "end"), (during, "during"), (try XCTUnwrap(result["laptop"] as? [String: Any]), "laptop")] {
            let markers = try XCTUnwrap(seen["markers"] as? [[String: Any]])
            XCTAssertEqual(markers.map { $0["name"] as? String ?? "?" }.sorted(), Self.boats.map { $0.0 }, label)
            XCTAssertEqual(seen["marker_elements"] as? Int, 3, label)
            XCTAssertEqual(seen["gate_labels"] as? [String], gateNames, label)
            XCTAssertEqual(seen["meeting_rings"] as? Int, ((seen["data"] as? [String: Any])?["meetings"] as? [Any])?.count, label)
            XCTAssertTrue(markers.allSatisfy { ($0["track"] as? Int ?? 0) >= 2 }, "\(label): each boat's track drawn")
            // Names never on top of each other (lanes 15 m apart are a few pixels apart).
            let boxes = try XCTUnwrap(seen["labels"] as? [[String: Double]])
            for (i, a) in boxes.enumerated() {
                for b in boxes[(i + 1)...] {
                    let overlap = a["left"]! < b["right"]! && b["left"]! < a["right"]! && a["top"]! < b["bottom"]! && b["top"]! < a["bottom"]!
                    XCTAssertFalse(overlap, "\(label): labels \(a) and \(b) overlap")
                }
            }
        }
        XCTAssertEqual(during["markers_in_view"] as? Int, 3, "fitted to the boats")
        XCTAssertEqual((result["show_all"] as? [String: Any])?["markers_in_view"] as? Int, 3, "Show all")

        // A view the coach set is kept while answers come (no re-fit).
        let kept = try XCTUnwrap(result["view_kept"] as? [String: Any])
        let set = try XCTUnwrap(kept["set"] as? [String: Any]), after = try XCTUnwrap(kept["after"] as? [String: Any])
        XCTAssertGreaterThanOrEqual(kept["renders"] as? Int ?? 0, 3)
        XCTAssertEqual(after["zoom"] as? Double, set["zoom"] as? Double)
        try Self.assertSamePlace(after["centre"], set["centre"], zoom: after["zoom"] as? Double, "the coach's view kept")

        // A tapped meeting: the map there.
        let tapped = try XCTUnwrap(result["meeting_tapped"] as? [String: Any])
        let meeting = meetings[try XCTUnwrap(tapped["index"] as? Int)]
        try Self.assertSamePlace(tapped["centre"], [meeting["lat"] as? Double ?? .nan, meeting["lon"] as? Double ?? .nan], zoom: tapped["zoom"] as? Double, "centred on the meeting")

        // Silent for over 30 s: each row greyed and flagged, "N s ago" from the answer.
        let stale = try XCTUnwrap(result["stale"] as? [String: Any])
        let staleRows = try XCTUnwrap(stale["boats"] as? [[String: Any]])
        XCTAssertEqual(staleRows.count, 3)
        let staleData = try XCTUnwrap((stale["data"] as? [String: Any])?["boats"] as? [[String: Any]])
        for (row, boat) in zip(staleRows, staleData) {
            XCTAssertEqual(row["stale"] as? Bool, true, "\(row)")
            let heard = try XCTUnwrap(boat["heard_s_ago"] as? Double)
            XCTAssertGreaterThan(heard, 30)
            XCTAssertEqual(row["heard"] as? String, "\(Int(heard.rounded(.down))) s ago")
        }

        // Leaving the page stops the polling; coming back starts it again.
        let left = try XCTUnwrap(result["left"] as? [String: Int])
        XCTAssertEqual(left["renders_after"], left["renders_before"], "no answer drawn off the page")
        XCTAssertEqual((result["back"] as? [String: Any])?["hash"] as? String, "#fleet")
        XCTAssertEqual(result["console"] as? [String], [], "no errors in the browser console")

        BrowserScript.checkScreenshots(result, minimumBytes: 5_000)
        for name in ["fleet-phone-race", "fleet-phone-end", "fleet-phone-end-results", "fleet-laptop-end", "fleet-phone-stale"] {
            XCTAssertEqual((result["screenshots"] as? [String])?.contains(shots.appendingPathComponent(name + ".png").path), true, name)
        }
    }

    /// The page's tables are `api` formatted: the boats (name, state, rate, split, distance,
    /// strokes, last heard), the results in order, each gate's boats with their gaps, the meetings.
    static func assertShows(_ seen: [String: Any], api: [String: Any], label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let boats = try XCTUnwrap(api["boats"] as? [[String: Any]], file: file, line: line)
        let rows = try XCTUnwrap(seen["boats"] as? [[String: Any]], file: file, line: line)
        XCTAssertEqual(rows.map { $0["id"] as? String ?? "?" }, boats.map { $0["id"] as? String ?? "" }, label, file: file, line: line)
        for (row, b) in zip(rows, boats) {
            let name = "\(label) \(b["name"] ?? "?")"
            XCTAssertEqual(row["name"] as? String, b["name"] as? String, name, file: file, line: line)
            XCTAssertEqual(row["state"] as? String, b["state"] as? String, name, file: file, line: line)
            XCTAssertEqual(text(row, "rate"), (b["rate_spm"] as? Double).map { fixed($0) } ?? "—", name, file: file, line: line)
            XCTAssertEqual(text(row, "split"), splitText(b["split_s_per_500m"] as? Double), name, file: file, line: line)
            XCTAssertEqual(text(row, "distance"), (b["distance_m"] as? Double).map { "\(Int($0.rounded())) m" } ?? "—", name, file: file, line: line)
            // The boat's own count: its strokes caught, ahead of those concluded.
            let strokes = max(b["strokes"] as? Int ?? 0, b["strokes_caught"] as? Int ?? 0)
            XCTAssertEqual(text(row, "strokes"), b["strokes"] is Int ? String(strokes) : "—", name, file: file, line: line)
            XCTAssertNotNil((row["heard"] as? String)?.range(of: #"^\d+ s ago$"#, options: .regularExpression), name, file: file, line: line)
        }
        XCTAssertTrue(boats.allSatisfy { $0["rate_spm"] is Double && $0["split_s_per_500m"] is Double && $0["distance_m"] is Double },
                      "\(label): figures to show", file: file, line: line)

        let race = try XCTUnwrap(api["race"] as? [String: Any], file: file, line: line)
        XCTAssertEqual(seen["race_shown"] as? Bool, true, label, file: file, line: line)
        XCTAssertEqual(seen["race_name"] as? String, "Lanes 1000 m · 1000 m", label, file: file, line: line)
        let results = try XCTUnwrap(race["results"] as? [[String: Any]], file: file, line: line)
        let shownResults = try XCTUnwrap(seen["results"] as? [[String: Any]], file: file, line: line)
        XCTAssertEqual(shownResults.map { $0["id"] as? String ?? "?" }, results.map { $0["id"] as? String ?? "" }, "\(label): results in order", file: file, line: line)
        for (row, r) in zip(shownResults, results) {
            let name = "\(label) result \(r["boat"] ?? "?")"
            XCTAssertEqual(text(row, "boat"), r["boat"] as? String, name, file: file, line: line)
            XCTAssertEqual(text(row, "place"), (r["place"] as? Int).map(String.init) ?? "—", name, file: file, line: line)
            if let time = r["time_s"] as? Double {
                XCTAssertEqual(text(row, "time"), clock(time), name, file: file, line: line)
                XCTAssertEqual(text(row, "margin"), (r["margin_s"] as? Double).map { "+" + fixed($0) + " s" }, name, file: file, line: line)
                XCTAssertEqual(text(row, "split"), splitText(r["split_s_per_500m"] as? Double), name, file: file, line: line)
            } else {
                let along = (r["along_m"] as? Double).map { "\(Int($0.rounded())) m" } ?? "—"
                let expected = r["along_m"] is NSNull && r["last_gate"] is NSNull ? "not started" : "\(along) · past \(r["last_gate"] as? String ?? "—")"
                XCTAssertEqual(text(row, "along"), expected, name, file: file, line: line)
                XCTAssertNil(text(row, "time"), name, file: file, line: line)
            }
        }

        let gates = try XCTUnwrap(race["gates"] as? [[String: Any]], file: file, line: line)
        let shownGates = try XCTUnwrap(seen["gates"] as? [[String: Any]], file: file, line: line)
        XCTAssertEqual(shownGates.map { $0["name"] as? String ?? "?" }, gates.map { $0["name"] as? String ?? "" }, label, file: file, line: line)
        for (shown, g) in zip(shownGates, gates) {
            let name = "\(label) gate \(g["name"] ?? "?")"
            // The distance beside a gate not named by it ("Start 0 m", "500 m").
            let distance = (g["distance_m"] as? Double).map { "\(Int($0.rounded())) m" }
            XCTAssertEqual(shown["distance"] as? String, distance == g["name"] as? String ? "" : distance, name, file: file, line: line)
            let times = try XCTUnwrap(g["times"] as? [[String: Any]], file: file, line: line)
            let rows = try XCTUnwrap(shown["times"] as? [[String: Any]], file: file, line: line)
            XCTAssertEqual(rows.map { $0["id"] as? String ?? "?" }, times.map { $0["id"] as? String ?? "" }, name, file: file, line: line)
            for (row, t) in zip(rows, times) {
                XCTAssertEqual(text(row, "boat"), t["boat"] as? String, name, file: file, line: line)
                XCTAssertEqual(text(row, "time"), clock(try XCTUnwrap(t["time_s"] as? Double, file: file, line: line)), name, file: file, line: line)
                XCTAssertEqual(text(row, "behind-s"), (t["behind_s"] as? Double).map { "+" + fixed($0) + " s" } ?? "—", name, file: file, line: line)
                XCTAssertEqual(text(row, "behind-m"), (t["behind_m"] as? Double).map { "+" + fixed($0) + " m" } ?? "—", name, file: file, line: line)
            }
        }
        // At least the start: every boat through it, in order of time.
        XCTAssertEqual((gates.first?["times"] as? [Any])?.count, 3, "\(label): all three through the start", file: file, line: line)

        let meetings = try XCTUnwrap(api["meetings"] as? [[String: Any]], file: file, line: line)
        let shownMeetings = try XCTUnwrap(seen["meetings"] as? [[String: String]], file: file, line: line)
        XCTAssertEqual(shownMeetings.count, meetings.count, label, file: file, line: line)
        for (shown, m) in zip(shownMeetings, meetings) {
            let boats = (m["boats"] as? [String] ?? []).joined(separator: " & ") + ((m["ongoing"] as? Bool) == true ? " (now)" : "")
            XCTAssertEqual(shown["boats"], boats, label, file: file, line: line)
            XCTAssertEqual(shown["time"], (m["closest_utc"] as? String).map { String($0.dropFirst(11).prefix(8)) }, label, file: file, line: line)
            XCTAssertEqual(shown["closest"], (m["closest_m"] as? Double).map { fixed($0) + " m apart" }, label, file: file, line: line)
            XCTAssertEqual(shown["duration"], "for " + clock(try XCTUnwrap(m["duration_s"] as? Double, file: file, line: line)), label, file: file, line: line)
        }
        XCTAssertEqual(seen["no_meetings_shown"] as? Bool, meetings.isEmpty, label, file: file, line: line)
    }

    /// JavaScript's toFixed(1): the binary value rounded half up (printf rounds an exact tie,
    /// 1.25, to even).
    static func fixed(_ v: Double) -> String {
        let exact = String(format: "%.40f", v)
        let tie = exact.split(separator: ".").last.map { $0.dropFirst(1).first == "5" && $0.dropFirst(2).allSatisfy { $0 == "0" } } ?? false
        return String(format: "%.1f", tie ? v + (v < 0 ? -0.01 : 0.01) : v)
    }

    static func text(_ row: [String: Any], _ cell: String) -> String? {
        ((row["cells"] as? [String: Any])?[cell] as? [String: Any])?["text"] as? String
    }

    /// The same place on the screen: within one map pixel at the zoom shown (Leaflet keeps its
    /// centre in whole pixels, so a re-layout may move it by a fraction of one — at zoom 18 that is
    /// about 5 µ° of longitude, 0.4 m).
    static func assertSamePlace(_ a: Any?, _ b: Any?, zoom: Double?, _ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let p = try XCTUnwrap(a as? [Double], label, file: file, line: line), q = try XCTUnwrap(b as? [Double], label, file: file, line: line)
        let zoom = try XCTUnwrap(zoom, "\(label): the zoom", file: file, line: line)
        let degreesPerPixel = 360 / (256 * pow(2, zoom))
        XCTAssertEqual(p[0], q[0], accuracy: degreesPerPixel, label, file: file, line: line)
        XCTAssertEqual(p[1], q[1], accuracy: degreesPerPixel, label, file: file, line: line)
    }

    /// metrics.js's split: a clock, "—" for none.
    static func splitText(_ s: Double?) -> String {
        guard let s, s > 0, s <= 3600 else { return "—" }
        return clock(s)
    }

    static func clock(_ seconds: Double) -> String { BestsPageTests.clock(seconds) }
}
