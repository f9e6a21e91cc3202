import Foundation
import OarlogTestSupport
import XCTest

/// All races on a map (`#map`) in headless Chromium (Debian's chromium and chromedriver, driven
/// by python3-selenium), at phone and laptop size: each session's start place in `oarlog
/// sessions --json` is the first point of its track, sessions that started at one place are one
/// marker with their number, a tapped marker lists its sessions with links to their pages, the
/// sessions without GPS are counted. Screenshots in `.build/screenshots/race-map-*.png`.
final class RaceMapTests: XCTestCase {
    func testRacesOnAMapGroupedByStartPlace() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-race-map-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        // Four sessions: the simulated workout on the Thames, and the same workout rowed again the
        // next day (its start and every fix's UTC a day later: the same place); the NK logbook
        // in the Netherlands; and the workout's first two minutes without its GPS rows.
        let workout = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("samples/sim-workout.csv"), encoding: .utf8)
        let rows = workout.split(separator: "\n", omittingEmptySubsequences: false)
        let nextDay = data.appendingPathComponent("next-day.csv")
        try (rows.map { Self.aDayLater(String($0)) }.joined(separator: "\n")).write(to: nextDay, atomically: true, encoding: .utf8)
        let accelOnly = data.appendingPathComponent("accel-only.csv")
        try (rows.prefix(7000).filter { !$0.contains(",gps,") }.joined(separator: "\n") + "\n").write(to: accelOnly, atomically: true, encoding: .utf8)
        var ids: [String: String] = [:]
        for (trace, title) in [("samples/sim-workout.csv", "Head race"), (nextDay.path, "Head race again"),
                               ("samples/rowingdata/nk_logbook.csv", "Long row"), (accelOnly.path, "No GPS")] {
            let saved = try oarlogCLI(["replay", trace, "--save", "--title", title], dataDirectory: data)
            XCTAssertEqual(saved.status, 0, saved.err)
        }
        let listed = try XCTUnwrap(try jsonObject(try oarlogCLI(["sessions", "--json"], dataDirectory: data).out) as? [[String: Any]])
        for session in listed {
            ids[try XCTUnwrap(session["title"] as? String)] = try XCTUnwrap(session["id"] as? String)
        }
        XCTAssertEqual(Set(ids.keys), ["Head race", "Head race again", "Long row", "No GPS"])
        let byTitle = Dictionary(uniqueKeysWithValues: listed.map { ($0["title"] as? String ?? "?", $0) })
        XCTAssertTrue((byTitle["Head race again"]?["start_utc"] as? String ?? "").hasPrefix("2026-05-03"), "the copy starts a day later")

        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "5"], dataDirectory: data)
        // The start place is the first point of the session's track (GeoJSON: [lon, lat]); none
        // without GPS. The track drawn is the smoothed one (issue 29) and the start place the
        // first fix: within 5e-5° (about 5 m; measured 0.8 m).
        for title in ["Head race", "Head race again", "Long row"] {
            let id = try XCTUnwrap(ids[title])
            let geojson = try XCTUnwrap(try JSONSerialization.jsonObject(with: try server.download("/api/sessions/\(id)/track").body) as? [String: Any])
            let trail = try XCTUnwrap((geojson["features"] as? [[String: Any]])?.first)
            let first = try XCTUnwrap(((trail["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])?.first)
            let session = try XCTUnwrap(byTitle[title])
            XCTAssertEqual(try XCTUnwrap(session["start_lat_deg"] as? Double, title), first[1], accuracy: 5e-5, title)
            XCTAssertEqual(try XCTUnwrap(session["start_lon_deg"] as? Double, title), first[0], accuracy: 5e-5, title)
        }
        XCTAssertTrue(byTitle["No GPS"]?["start_lat_deg"] is NSNull, "\(byTitle["No GPS"] ?? [:])")
        XCTAssertTrue(byTitle["No GPS"]?["start_lon_deg"] is NSNull)
        // The API gives the same list.
        let api = try XCTUnwrap(try jsonObject(try server.request("GET", "/api/sessions").body) as? [[String: Any]])
        XCTAssertEqual(api.map { $0["start_lat_deg"] as? Double }, listed.map { $0["start_lat_deg"] as? Double })
        XCTAssertEqual(api.map { $0["start_lon_deg"] as? Double }, listed.map { $0["start_lon_deg"] as? Double })

        // A boat with no sessions yet, for what the page says then.
        let empty = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "5"])
        let shots = try BrowserScript.screenshots()
        let result = try BrowserScript.run("race_map.py", [server.base, shots.path, empty.base])

        let workouts = [try XCTUnwrap(ids["Head race again"]), try XCTUnwrap(ids["Head race"])]  // newest first
        for size in ["phone", "laptop"] {
            let seen = try XCTUnwrap(result[size] as? [String: Any], size)
            let opened = try XCTUnwrap(seen["opened"] as? [String: Any])
            // Two places: the Thames (two sessions) and the Netherlands (one).
            let markers = try XCTUnwrap(opened["markers"] as? [[String: Any]])
            XCTAssertEqual(markers.map { $0["count"] as? String ?? "?" }.sorted(), ["1", "2"], size)
            let map = try XCTUnwrap(opened["map_rect"] as? [String: Double])
            for marker in markers {
                let box = try XCTUnwrap(marker["rect"] as? [String: Double])
                XCTAssertGreaterThanOrEqual(box["width"] ?? 0, 44, "\(size): big enough to tap")
                XCTAssertGreaterThanOrEqual(box["height"] ?? 0, 44, "\(size): big enough to tap")
            }
            let labels = try XCTUnwrap(opened["label_rects"] as? [[String: Double]])
            XCTAssertEqual(labels.count, 2)
            for box in markers.compactMap({ $0["rect"] as? [String: Double] }) + labels {
                // The map fits every place: each marker and its label wholly inside it.
                XCTAssertGreaterThanOrEqual(box["left"] ?? -1, map["left"] ?? 0, "\(size): \(box) in \(map)")
                XCTAssertLessThanOrEqual(box["right"] ?? .infinity, map["right"] ?? 0, "\(size): \(box) in \(map)")
                XCTAssertGreaterThanOrEqual(box["top"] ?? -1, map["top"] ?? 0, "\(size): \(box) in \(map)")
                XCTAssertLessThanOrEqual(box["bottom"] ?? .infinity, map["bottom"] ?? 0, "\(size): \(box) in \(map)")
            }
            // Each place labelled with its newest session's title.
            XCTAssertEqual(opened["labels"] as? [String], ["Head race again", "Long row"], size)
            XCTAssertEqual(opened["no_gps"] as? String, "1 session has no GPS: not on the map.")
            XCTAssertEqual(opened["group_shown"] as? Bool, false, "\(size): nothing listed before a tap")
            XCTAssertEqual(opened["hint_shown"] as? Bool, true, "\(size): how to list a place's sessions")
            XCTAssertEqual(opened["nav_active"] as? [String], ["nav-map"])
            XCTAssertEqual(opened["empty"] is NSNull, true, "\(size): sessions, so no 'no sessions'")

            // Tapping the two: exactly the two workouts, newest first, each linking to its page.
            for key in ["tapped_2", "tapped_2_again"] {
                let tapped = try XCTUnwrap(seen[key] as? [String: Any], key)
                let list = try XCTUnwrap(tapped["listed"] as? [[String: String]])
                XCTAssertEqual(list.map { $0["title"] ?? "?" }, ["Head race again", "Head race"], "\(size) \(key)")
                XCTAssertEqual(list.map { $0["id"] ?? "?" }, workouts)
                XCTAssertEqual(list.map { $0["href"] ?? "?" }, workouts.map { "#session/" + $0 })
                XCTAssertEqual(list.map { $0["date"] ?? "?" }, ["2026-05-03 07:00 UTC", "2026-05-02 07:00 UTC"])
                let distance = try XCTUnwrap(byTitle["Head race"]?["distance_m"] as? Double)
                XCTAssertTrue(list.allSatisfy { ($0["figures"] ?? "").hasPrefix("\(Int(distance.rounded())) m") }, "\(list)")
                XCTAssertEqual(tapped["group_title"] as? String, "2 sessions started here")
                XCTAssertEqual(tapped["hint_shown"] as? Bool, false)
                let markers = try XCTUnwrap(tapped["markers"] as? [[String: Any]])
                XCTAssertEqual(markers.filter { $0["selected"] as? Bool == true }.map { $0["count"] as? String ?? "?" }, ["2"])
                XCTAssertEqual(tapped["overflow_x"] as? Bool, false, "\(size): nothing wider than the screen")
            }
            // Tapping the one: the NK logbook alone.
            let one = try XCTUnwrap(seen["tapped_1"] as? [String: Any])
            let oneList = try XCTUnwrap(one["listed"] as? [[String: String]])
            XCTAssertEqual(oneList.map { $0["title"] ?? "?" }, ["Long row"])
            XCTAssertEqual(oneList.map { $0["href"] ?? "?" }, ["#session/" + (ids["Long row"] ?? "?")])
            XCTAssertEqual(one["group_title"] as? String, "1 session started here")
            XCTAssertEqual(one["overflow_x"] as? Bool, false, "\(size): nothing wider than the screen")
        }
        // Starts within 300 m of a place's first session are that place.
        let grouping = try XCTUnwrap(result["grouping"] as? [String: [Int]], "\(result["grouping"] ?? "")")
        XCTAssertEqual(grouping["m250"], [2, 1])
        XCTAssertEqual(grouping["m350"], [1, 1])
        XCTAssertEqual(grouping["same"], [3])
        // A listed session's link opens its page.
        let followed = try XCTUnwrap(result["followed"] as? [String: Any])
        XCTAssertEqual(followed["hash"] as? String, "#session/" + workouts[0])
        XCTAssertEqual(followed["loaded"] as? String, workouts[0])
        XCTAssertEqual(followed["title"] as? String, "Head race again")
        XCTAssertEqual(result["console"] as? [String], [], "no errors in the browser console")

        // No sessions at all: said so, no map, no count of sessions without GPS.
        let none = try XCTUnwrap(result["empty"] as? [String: Any])
        XCTAssertEqual(none["empty"] as? String, "No sessions yet: press Ready, then Start.")
        XCTAssertEqual(none["map_shown"] as? Bool, false)
        XCTAssertTrue(none["no_gps"] is NSNull)
        XCTAssertEqual((none["markers"] as? [Any])?.count, 0)
        XCTAssertEqual(none["overflow_x"] as? Bool, false)
        XCTAssertEqual(result["console_empty"] as? [String], [], "no errors in the browser console")

        BrowserScript.checkScreenshots(result, minimumBytes: 5_000)
        XCTAssertEqual((result["screenshots"] as? [String])?.contains(shots.appendingPathComponent("race-map-phone.png").path), true)
        XCTAssertEqual((result["screenshots"] as? [String])?.contains(shots.appendingPathComponent("race-map-laptop.png").path), true)
    }

    /// A trace line a day later: the `# start_utc:` header and a GPS row's UTC (its last field).
    static func aDayLater(_ line: String) -> String {
        if line.hasPrefix("# start_utc: 2026-05-02") { return line.replacingOccurrences(of: "2026-05-02", with: "2026-05-03") }
        guard line.contains(",gps,") else { return line }
        var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        if let utc = Double(fields[fields.count - 1]) { fields[fields.count - 1] = String(utc + 86_400) }
        return fields.joined(separator: ",")
    }
}
