import Foundation
import OarlogTestSupport
import XCTest

/// Heart rate and power in headless Chromium at 390×844 (browser/heart_rate_page.py), in one
/// browser session: a simulated eight's three minutes (`oarlog simulate`) with eight seats' heart
/// rates (`t,hr,BPM,SEAT` every second) and a device's strokes with power (`t,ref,…,POWER`)
/// merged in; `oarlog serve --replay` of it, zones set for stroke and 7 through the API and for 5
/// through the page's form. The live screen shows the eight seats, stroke first, each with the
/// trace's last rate and the zone its rower's maximum (and rest) give; the saved session's page
/// plots every seat's heart rate and the strokes' power, bucket by bucket as the trace's rows;
/// played back, it shows the seats as live.
/// Screenshots in `.build/screenshots/hr-*.png`.
final class HeartRatePageTests: XCTestCase {
    static let seats = ["stroke", "7", "6", "5", "4", "3", "2", "bow"]

    /// Seat k's (0: stroke) heart rate at second s: rising through the piece.
    static func bpm(seat k: Int, second s: Int) -> Int { 110 + 6 * k + s / 4 }

    /// The ref rows' power: stroke i of the device's.
    static func power(stroke i: Int) -> Int { 180 + (i % 9) * 15 }

    func testHeartRatesLiveAndOnTheSessionPage() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-hr-page-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        func cli(_ arguments: [String]) throws -> String {
            let run = try oarlogCLI(arguments, dataDirectory: data)
            XCTAssertEqual(run.status, 0, "\(arguments): \(run.err)")
            return run.out
        }
        let simulated = data.appendingPathComponent("sim.csv").path, trace = data.appendingPathComponent("crew.csv").path
        _ = try cli(["simulate", "--minutes", "3", "--rate", "30", "--accel-hz", "25", "--gps-dropouts", "0", "--seed", "3", "-o", simulated])
        // The crew's rows merged into the simulated trace in time order (the header stays first).
        var heart: [(t: Double, seat: String, bpm: Int)] = []
        for s in 0..<180 { for (k, seat) in Self.seats.enumerated() { heart.append((Double(s) + 0.5, seat, Self.bpm(seat: k, second: s))) } }
        let strokes = (0..<72).map { i in (t: 1.0 + 2.5 * Double(i), watts: Self.power(stroke: i)) }
        var rows: [(t: Double, line: String)] = []
        var header: [String] = []
        for line in try String(contentsOfFile: simulated, encoding: .utf8).split(separator: "\n") {
            if let comma = line.firstIndex(of: ","), let t = Double(line[..<comma]) { rows.append((t, String(line))) } else { header.append(String(line)) }
        }
        rows += heart.map { ($0.t, "\($0.t),hr,\($0.bpm),\($0.seat)") }
        rows += strokes.map { ($0.t, "\($0.t),ref,,,,,,,\($0.watts)") }
        let merged = rows.enumerated().sorted { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) }.map(\.element.line)
        try ((header + merged).joined(separator: "\n") + "\n").write(toFile: trace, atomically: true, encoding: .utf8)

        _ = try cli(["replay", trace, "--save", "--title", "Crew hearts"])
        let listed = try XCTUnwrap(try jsonObject(try cli(["sessions", "--json"])) as? [[String: Any]])
        let session = try XCTUnwrap(listed.first?["id"] as? String)

        let server = try ServerProcess(arguments: ["--replay", trace, "--speed", "20"], dataDirectory: data)
        defer { server.stop() }
        // Zones for two seats through the API: stroke by its reserve (Karvonen), 7 by its maximum.
        for (seat, body) in [("stroke", #"{"max_bpm":190,"rest_bpm":50}"#), ("7", #"{"max_bpm":200}"#)] {
            let put = try server.request("PUT", "/api/heart-rate/zones/" + seat, body: body, token: server.token)
            XCTAssertEqual(put.status, 201, put.body)
        }
        let shots = try BrowserScript.screenshots()
        let result = try BrowserScript.run("heart_rate_page.py", [server.base, server.token, shots.path, session], detail: "\n" + server.log.suffix(2000))

        // (a) The live screen: eight seats, stroke first, each the trace's last rate and its zone.
        let live = try XCTUnwrap(result["live"] as? [String: Any])
        let seen = try XCTUnwrap(live["seats"] as? [[String: Any]])
        XCTAssertEqual(seen.map { $0["sensor"] as? String }, Self.seats, "stroke first, bow last")
        let last = Dictionary(heart.map { ($0.seat, $0.bpm) }, uniquingKeysWith: { $1 })
        // Zone by the stated bounds (60/70/80/90 % of max, or of the reserve with a resting rate).
        func zone(_ bpm: Int, max: Double, rest: Double = 0) -> String {
            let share = (Double(bpm) - rest) / (max - rest)
            return "Z" + String(1 + [0.6, 0.7, 0.8, 0.9].filter { share >= $0 }.count)
        }
        let zones = ["stroke": zone(last["stroke"]!, max: 190, rest: 50), "7": zone(last["7"]!, max: 200)]
        XCTAssertEqual(zones, ["stroke": "Z3", "7": "Z4"], "the trace's last rates: 154 and 160 bpm")
        for cell in seen {
            let seat = cell["sensor"] as? String ?? ""
            XCTAssertEqual(cell["bpm"] as? String, String(last[seat] ?? -1), seat)
            XCTAssertEqual(cell["zone"] as? String, zones[seat] ?? "", "\(seat): the zone printed, not colour alone")
            let expectedClass = zones[seat].map { "zone-" + $0.dropFirst() }
            XCTAssertEqual((cell["classes"] as? String ?? "").contains("zone-"), expectedClass != nil, seat)
            if let expectedClass { XCTAssertTrue((cell["classes"] as? String ?? "").contains(expectedClass), "\(seat): \(cell)") }
            XCTAssertGreaterThanOrEqual(cell["font_px"] as? Double ?? 0, 30, "\(seat): readable at arm's length")
        }
        XCTAssertNotEqual(seen[0]["background"] as? String, seen[1]["background"] as? String, "Z3 and Z4 look different")
        XCTAssertEqual(live["overflow"] as? [String], [], "nothing cut off at 390 px")
        // Seat 5's zones set on the page's form: 172 bpm of 180 is Z5.
        let form = try XCTUnwrap(result["zones_form"] as? [String: Any])
        XCTAssertEqual(form["rows"] as? [String], ["Stroke", "7", "5"])
        XCTAssertEqual(form["seat5_zone"] as? String, zone(last["5"]!, max: 180))
        XCTAssertEqual(form["seat5_zone"] as? String, "Z5")

        // (b) The session page: a line per seat and the power, bucket by bucket as the trace's rows.
        let page = try XCTUnwrap(result["session"] as? [String: Any])
        XCTAssertEqual(page["shown"] as? [String: Bool], ["hr": true, "power": true, "angle": false, "force": false],
                       "no oarlock figures: no angle or force plot")
        XCTAssertEqual(page["overflow_x"] as? Bool, false)
        let series = try XCTUnwrap(result["series"] as? [String: Any])
        let width = try XCTUnwrap(series["bucket_s"] as? Double)
        let starts = try XCTUnwrap(series["t_s"] as? [Double])
        func expected(_ values: [(t: Double, v: Int)]) -> [[Double]] {
            var buckets: [Int: [Int]] = [:]
            for (t, v) in values { buckets[min(starts.count - 1, Int(t / width)), default: []].append(v) }
            return buckets.keys.sorted().map { b in [(starts[b] + width / 2) / 60, Double(buckets[b]!.reduce(0, +)) / Double(buckets[b]!.count)] }
        }
        func check(_ points: [[Double]], _ truth: [[Double]], _ what: String) {
            XCTAssertEqual(points.count, truth.count, what)
            for (p, e) in zip(points, truth) {
                XCTAssertEqual(p[0], e[0], accuracy: 0.0005, what)
                XCTAssertEqual(p[1], e[1], accuracy: 0.051, what)
            }
        }
        let plotted = try XCTUnwrap(page["plotted"] as? [String: [[String: Any]]])
        let lines = try XCTUnwrap(plotted["hr"])
        XCTAssertEqual(lines.map { $0["label"] as? String }, ["Stroke", "7", "6", "5", "4", "3", "2", "Bow"])
        for (k, seat) in Self.seats.enumerated() {
            let points = try XCTUnwrap(lines[k]["points"] as? [[Double]])
            check(points, expected(heart.filter { $0.seat == seat }.map { ($0.t, $0.bpm) }), seat)
        }
        let power = try XCTUnwrap(plotted["power"]?.first?["points"] as? [[Double]])
        check(power, expected(strokes.map { ($0.t, $0.watts) }), "power")
        XCTAssertEqual(page["hr_note"] as? String, "· zones of Stroke", "the stroke's zones shaded")
        // Played back: the eight seats again, each at a rate the trace had for it after 90 s.
        let played = try XCTUnwrap((result["playback"] as? [String: Any])?["seats"] as? [[String: Any]])
        XCTAssertEqual(played.map { $0["sensor"] as? String }, Self.seats)
        for cell in played {
            let seat = cell["sensor"] as? String ?? ""
            let rates = Set(heart.filter { $0.seat == seat && $0.t >= 89 }.map { String($0.bpm) })
            XCTAssertTrue(rates.contains(cell["bpm"] as? String ?? ""), "\(seat): \(cell)")
        }
        XCTAssertEqual(result["console"] as? [String], [], "no errors in the browser console")
        BrowserScript.checkScreenshots(result, minimumBytes: 10_000)
    }
}
