import Foundation
import OarlogTestSupport
import XCTest

/// The personal bests page (`#bests`) and `GET /api/bests`, over simulated outings of known
/// constant rate on four dates and a damaged file: the API is byte for byte `oarlog bests
/// --json`; in headless Chromium (Debian's chromium and chromedriver, driven by python3-selenium)
/// at phone, phone landscape and laptop size the table's cells are that JSON formatted, the
/// progression plot's points are the progression, the damaged file is named, a row, a point and
/// the ▶ open what they say. Screenshots in `.build/screenshots/bests-*.png`.
final class BestsPageTests: XCTestCase {
    /// Rate and date of each outing: the 22 spm one, slower than the 24 before it, sets no best.
    static let outings = [("20", "2026-05-02T07:00:00Z"), ("24", "2026-05-09T07:00:00Z"), ("22", "2026-05-16T07:00:00Z"),
                          ("30", "2026-05-23T07:00:00Z")]
    static let junk = "2026-05-30T07-00-00Z_junk"

    func testBestsPageShowsTheCommandLinesBests() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-bests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        for (rate, date) in Self.outings {
            let trace = data.appendingPathComponent("c\(rate).csv").path
            let simulated = try oarlogCLI(["simulate", "--minutes", "12", "--rate", rate, "--noise", "none", "--gps-dropouts", "0",
                                           "--seed", rate, "--start-utc", date, "-o", trace], dataDirectory: data)
            XCTAssertEqual(simulated.status, 0, simulated.err)
            let saved = try oarlogCLI(["replay", trace, "--save", "--title", "At \(rate)"], dataDirectory: data)
            XCTAssertEqual(saved.status, 0, saved.err)
        }
        let sessions = try oarlogCLI(["sessions", "--directory"], dataDirectory: data).out.trimmingCharacters(in: .whitespacesAndNewlines)
        try Data("not a session".utf8).write(to: URL(fileURLWithPath: sessions + "/\(Self.junk).oarlog"))
        let cli = try oarlogCLI(["bests", "--json"], dataDirectory: data)
        XCTAssertEqual(cli.status, 0, cli.err)
        let events = try XCTUnwrap(try jsonObject(cli.out) as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: events.map { (Self.eventName($0), $0) })
        // The outings are what they should be for the page to show anything: a 2,000 m best from
        // the 30 spm outing, set first at 20, then 24, then 30; no 5,000 m in 12 minutes.
        let twoK = try XCTUnwrap(byName["2,000 m"])
        XCTAssertEqual(twoK["session"] as? String, "2026-05-23T07-00-00Z_at-30")
        XCTAssertEqual((twoK["progression"] as? [[String: Any]])?.compactMap { $0["session"] as? String },
                       ["2026-05-02T07-00-00Z_at-20", "2026-05-09T07-00-00Z_at-24", "2026-05-23T07-00-00Z_at-30"])
        XCTAssertTrue(byName["5,000 m"]?["time_s"] is NSNull)

        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "5"], dataDirectory: data)
        // GET /api/bests: the command line's output, byte for byte; the unreadable session counted.
        let asked = Date()
        let api = try server.download("/api/bests")
        print("GET /api/bests over \(Self.outings.count) 12-minute sessions and a damaged file: \(Int(Date().timeIntervalSince(asked) * 1000)) ms, \(api.body.count) bytes")
        XCTAssertEqual(api.status, 200)
        XCTAssertEqual(api.header("Content-Type"), "application/json; charset=utf-8")
        XCTAssertEqual(String(decoding: api.body, as: UTF8.self), cli.out)
        XCTAssertEqual(api.body, Data(cli.out.utf8), "\(api.body.count) bytes from the server, \(cli.out.utf8.count) from oarlog bests --json")
        XCTAssertEqual(api.header("X-Oarlog-Unreadable"), "1")
        // ?unreadable=1: the same array, and the damaged file named with why (as the CLI's note says).
        let wrapped = try server.download("/api/bests?unreadable=1")
        XCTAssertEqual(wrapped.status, 200)
        XCTAssertEqual(wrapped.header("X-Oarlog-Unreadable"), "1")
        let both = try XCTUnwrap(try JSONSerialization.jsonObject(with: wrapped.body) as? [String: Any])
        XCTAssertEqual(both["bests"] as? NSArray, try jsonObject(cli.out) as? NSArray)
        let unreadable = try XCTUnwrap(both["unreadable"] as? [[String: String]])
        XCTAssertEqual(unreadable.map { $0["id"] ?? "?" }, [Self.junk])
        let reason = try XCTUnwrap(unreadable.first?["reason"])
        XCTAssertTrue(cli.err.contains("\(Self.junk) left out: \(reason)"), "\(cli.err) / \(reason)")

        // A boat whose only session has no GPS: no bests, said so.
        let noGPS = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-bests-nogps-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: noGPS) }
        try FileManager.default.createDirectory(at: noGPS, withIntermediateDirectories: true)
        let workout = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("samples/sim-workout.csv"), encoding: .utf8)
        let accelOnly = noGPS.appendingPathComponent("accel-only.csv")
        try (workout.split(separator: "\n").prefix(7000).filter { !$0.contains(",gps,") }.joined(separator: "\n") + "\n")
            .write(to: accelOnly, atomically: true, encoding: .utf8)
        XCTAssertEqual(try oarlogCLI(["replay", accelOnly.path, "--save", "--title", "No GPS"], dataDirectory: noGPS).status, 0)
        let empty = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "5"], dataDirectory: noGPS)
        let emptyAPI = try XCTUnwrap(try jsonObject(try empty.request("GET", "/api/bests").body) as? [[String: Any]])
        XCTAssertEqual(emptyAPI.count, 8)
        XCTAssertTrue(emptyAPI.allSatisfy { $0["session"] is NSNull }, "\(emptyAPI)")

        let shots = try BrowserScript.screenshots()
        // The token: a playback needs it (the ▶ opens one).
        let result = try BrowserScript.run("bests_page.py", [server.base, shots.path, empty.base, server.token])

        for size in ["phone", "landscape", "laptop"] {
            let seen = try XCTUnwrap(result[size] as? [String: Any], size)
            // The table: one row per event, in the command line's order, each cell its JSON formatted.
            let rows = try XCTUnwrap(seen["rows"] as? [[String: Any]])
            XCTAssertEqual(rows.map { $0["event"] as? String ?? "?" }, events.map(Self.eventName), size)
            for (row, event) in zip(rows, events) {
                let name = Self.eventName(event)
                guard let session = event["session"] as? String else {
                    for key in ["best", "split", "date", "at"] { XCTAssertEqual(row[key] as? String, "—", "\(size) \(name) \(key)") }
                    XCTAssertTrue(row["session"] is NSNull, "\(size) \(name)")
                    continue
                }
                let isDistance = event["distance_m"] is Int
                let best = try XCTUnwrap((isDistance ? event["time_s"] : event["metres"]) as? Double, name)
                XCTAssertEqual(row["best"] as? String, isDistance ? Self.clock(best) : Self.grouped(best) + " m", "\(size) \(name)")
                XCTAssertEqual(Double(row["best_value"] as? String ?? ""), best, "\(size) \(name)")
                let split = try XCTUnwrap(event["split_s_per_500m"] as? Double)
                XCTAssertEqual(row["split"] as? String, Self.clock(split), "\(size) \(name)")
                XCTAssertEqual(Double(row["split_value"] as? String ?? ""), split)
                let date = try XCTUnwrap(event["date_utc"] as? String)
                XCTAssertEqual(row["date"] as? String, String(date.prefix(10)), "\(size) \(name)")
                XCTAssertEqual(row["session"] as? String, session)
                XCTAssertEqual(row["date_href"] as? String, "#session/" + session)
                let start = try XCTUnwrap(event["start_s"] as? Double)
                XCTAssertEqual(row["at"] as? String, "▶ " + Self.clock(start), "\(size) \(name)")
                XCTAssertEqual(row["at_href"] as? String, "#play/\(session)?at=\(Self.jsNumber(start))", "\(size) \(name)")
            }
            // The plot: 2,000 m first, its points the progression (date, time, session).
            XCTAssertEqual(seen["buttons"] as? [String], events.filter { !(($0["progression"] as? [Any])?.isEmpty ?? true) }.map(Self.eventName))
            XCTAssertEqual(seen["buttons"] as? [String], ["500 m", "1,000 m", "2,000 m", "1 min"], size)
            XCTAssertEqual(seen["selected"] as? [String], ["2,000 m"], size)
            XCTAssertEqual(seen["plot_title"] as? String, "2,000 m: best time, lower is faster")
            XCTAssertEqual(seen["plot_note"] as? String, "3 sessions set a new best. Tap a point for its session.")
            try Self.assertPoints(seen["points"], twoK, "\(size)")
            // The points inside the plot, left to right in date order, each lower (faster) than the one before.
            let pixels = try XCTUnwrap(seen["point_pixels"] as? [[String: Double]])
            let area = try XCTUnwrap(seen["chart_area"] as? [String: Double])
            for p in pixels {
                XCTAssertTrue((area["left"]! ... area["right"]!).contains(p["x"]!) && (area["top"]! ... area["bottom"]!).contains(p["y"]!), "\(size): \(p) in \(area)")
            }
            XCTAssertEqual(pixels.map { $0["x"]! }, pixels.map { $0["x"]! }.sorted(), size)
            XCTAssertEqual(pixels.map { $0["y"]! }, pixels.map { $0["y"]! }.sorted(), "\(size): a faster time is lower on the screen")
            // The damaged file named, with what to do.
            XCTAssertEqual(seen["unreadable_title"] as? String, "1 session could not be read:")
            XCTAssertEqual((seen["unreadable"] as? [[String: String]])?.map { $0["id"] ?? "?" }, [Self.junk])
            XCTAssertEqual((seen["unreadable"] as? [[String: String]])?.first?["reason"], reason)
            XCTAssertTrue((seen["unreadable_text"] as? String ?? "").contains("Run oarlog recover on the boat"), "\(seen["unreadable_text"] ?? "")")
            XCTAssertEqual(seen["nav_active"] as? [String], ["nav-bests"])
            XCTAssertTrue(seen["empty"] is NSNull)
            // Nothing cut off or wider than the screen; the nav on one line beside the sensors.
            XCTAssertEqual(seen["overflow_x"] as? Bool, false, size)
            XCTAssertEqual(seen["outside"] as? [String], [], size)
            XCTAssertEqual(seen["clipped"] as? [String], [], size)
            let nav = try XCTUnwrap(seen["nav_rects"] as? [[String: Double]])
            let sensors = try XCTUnwrap(seen["sensors_rect"] as? [String: Double])
            XCTAssertEqual(Set(nav.map { $0["top"]! }).count, 1, "\(size): the nav on one line: \(nav)")
            // The tabs scroll sideways within the nav on a phone: the nav's box ends where the sensors begin, Bests in it.
            let box = try XCTUnwrap(seen["nav_rect"] as? [String: Double])
            XCTAssertLessThanOrEqual(box["right"]!, sensors["left"]!, "\(size): the nav beside the sensors: \(box) \(sensors)")
            XCTAssertLessThanOrEqual(sensors["right"]!, ["phone": 390, "landscape": 844, "laptop": 1280][size]!, "\(size): the sensors on the screen")
            let bests = try XCTUnwrap(nav.dropFirst(3).first, "\(nav)")
            XCTAssertLessThanOrEqual(bests["right"]!, box["right"]!, "\(size): the Bests tab shown: \(nav) \(box)")
        }
        // Another event by its button: the 500 m's progression.
        let picked = try XCTUnwrap(result["picked_500"] as? [String: Any])
        XCTAssertEqual(picked["selected"] as? [String], ["500 m"])
        try Self.assertPoints(picked["points"], try XCTUnwrap(byName["500 m"]), "500 m")
        let minute = try XCTUnwrap(result["picked_1min"] as? [String: Any])
        XCTAssertEqual(minute["selected"] as? [String], ["1 min"])
        XCTAssertEqual(minute["plot_title"] as? String, "1 min: most metres, higher is further")
        try Self.assertPoints(minute["points"], try XCTUnwrap(byName["1 min"]), "1 min", value: "metres")
        let risen = try XCTUnwrap(minute["point_pixels"] as? [[String: Double]]).map { $0["y"]! }
        XCTAssertEqual(risen, risen.sorted(by: >), "more metres is higher on the screen")
        // A tapped row opens its session; a tapped point the session that set that best; ▶ plays
        // the session back from where the best began.
        let session = try XCTUnwrap(twoK["session"] as? String)
        let row = try XCTUnwrap(result["tapped_row"] as? [String: String])
        XCTAssertEqual(row["hash"], "#session/" + session)
        XCTAssertEqual(row["loaded"], session)
        let first = try XCTUnwrap((twoK["progression"] as? [[String: Any]])?.first?["session"] as? String)
        let point = try XCTUnwrap(result["tapped_point"] as? [String: String])
        XCTAssertEqual(point["hash"], "#session/" + first)
        XCTAssertEqual(point["loaded"], first)
        let played = try XCTUnwrap(result["played"] as? [String: Any])
        let start = try XCTUnwrap(twoK["start_s"] as? Double)
        XCTAssertEqual(played["hash"] as? String, "#play/\(session)?at=\(Self.jsNumber(start))")
        XCTAssertEqual(played["position"] as? Double ?? -1, start, accuracy: 0.1, "the playback stands where the best began")
        XCTAssertEqual(played["elapsed"] as? String, Self.clock(start))
        XCTAssertEqual(played["live_shown"] as? Bool, true)
        XCTAssertEqual(result["console"] as? [String], [], "no errors in the browser console")

        // No session with GPS: a sentence, no table, no plot.
        let none = try XCTUnwrap(result["empty"] as? [String: Any])
        XCTAssertEqual(none["empty"] as? String,
                       "No personal bests yet: they are measured on each session's GPS track, and no session has 500 m rowed with GPS.")
        XCTAssertEqual(none["table_shown"] as? Bool, false)
        XCTAssertTrue(none["points"] is NSNull, "no chart drawn")
        XCTAssertTrue(none["unreadable_title"] is NSNull)
        XCTAssertEqual(none["overflow_x"] as? Bool, false)
        XCTAssertEqual(result["console_empty"] as? [String], [], "no errors in the browser console")

        BrowserScript.checkScreenshots(result, minimumBytes: 5_000)
        for name in ["bests-phone", "bests-phone-1min", "bests-landscape", "bests-laptop", "bests-empty-phone"] {
            XCTAssertEqual((result["screenshots"] as? [String])?.contains(shots.appendingPathComponent(name + ".png").path), true, name)
        }
    }

    /// The plot's points are the event's progression: as many, each at its session's date, its
    /// time (or metres).
    static func assertPoints(_ seen: Any?, _ event: [String: Any], _ label: String, value: String = "time_s",
                             file: StaticString = #filePath, line: UInt = #line) throws {
        let points = try XCTUnwrap(seen as? [[String: Any]], label, file: file, line: line)
        let progression = try XCTUnwrap(event["progression"] as? [[String: Any]], file: file, line: line)
        XCTAssertEqual(points.count, progression.count, label, file: file, line: line)
        XCTAssertGreaterThanOrEqual(points.count, 2, "\(label): a progression to see", file: file, line: line)
        let iso = ISO8601DateFormatter()
        for (p, r) in zip(points, progression) {
            XCTAssertEqual(p["session"] as? String, r["session"] as? String, label, file: file, line: line)
            XCTAssertEqual(p["y"] as? Double, r[value] as? Double, label, file: file, line: line)
            let date = try XCTUnwrap(iso.date(from: r["date_utc"] as? String ?? ""), file: file, line: line)
            XCTAssertEqual(p["x"] as? Double, date.timeIntervalSince1970 * 1000, label, file: file, line: line)
        }
    }

    /// "2,000 m" or "20 min", as `oarlog bests` names an event.
    static func eventName(_ event: [String: Any]) -> String {
        if let m = event["distance_m"] as? Int { return grouped(Double(m)) + " m" }
        return "\((event["duration_s"] as? Int ?? 0) / 60) min"
    }

    static func grouped(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(c)
        }
        return out
    }

    /// metrics.js's clock: `m:ss.t` to the tenth, `h:mm:ss` from an hour.
    static func clock(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded())
        let h = tenths / 36000, m = tenths / 600 % 60, s = tenths / 10 % 60, t = tenths % 10
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d.%d", m, s, t)
    }

    /// A number as JavaScript writes it (`412.35`, `412`).
    static func jsNumber(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : "\(value)"
    }
}
