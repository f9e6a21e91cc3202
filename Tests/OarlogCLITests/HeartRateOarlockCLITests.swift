import Foundation
import OarlogTestSupport
import XCTest

/// Heart rate and the EmPower oarlock's figures through `oarlog replay --json --strokes`, checked
/// against what the test reads from the device exports itself: each stroke's heart rate and power
/// are its row's, the session's averages the rows' means.
final class HeartRateOarlockCLITests: XCTestCase {
    var data: URL!
    override func setUp() {
        data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-hr-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    }
    override func tearDown() { try? FileManager.default.removeItem(at: data) }

    func replayJSON(_ path: String) throws -> [String: Any] {
        let run = try runOarlog(["replay", path, "--json", "--strokes"], dataDirectory: data.path)
        XCTAssertEqual(run.status, 0, run.err)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
    }

    func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }

    /// `key` of the JSON object as a number (nil for null or missing).
    func number(_ object: [String: Any], _ key: String) -> Double? { (object[key] as? NSNumber)?.doubleValue }

    func testNKLogbookHeartRateAndEmPower() throws {
        let path = try samplePath("rowingdata/nk_logbook.csv")
        let rows = try CSVTable.rows(path).filter { $0["type"] == "0" }
        let json = try replayJSON(path)
        let heartRates = rows.compactMap { Double($0["heartRate"]!) }.filter { $0 > 0 }
        XCTAssertEqual(number(json, "avg_heart_rate_bpm") ?? 0, mean(heartRates), accuracy: 1)
        XCTAssertEqual(number(json, "max_heart_rate_bpm"), heartRates.max())
        XCTAssertEqual(heartRates.max(), 170)
        let powers = rows.compactMap { Double($0["power"]!) }
        XCTAssertEqual(number(json, "avg_power_w") ?? 0, mean(powers), accuracy: mean(powers) * 0.01)
        for (key, column) in [("avg_catch_angle_deg", "catchAngle"), ("avg_finish_angle_deg", "finishAngle"), ("avg_slip_deg", "slip"),
                              ("avg_wash_deg", "wash"), ("avg_effective_length_deg", "effectiveLength"),
                              ("avg_force_n", "handleForceAvg"), ("avg_max_force_n", "maxHandleForce"),
                              ("avg_max_force_angle_deg", "positionOfMaxForce"), ("avg_work_j", "realWorkPerStroke")] {
            // The report rounds to 0.1.
            XCTAssertEqual(number(json, key) ?? .nan, mean(rows.compactMap { Double($0[column]!) }), accuracy: 0.051, key)
        }
        XCTAssertEqual((json["heart_rate_sensors"] as? [Any])?.count, 0, "no strap named itself")

        // Each stroke (a row; rows sharing a time are left out: which is which is not defined).
        var byTime: [Int: [[String: String]]] = [:]
        for row in rows { byTime[Int(row["elapsedTime"]!)!, default: []].append(row) }
        let strokes = try XCTUnwrap(json["stroke_list"] as? [[String: Any]])
        XCTAssertEqual(strokes.count, json["strokes"] as? Int)
        var checked = 0
        for s in strokes {
            let ms = Int((number(s, "t_s")! * 1000).rounded())
            guard let match = byTime[ms], match.count == 1, let row = match.first else { continue }
            XCTAssertEqual(number(s, "heart_rate_bpm"), Double(row["heartRate"]!), "stroke at \(ms) ms")
            if let power = Double(row["power"]!) {
                XCTAssertEqual(number(s, "power_w") ?? .nan, power, accuracy: 0.051, "stroke at \(ms) ms")
                XCTAssertEqual(number(s, "catch_angle_deg"), Double(row["catchAngle"]!), "stroke at \(ms) ms")
                XCTAssertEqual(number(s, "work_j") ?? .nan, Double(row["realWorkPerStroke"]!)!, accuracy: 0.051)
            } else {
                XCTAssertNil(number(s, "power_w"), "stroke at \(ms) ms: its row has no power")
            }
            checked += 1
        }
        XCTAssertGreaterThan(checked, 1100)
    }

    /// A kept session shows the replay's figures again: per stroke (`show --json --strokes`,
    /// read from its heart-rate and oarlock records) and in the stored summary.
    func testAKeptSessionShowsTheSameFigures() throws {
        let path = try samplePath("rowingdata/nk_logbook.csv")
        let run = try runOarlog(["replay", path, "--save", "--json", "--strokes"], dataDirectory: data.path)
        XCTAssertEqual(run.status, 0, run.err)
        let replayed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let id = try XCTUnwrap(run.err.components(separatedBy: "saved as session ").last?.split(separator: " ").first.map(String.init))
        let show = try runOarlog(["show", id, "--json", "--strokes"], dataDirectory: data.path)
        XCTAssertEqual(show.status, 0, show.err)
        let shown = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(show.out.utf8)) as? [String: Any])
        let keys = ["heart_rate_bpm", "power_w", "catch_angle_deg", "finish_angle_deg", "slip_deg", "wash_deg",
                    "effective_length_deg", "avg_force_n", "max_force_n", "max_force_angle_deg", "work_j"]
        let a = try XCTUnwrap(replayed["stroke_list"] as? [[String: Any]]), b = try XCTUnwrap(shown["stroke_list"] as? [[String: Any]])
        XCTAssertEqual(a.count, b.count)
        for (x, y) in zip(a, b) {
            XCTAssertEqual(keys.map { number(x, $0) }, keys.map { number(y, $0) }, "stroke \(x["index"] ?? "?")")
        }
        for key in ["avg_heart_rate_bpm", "max_heart_rate_bpm", "avg_power_w", "avg_catch_angle_deg", "avg_work_j"] {
            XCTAssertEqual(number(replayed, key), number(shown, key), key)
        }
    }

    func testSpeedCoachHeartRatePerStroke() throws {
        let path = try samplePath("rowingdata/SpeedCoach2Linkv1.27.csv")
        let rows = try CSVTable.speedCoachStrokes(path).filter { $0["Elapsed Time"] != "---" }
        let json = try replayJSON(path)
        let heartRates = rows.compactMap { Double($0["Heart Rate"]!) }.filter { $0 > 0 }
        XCTAssertEqual(number(json, "avg_heart_rate_bpm") ?? 0, mean(heartRates), accuracy: 0.051)
        XCTAssertEqual(number(json, "max_heart_rate_bpm"), heartRates.max())
        XCTAssertNil(number(json, "avg_power_w"), "this export has no power")
        XCTAssertNil(number(json, "avg_catch_angle_deg"))
        var byTime: [Int: [[String: String]]] = [:]
        for row in rows { byTime[Int((CSVTable.seconds(row["Elapsed Time"]!)! * 1000).rounded()), default: []].append(row) }
        var checked = 0
        for s in try XCTUnwrap(json["stroke_list"] as? [[String: Any]]) {
            let ms = Int((number(s, "t_s")! * 1000).rounded())
            guard let match = byTime[ms], match.count == 1, let bpm = Double(match[0]["Heart Rate"]!), bpm > 0 else { continue }
            XCTAssertEqual(number(s, "heart_rate_bpm"), bpm, "stroke at \(ms) ms")
            XCTAssertNil(number(s, "power_w"))
            checked += 1
        }
        XCTAssertGreaterThan(checked, 1000)
    }

    func testSpeedCoachEmPowerAverages() throws {
        let path = try samplePath("rowingdata/SpeedCoach2Link_interval.csv")
        let rows = try CSVTable.speedCoachStrokes(path).filter { $0["Elapsed Time"] != "---" }
        let json = try replayJSON(path)
        func columnMean(_ c: String) -> Double { mean(rows.compactMap { Double($0[c]!) }) }
        XCTAssertEqual(number(json, "avg_power_w") ?? .nan, columnMean("Power"), accuracy: 0.051)
        for (key, column) in [("avg_catch_angle_deg", "Catch"), ("avg_finish_angle_deg", "Finish"), ("avg_slip_deg", "Slip"),
                              ("avg_wash_deg", "Wash"), ("avg_force_n", "Force Avg"), ("avg_max_force_n", "Force Max"),
                              ("avg_max_force_angle_deg", "Max Force Angle"), ("avg_work_j", "Work")] {
            XCTAssertEqual(number(json, key) ?? .nan, columnMean(column), accuracy: 0.051, key)
        }
        XCTAssertNil(number(json, "avg_heart_rate_bpm"), "the export's heart rates are all ---")
        let strokes = try XCTUnwrap(json["stroke_list"] as? [[String: Any]])
        XCTAssertTrue(strokes.allSatisfy { number($0, "heart_rate_bpm") == nil })
        // Every stroke's power is its row's: the same sequence (rows without power give null).
        XCTAssertEqual(strokes.map { number($0, "power_w") }, rows.map { Double($0["Power"]!) })
    }

    func testTwoStrapsReportEachSeat() throws {
        var text = "# oarlog-trace: 1\nt,kind,values\n"
        var stroke: [(t: Double, bpm: Double)] = [], bow: [(t: Double, bpm: Double)] = []
        for k in 0...62 {
            let t = Double(k) + 0.5
            stroke.append((t, Double(120 + k % 15)))
            bow.append((t, Double(131 + (k * 7) % 20)))
            text += "\(t),hr,\(stroke.last!.bpm),stroke\n\(t),hr,\(bow.last!.bpm),bow\n"
            if k % 3 == 1 {
                let n = k / 3 + 1
                text += "\(Double(k) + 0.75),ref,\(Double(n) * 10),,,,\(n)\n"
            }
        }
        let path = data.appendingPathComponent("straps.csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let json = try replayJSON(path)
        let sensors = try XCTUnwrap(json["heart_rate_sensors"] as? [[String: Any]])
        XCTAssertEqual(sensors.map { $0["sensor"] as? String }, ["stroke", "bow"])
        for (object, readings) in zip(sensors, [stroke, bow]) {
            XCTAssertEqual(number(object, "avg_bpm") ?? 0, mean(readings.map(\.bpm)), accuracy: 0.051)
            XCTAssertEqual(number(object, "max_bpm"), readings.map(\.bpm).max())
        }
        XCTAssertEqual(number(json, "max_heart_rate_bpm"), (stroke + bow).map(\.bpm).max())
        let strokes = try XCTUnwrap(json["stroke_list"] as? [[String: Any]])
        XCTAssertGreaterThan(strokes.count, 15)
        for s in strokes {
            let t = number(s, "t_s")!
            let latestStroke = stroke.last { $0.t <= t }!.bpm, latestBow = bow.last { $0.t <= t }!.bpm
            XCTAssertEqual(number(s, "heart_rate_bpm"), latestStroke, "the first strap's, at \(t) s")
            let both = try XCTUnwrap(s["heart_rates"] as? [String: Any])
            XCTAssertEqual(number(both, "stroke"), latestStroke)
            XCTAssertEqual(number(both, "bow"), latestBow)
        }
        // The text report: an HR column in the stroke table, a line per strap in the summary.
        let run = try runOarlog(["replay", path, "--strokes"], dataDirectory: data.path)
        XCTAssertEqual(run.status, 0, run.err)
        let lines = run.out.split(separator: "\n")
        XCTAssertTrue(lines.first?.hasSuffix("HR      W") ?? false, "\(lines.first ?? "")")
        XCTAssertTrue(lines.contains { $0.hasPrefix("Heart rate stroke") })
        XCTAssertTrue(lines.contains { $0.hasPrefix("Heart rate bow") })
    }

    func testSessionsWithoutThemKeepTheirTables() throws {
        let run = try runOarlog(["replay", "samples/sim-workout.csv", "--strokes"], dataDirectory: data.path)
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertEqual(run.out.split(separator: "\n").first,
                       "stroke      time   rate  smoothed   split /500m   dist/stroke   distance   d:r   check   swing")
        XCTAssertFalse(run.out.contains("Heart rate"))
        // Nor do its strokes in JSON gain keys: they stay as the live stream and the fleet send them.
        let json = try runOarlog(["replay", "samples/sim-workout.csv", "--json", "--strokes"], dataDirectory: data.path)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let strokes = try XCTUnwrap(object["stroke_list"] as? [[String: Any]])
        XCTAssertGreaterThan(strokes.count, 100)
        XCTAssertTrue(strokes.allSatisfy { $0["heart_rate_bpm"] == nil && $0["power_w"] == nil && $0["work_j"] == nil })
        XCTAssertTrue(object.keys.contains("avg_heart_rate_bpm"), "the summary says there is none (null)")
    }
}

/// Device exports as tables, read by the test itself: the ground truth.
enum CSVTable {
    static func fields(_ line: Substring) -> [String] {
        var out: [String] = [], field = "", quoted = false
        for c in line {
            if c == "\"" { quoted.toggle() } else if c == "," && !quoted { out.append(field); field = "" } else { field.append(c) }
        }
        out.append(field)
        return out
    }

    /// Rows by the header's names (the first of a repeated name).
    static func rows(_ path: String) throws -> [[String: String]] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline)
        let header = fields(lines[0])
        return lines.dropFirst().map { Dictionary(zip(header, fields($0)), uniquingKeysWith: { a, _ in a }) }
    }

    /// A SpeedCoach export's per-stroke rows (below the header with "Elapsed Time" and its units row).
    static func speedCoachStrokes(_ path: String) throws -> [[String: String]] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline)
        guard let h = lines.lastIndex(where: { $0.hasPrefix("Interval,") && $0.contains("Elapsed Time") }) else { return [] }
        let header = fields(lines[h])
        return lines[(h + 2)...].map(fields).filter { $0.count == header.count }
            .map { Dictionary(zip(header, $0), uniquingKeysWith: { a, _ in a }) }
    }

    /// Seconds of `[[HH:]MM:]SS.t`.
    static func seconds(_ clock: String) -> Double? {
        var total = 0.0
        for part in clock.split(separator: ":") {
            guard let v = Double(part) else { return nil }
            total = total * 60 + v
        }
        return total
    }
}
