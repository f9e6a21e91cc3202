import Foundation
import OarlogTestSupport
import XCTest

/// The compare view: `GET /api/compare` is `oarlog compare --json` with each side's trail, its
/// errors 400/404/422 as the other endpoints'; and the page (`#compare/A/B`) in headless Chromium
/// at phone and laptop size shows both trails on one map, plots whose data are the API's
/// segments, and the table's gap cells as `oarlog compare` words them; two sessions are chosen in
/// the race list, or from a session's "Compare with…". Screenshots in
/// `.build/screenshots/compare-*.png`.
final class ComparePageTests: XCTestCase {
    func testCompareViewShowsTheComparison() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-compare-page-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        // Three outings on the same water, no sensor noise: at 22 and at 30 spm, and one at 26
        // with GPS only (no accelerometer rows: no strokes).
        var ids: [String: String] = [:]
        for (rate, day, title) in [("22", "02", "At 22"), ("30", "09", "At 30"), ("26", "16", "GPS only")] {
            let trace = data.appendingPathComponent("c\(rate).csv")
            let simulated = try oarlogCLI(["simulate", "--minutes", "6", "--rate", rate, "--noise", "none", "--gps-dropouts", "0", "--accel-hz", "25",
                                           "--seed", rate, "--start-utc", "2026-05-\(day)T07:00:00Z", "-o", trace.path], dataDirectory: data)
            XCTAssertEqual(simulated.status, 0, simulated.err)
            if title == "GPS only" {
                let rows = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n").filter { !$0.contains(",accel,") }
                try (rows.joined(separator: "\n") + "\n").write(to: trace, atomically: true, encoding: .utf8)
            }
            let saved = try oarlogCLI(["replay", trace.path, "--save", "--title", title], dataDirectory: data)
            XCTAssertEqual(saved.status, 0, saved.err)
            ids[title] = "2026-05-\(day)T07-00-00Z_" + title.lowercased().replacingOccurrences(of: " ", with: "-")
        }
        let (a, b, c) = (ids["At 22"]!, ids["At 30"]!, ids["GPS only"]!)
        let cli = try oarlogCLI(["compare", a, b, "--json"], dataDirectory: data)
        XCTAssertEqual(cli.status, 0, cli.err)
        let expected = try XCTUnwrap(try jsonObject(cli.out) as? [String: Any])

        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "5"], dataDirectory: data)
        // The API: the command's JSON, each side with its trail (thinned to `points`).
        let answer = try server.request("GET", "/api/compare?a=\(a)&b=\(b)")
        XCTAssertEqual(answer.status, 200, answer.body)
        let api = try XCTUnwrap(try jsonObject(answer.body) as? [String: Any])
        let segments = try XCTUnwrap(api["segments"] as? [[String: Any]])
        XCTAssertEqual(segments as NSArray, expected["segments"] as? NSArray, "the API's segments are `oarlog compare --json`'s")
        for key in ["a", "b"] {
            var side = try XCTUnwrap(api[key] as? [String: Any])
            let trail = try XCTUnwrap(side.removeValue(forKey: "trail") as? [String: Any])
            XCTAssertEqual(side as NSDictionary, expected[key] as? NSDictionary)
            let distances = try XCTUnwrap(trail["distance_m"] as? [Double])
            XCTAssertEqual(distances.count, trail["points"] as? Int)
            XCTAssertEqual(distances.first, 0)
            XCTAssertEqual(distances.last ?? 0, side["distance_m"] as? Double ?? -1, accuracy: 0.1)
            XCTAssertEqual((trail["t_s"] as? [Double])?.last ?? 0, side["time_s"] as? Double ?? -1, accuracy: 0.01)
        }
        let thinned = try XCTUnwrap(try jsonObject(try server.request("GET", "/api/compare?a=\(a)&b=\(b)&points=20").body) as? [String: Any])
        XCTAssertEqual(((thinned["a"] as? [String: Any])?["trail"] as? [String: Any])?["points"] as? Int, 20)
        // Errors: a malformed query 400, a session or piece that is not there 404, one without GPS 422.
        let accelOnly = data.appendingPathComponent("accel-only.csv")
        let workout = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("samples/sim-workout.csv"), encoding: .utf8)
        try (workout.split(separator: "\n").prefix(4000).filter { !$0.contains(",gps,") }.joined(separator: "\n") + "\n")
            .write(to: accelOnly, atomically: true, encoding: .utf8)
        XCTAssertEqual(try oarlogCLI(["replay", accelOnly.path, "--save", "--title", "No GPS"], dataDirectory: data).status, 0)
        for (query, status, words) in [("a=\(a)", 400, "give a=ID and b=ID"), ("a=\(a)&b=\(b):0", 400, "ID:K"), ("a=\(a)&b=\(b)&points=1", 400, "points"),
                                       ("a=\(a)&b=2020-01-01T00-00-00Z_none", 404, "no such session"), ("a=\(a)&b=..%2Fetc", 404, "no such session"),
                                       ("a=\(a)&b=2026-05-09", 404, "no such session"),  // a prefix is the command line's, not the API's
                                       ("a=\(a):1&b=\(b):2", 404, "no piece 2"), ("a=\(a)&b=2026-05-02T07-00-00Z_no-gps", 422, "has no GPS track")] {
            let r = try server.request("GET", "/api/compare?" + query)
            XCTAssertEqual(r.status, status, "\(query): \(r.body)")
            XCTAssertTrue(r.body.contains(words), "\(query): \(r.body)")
        }

        // Two sessions that rowed the same plan (the bundled workout, timed by `--workout`).
        var planned: [String] = []
        for title in ["Plan A", "Plan B"] {
            let saved = try oarlogCLI(["replay", "samples/sim-workout.csv", "--workout", "3x2:00@18-20spm/1:00r", "--save", "--title", title],
                                      dataDirectory: data)
            XCTAssertEqual(saved.status, 0, saved.err)
            planned.append("2026-05-02T07-00-00Z_" + title.lowercased().replacingOccurrences(of: " ", with: "-"))
        }

        let shots = try BrowserScript.screenshots()
        let result = try BrowserScript.run("compare_page.py", [server.base, shots.path, a, b, c] + planned)

        func gapText(_ gap: Double) -> String {
            let tenths = (abs(gap) * 10).rounded() / 10
            return tenths == 0 ? "level" : String(format: "%@ by %.1f s", gap > 0 ? "A" : "B", tenths)
        }
        for size in ["phone", "laptop"] {
            let seen = try XCTUnwrap((result[size] as? [String: Any])?["full"] as? [String: Any], size)
            XCTAssertEqual(seen["loaded"] as? String, "\(a)/\(b)")
            XCTAssertEqual(seen["overflow_x"] as? Bool, false, "\(size): nothing wider than the screen")
            XCTAssertEqual(seen["nav_active"] as? [String], ["nav-races"])
            // Two trails, in two colours, each the API's points from its first; a start and a finish pin each.
            let trails = try XCTUnwrap(seen["trails"] as? [String: [String: Any]])
            XCTAssertEqual(Set(trails.keys), ["a", "b"])
            for key in ["a", "b"] {
                let trail = try XCTUnwrap((api[key] as? [String: Any])?["trail"] as? [String: Any])
                XCTAssertEqual(trails[key]?["points"] as? Int, trail["points"] as? Int, "\(size) \(key)")
                let first = try XCTUnwrap(trails[key]?["first"] as? [Double])
                XCTAssertEqual(first[0], (trail["lat_deg"] as? [Double])?.first ?? 0, accuracy: 1e-9)
                XCTAssertEqual(first[1], (trail["lon_deg"] as? [Double])?.first ?? 0, accuracy: 1e-9)
            }
            XCTAssertNotEqual(trails["a"]?["colour"] as? String, trails["b"]?["colour"] as? String)
            let pins = try XCTUnwrap(seen["pins"] as? [[String: Any]])
            XCTAssertEqual(pins.compactMap { $0["tip"] as? String }.sorted(), ["A finish", "A start", "B finish", "B start"])
            XCTAssertEqual(seen["legend"] as? [String], ["A: At 22", "B: At 30"])
            // The plots: for each side, every segment's split (and rate) at its start, to the last one's end.
            for (plot, field) in [("split", "split_s_per_500m"), ("rate", "rate_spm")] {
                let datasets = try XCTUnwrap(seen[plot] as? [[String: Any]], plot)
                XCTAssertEqual(datasets.compactMap { $0["label"] as? String }, ["A", "B"])
                for (k, key) in ["a", "b"].enumerated() {
                    let points = try XCTUnwrap(datasets[k]["points"] as? [[Any]])
                    XCTAssertEqual(points.count, segments.count + 1)
                    for (i, s) in segments.enumerated() {
                        XCTAssertEqual(points[i][0] as? Double ?? -1, (s["from_m"] as? Double ?? 0) / 1000, accuracy: 1e-9)
                        XCTAssertEqual(points[i][1] as? Double ?? -1, (s[key] as? [String: Any])?[field] as? Double ?? -2, accuracy: 1e-9, "\(plot) \(key) \(i)")
                    }
                    XCTAssertEqual(points.last?[0] as? Double ?? -1, (segments.last?["to_m"] as? Double ?? 0) / 1000, accuracy: 1e-9)
                }
            }
            // The table: a row per segment, each gap cell the API's gap in words; B (faster) ahead.
            let gaps = try XCTUnwrap(seen["gaps"] as? [[String: String]])
            XCTAssertEqual(gaps.count, segments.count)
            for (cell, s) in zip(gaps, segments) {
                let gap = try XCTUnwrap(s["gap_s"] as? Double)
                XCTAssertEqual(cell["text"], gapText(gap))
                XCTAssertEqual(Double(cell["value"] ?? "") ?? 0, gap, accuracy: 1e-9)
                XCTAssertEqual(cell["ahead"], "b")
            }
            let rows = try XCTUnwrap(seen["rows"] as? [[String]])
            XCTAssertEqual(rows.first?.first, "500 m")
            XCTAssertTrue(rows.last?.first?.hasSuffix("m*") ?? false, "the partial last segment: \(rows.last ?? [])")
            let head = try XCTUnwrap(seen["head"] as? [String])
            if size == "phone" {
                XCTAssertEqual(head, ["At", "A split", "A rate", "B split", "B rate", "Gap"], "at phone size: the essentials")
            } else {
                XCTAssertEqual(head, ["At", "A time", "A split", "A rate", "A str", "B time", "B split", "B rate", "B str", "Gap", "In leg"])
            }
            let map = try XCTUnwrap(seen["map_rect"] as? [String: Double])
            XCTAssertGreaterThan(map["height"] ?? 0, 200, size)
            XCTAssertEqual(seen["rate_note"] as? String, "")
            // GPS only on B: its rates null in the API, no line on the rate plot, "—" in the table.
            let gpsOnly = try XCTUnwrap((result[size] as? [String: Any])?["gps_only"] as? [String: Any])
            XCTAssertEqual(gpsOnly["rate_note"] as? String, "no stroke data for B")
            let rates = try XCTUnwrap(gpsOnly["rate"] as? [[String: Any]])
            XCTAssertTrue((rates[1]["points"] as? [[Any]] ?? []).allSatisfy { $0[1] is NSNull }, "\(rates[1])")
            XCTAssertTrue((rates[0]["points"] as? [[Any]] ?? []).allSatisfy { $0[1] is Double })
            XCTAssertEqual((gpsOnly["rows"] as? [[String]])?.first?[size == "phone" ? 4 : 7], "—", "B's rate")
            XCTAssertEqual(gpsOnly["overflow_x"] as? Bool, false)
        }
        // Side A changed to its piece 1 on the page (a flying start at a constant rate: one piece).
        XCTAssertEqual(result["piece_hash"] as? String, "#compare/\(a)%3A1/\(b)")
        let piece = try XCTUnwrap(result["piece"] as? [String: Any])
        XCTAssertEqual((piece["sides"] as? [[String: Any]])?.first?["piece"] as? String, "1")
        XCTAssertEqual((piece["sides"] as? [[String: Any]])?.first?["pieces"] as? [String], ["", "1"])
        XCTAssertEqual((piece["legend"] as? [String])?.first, "A: At 22 · Piece 1")
        // Two plans: interval 3 chosen on A puts B's interval 3 beside it; B then moved alone.
        let whole = try XCTUnwrap(result["plans_whole"] as? [String: Any])
        XCTAssertEqual((whole["sides"] as? [[String: Any]])?.map { ($0["pieces"] as? [String])?.count ?? 0 }, [6, 6], "whole, and five intervals")
        let together = try XCTUnwrap(result["plans_interval"] as? [String: Any])
        XCTAssertEqual((together["sides"] as? [[String: Any]])?.map { $0["piece"] as? String }, ["3", "3"])
        XCTAssertEqual(together["legend"] as? [String], ["A: Plan A · 3. Piece 2", "B: Plan B · 3. Piece 2"])
        // Each interval named as on the session page: its number and label (the API's pieces).
        let intervals = try XCTUnwrap((try jsonObject(try server.request("GET", "/api/sessions/\(planned[0])/pieces").body)
            as? [String: Any])?["pieces"] as? [[String: Any]])
        let options = try XCTUnwrap(together["options"] as? [String])
        XCTAssertEqual(options.count, intervals.count + 1)
        for (option, p) in zip(options.dropFirst(), intervals) {
            XCTAssertTrue(option.hasPrefix("\(p["index"] as? Int ?? -1). \(p["label"] as? String ?? "?") · "), option)
        }
        let sameWater = try XCTUnwrap(try jsonObject(try server.request("GET", "/api/compare?a=\(planned[0])&b=\(planned[1])&interval=3").body)
            as? [String: Any])
        XCTAssertEqual((together["gaps"] as? [[String: String]])?.map { $0["text"] ?? "" },
                       (sameWater["segments"] as? [[String: Any]])?.map { _ in "level" }, "the same row, the same plan: level")
        XCTAssertEqual(together["overflow_x"] as? Bool, false)
        let apart = try XCTUnwrap(result["plans_apart"] as? [String: Any])
        XCTAssertEqual((apart["sides"] as? [[String: Any]])?.map { $0["piece"] as? String }, ["3", "5"])
        // The race list: tick two (the first ticked is A), then "Compare ▸".
        let chooser = try XCTUnwrap(result["chooser"] as? [String: Any])
        XCTAssertEqual(chooser["bar_before"] as? String, "Tick two sessions (the first is A).")
        XCTAssertEqual(chooser["go_before"] as? Bool, false)
        XCTAssertEqual(chooser["bar_after"] as? String, "A and B ticked:")
        XCTAssertEqual(chooser["disabled"] as? [String], ["2026-05-02T07-00-00Z_no-gps"], "no GPS: nothing to compare")
        XCTAssertEqual((chooser["marks"] as? [[String]])?.sorted { $0[1] < $1[1] }, [[b, "A"], [a, "B"]])
        XCTAssertEqual(chooser["overflow_x"] as? Bool, false)
        XCTAssertEqual(chooser["hash"] as? String, "#compare/\(b)/\(a)")
        XCTAssertEqual(chooser["sides"] as? [String], ["At 30", "At 22"])
        // "Compare with…" on a session's page: the race list, choosing, that session ticked.
        let fromSession = try XCTUnwrap(result["from_session"] as? [String: Any])
        XCTAssertEqual(fromSession["hash"] as? String, "#races")
        XCTAssertEqual(fromSession["bar"] as? Bool, true)
        XCTAssertEqual(fromSession["ticked"] as? [String], [a])
        XCTAssertEqual(result["console"] as? [String], [], "no errors in the browser console")
        // An unknown session: the reason, nothing drawn; the only console line the answer's 404.
        let unknown = try XCTUnwrap(result["unknown"] as? [String: Any])
        XCTAssertEqual(unknown["error"] as? String, "These cannot be compared: no such session: 2020-01-01T00-00-00Z_nothing")
        XCTAssertEqual(unknown["content_shown"] as? Bool, false)
        XCTAssertEqual((result["console_unknown"] as? [String])?.count, 1, "\(result["console_unknown"] ?? "")")
        XCTAssertTrue((result["console_unknown"] as? [String])?.first?.contains("404") ?? false)

        BrowserScript.checkScreenshots(result, minimumBytes: 5_000)
    }
}
