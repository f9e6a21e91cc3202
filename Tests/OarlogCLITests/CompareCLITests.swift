import Foundation
import OarlogTestSupport
import XCTest

/// `oarlog compare` as a person runs it, over two simulated outings of known constant rate: the
/// JSON's segments every 500 m, the faster one ahead by what its truth says, the table's rows the
/// JSON's figures; a course's legs with --course; the errors named, exit status non-zero.
/// (The comparison itself is tested against the simulator's truth in SessionComparisonTests.)
extension CLITests {
    /// The truth's catches: their times and the true distance at each (`stroke` rows).
    func truthCatches(_ truthPath: String) throws -> (t: [Double], d: [Double]) {
        let rows = try String(contentsOfFile: truthPath, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("stroke,") }
        return (rows.map { Double($0.split(separator: ",")[2])! }, rows.map { Double($0.split(separator: ",")[6])! })
    }

    /// The truth's time at `metres` along the course (between two catches).
    func truthTime(_ truth: (t: [Double], d: [Double]), at metres: Double) throws -> Double {
        let j = try XCTUnwrap(truth.d.firstIndex { $0 >= metres })
        return truth.t[j - 1] + (metres - truth.d[j - 1]) / (truth.d[j] - truth.d[j - 1]) * (truth.t[j] - truth.t[j - 1])
    }

    /// The truth's distance at time `t` (between two catches).
    func truthDistance(_ truth: (t: [Double], d: [Double]), at t: Double) throws -> Double {
        let j = try XCTUnwrap(truth.t.firstIndex { $0 >= t })
        guard j > 0 else { return truth.d[0] * t / truth.t[0] }  // before the first catch: flying, at its speed
        return truth.d[j - 1] + (t - truth.t[j - 1]) / (truth.t[j] - truth.t[j - 1]) * (truth.d[j] - truth.d[j - 1])
    }

    func testCompareTwoOutings() throws {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        var truths: [String: (t: [Double], d: [Double])] = [:]
        for (rate, date) in [("22", "2026-05-02T07:00:00Z"), ("30", "2026-05-09T07:00:00Z")] {
            let trace = dataDirectory.appendingPathComponent("c\(rate).csv").path
            let simulated = try oarlog("simulate", "--minutes", "7", "--rate", rate, "--noise", "none", "--gps-dropouts", "0",
                                       "--accel-hz", "50", "--seed", rate, "--start-utc", date, "-o", trace)
            XCTAssertEqual(simulated.status, 0, simulated.err)
            XCTAssertEqual(try oarlog("replay", trace, "--save", "--title", "At \(rate)").status, 0)
            truths[rate] = try truthCatches(trace.replacingOccurrences(of: ".csv", with: ".truth.csv"))
        }
        let run = try oarlog("compare", "2026-05-02", "last", "--json")
        XCTAssertEqual(run.status, 0, run.err)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let a = try XCTUnwrap(object["a"] as? [String: Any]), b = try XCTUnwrap(object["b"] as? [String: Any])
        XCTAssertEqual(a["id"] as? String, "2026-05-02T07-00-00Z_at-22")
        XCTAssertEqual(b["id"] as? String, "2026-05-09T07-00-00Z_at-30")
        XCTAssertEqual(b["title"] as? String, "At 30")
        XCTAssertEqual(a["start_utc"] as? String, "2026-05-02T07:00:00Z")
        XCTAssertTrue(a["piece"] is NSNull)
        XCTAssertEqual(object["segment_m"] as? Int, 500)
        let shorter = min(a["distance_m"] as? Double ?? 0, b["distance_m"] as? Double ?? 0)
        let segments = try XCTUnwrap(object["segments"] as? [[String: Any]])
        XCTAssertEqual(segments.count, Int((shorter / 500).rounded(.up)), "every 500 m to the shorter side's end")
        XCTAssertEqual(segments.last?["to_m"] as? Double ?? 0, shorter, accuracy: 0.1)
        XCTAssertEqual(segments.last?["partial"] as? Bool, true)
        XCTAssertEqual(segments.first?["partial"] as? Bool, false)
        // At 1,500 m the faster outing is ahead by the truth's difference (each from its first GPS
        // point: the session starts rowing at 0 s, flying; within 0.3 % + 0.3 s: the sphere, and
        // the truth's distance known only at the catches).
        let at1500 = try XCTUnwrap(segments.first { $0["to_m"] as? Double == 1500 })
        let fromA = a["from_s"] as? Double ?? 0, fromB = b["from_s"] as? Double ?? 0
        func truthElapsed(_ rate: String, from: Double, _ metres: Double) throws -> Double {
            // From the truth's distance at the first GPS point, the time it took `metres` further.
            try truthTime(truths[rate]!, at: truthDistance(truths[rate]!, at: from) + metres) - from
        }
        let truthGap = try truthElapsed("30", from: fromB, 1500) - truthElapsed("22", from: fromA, 1500)
        let gap = try XCTUnwrap(at1500["gap_s"] as? Double)
        XCTAssertLessThan(gap, 0, "B ahead: a negative gap")
        XCTAssertEqual(gap, truthGap, accuracy: abs(truthGap) * 0.003 + 0.3)
        let legA = try XCTUnwrap(at1500["a"] as? [String: Any]), legB = try XCTUnwrap(at1500["b"] as? [String: Any])
        XCTAssertEqual(legA["rate_spm"] as? Double ?? 0, 22, accuracy: 0.3)
        XCTAssertEqual(legB["rate_spm"] as? Double ?? 0, 30, accuracy: 0.3)
        XCTAssertEqual(Double(legB["strokes"] as? Int ?? 0), (legB["time_s"] as? Double ?? 0) / 2, accuracy: 1, "30 spm: a stroke every 2 s")
        print("compare CLI: gap at 1,500 m \(gap) s, truth \(truthGap) s")

        // The table: the sides named, one row per segment with the JSON's figures.
        let table = try oarlog("compare", "2026-05-02", "last")
        XCTAssertEqual(table.status, 0, table.err)
        let lines = table.out.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines[0].hasPrefix("A  2026-05-02T07-00-00Z_at-22  At 22  "), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("B  2026-05-09T07-00-00Z_at-30  At 30  "), lines[1])
        let header = try XCTUnwrap(lines.first { $0.hasPrefix("DISTANCE") })
        XCTAssertEqual(header.split(separator: " ", omittingEmptySubsequences: true).map(String.init),
                       ["DISTANCE", "A", "TIME", "A", "SPLIT", "A", "RATE", "A", "STR", "B", "TIME", "B", "SPLIT", "B", "RATE", "B", "STR", "GAP", "IN", "LEG"])
        let row = try XCTUnwrap(lines.first { $0.hasPrefix("1,000–1,500 m") })
        // "B by 66.8 s  B +21.5 s": the JSON's gap and gain to the table's tenth (the JSON has them
        // to the hundredth, so compared as numbers: 21.55 may be shown as 21.5 or 21.6).
        let tail = row.components(separatedBy: "B by ").last?.components(separatedBy: " s  B +") ?? []
        XCTAssertEqual(tail.count, 2, row)
        XCTAssertEqual(Double(tail.first ?? "") ?? -1, abs(gap), accuracy: 0.051, row)
        XCTAssertEqual(Double(tail.last?.replacingOccurrences(of: " s", with: "") ?? "") ?? -1,
                       abs(at1500["a_gained_s"] as? Double ?? 0), accuracy: 0.051, row)
        XCTAssertTrue(row.contains(String(format: "%.1f", legB["rate_spm"] as? Double ?? 0)), row)
        XCTAssertTrue(lines.contains { $0.hasPrefix("* to the end of the shorter side") }, table.out)

        // A course: the legs between its gates (a straight 1,000 m lane starting 50 m down the
        // simulator's heading of 92.5° from its start at 51.4873, -0.2241).
        let east = 50 * sin(92.5 * .pi / 180), north = 50 * cos(92.5 * .pi / 180)
        let start = String(format: "%.7f,%.7f", 51.4873 + north / 111_250, -0.2241 + east / (111_250 * cos(51.4873 * .pi / 180)))
        let lane = dataDirectory.appendingPathComponent("lane.geojson").path
        let made = try oarlog("fences", "make-course", "--start", start, "--heading", "92.5", "--length", "1000", "--markers", "250",
                              "--name", "Lane", "-o", lane)
        XCTAssertEqual(made.status, 0, made.err)
        let onCourse = try oarlog("compare", "2026-05-02", "last", "--course", lane, "--json")
        XCTAssertEqual(onCourse.status, 0, onCourse.err)
        let course = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(onCourse.out.utf8)) as? [String: Any])
        XCTAssertEqual(course["course"] as? String, "Lane")
        XCTAssertTrue(course["segment_m"] is NSNull)
        let legs = try XCTUnwrap(course["segments"] as? [[String: Any]])
        XCTAssertEqual(legs.compactMap { $0["label"] as? String }, ["Start → 250 m", "250 m → 500 m", "500 m → 750 m", "750 m → Finish"])
        let finish = try XCTUnwrap(legs.last)
        let courseGap = try truthTime(truths["30"]!, at: 1050) - truthTime(truths["30"]!, at: 50)
            - (try truthTime(truths["22"]!, at: 1050) - truthTime(truths["22"]!, at: 50))
        XCTAssertEqual(finish["gap_s"] as? Double ?? 0, courseGap, accuracy: abs(courseGap) * 0.003 + 0.3)
        let courseTable = try oarlog("compare", "2026-05-02", "last", "--course", lane)
        XCTAssertTrue(courseTable.out.contains("Course Lane: "), courseTable.out)
        XCTAssertTrue(courseTable.out.split(separator: "\n").contains { $0.hasPrefix("750 m → Finish") }, courseTable.out)

        // Real water: the NK logbook against itself over its 2,000 m course gives each leg the
        // time and strokes `oarlog course` gives it (the same crossings, the same strokes).
        XCTAssertEqual(try oarlog("replay", "samples/rowingdata/nk_logbook.csv", "--save", "--title", "Long row").status, 0)
        let timed = try oarlog("course", "samples/rowingdata/nk_logbook.csv", "--fences", "samples/nk-course.geojson")
        XCTAssertEqual(timed.status, 0, timed.err)
        let courseLegs = timed.out.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }.filter { $0.count >= 8 && Int($0[0]) != nil && $0[$0.count - 4].contains(":") }
        XCTAssertEqual(courseLegs.count, 4, timed.out)
        let nk = try oarlog("compare", "2021-03-30", "2021-03-30", "--course", "samples/nk-course.geojson", "--json")
        XCTAssertEqual(nk.status, 0, nk.err)
        let nkLegs = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(nk.out.utf8)) as? [String: Any])?["segments"] as? [[String: Any]])
        XCTAssertEqual(nkLegs.count, 4)
        for (leg, row) in zip(nkLegs, courseLegs) {
            let side = try XCTUnwrap(leg["a"] as? [String: Any])
            let time = side["time_s"] as? Double ?? -1
            XCTAssertEqual(String(format: "%d:%04.1f", Int(time) / 60, time.truncatingRemainder(dividingBy: 60)), row[row.count - 4], "\(leg["label"] ?? "")")
            XCTAssertEqual(side["strokes"] as? Int, Int(row[row.count - 1]), "\(leg["label"] ?? "")")
            XCTAssertEqual(leg["gap_s"] as? Double, 0)
        }

        // The errors: named, exit status 1 (a malformed side: usage, 64).
        let unknown = try oarlog("compare", "2026-05-02", "2027")
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.err.contains("no session 2027"), unknown.err)
        let piece = try oarlog("compare", "2026-05-02:1", "last:2")
        XCTAssertEqual(piece.status, 1)
        XCTAssertTrue(piece.err.contains("2026-05-09T07-00-00Z_at-30 has 1 piece (") && piece.err.contains("no piece 2"), piece.err)
        let malformed = try oarlog("compare", "2026-05-02:first", "last")
        XCTAssertEqual(malformed.status, 64)
        XCTAssertTrue(malformed.err.contains("ID:K"), malformed.err)
        let noCourse = try oarlog("compare", "2026-05-02", "last", "--course", "samples/nk-course.geojson")
        XCTAssertEqual(noCourse.status, 1)
        XCTAssertTrue(noCourse.err.contains("never rowed the course 'NK logbook 2000 m'"), noCourse.err)
        // A session without GPS: the simulated trace's first two minutes without its GPS rows.
        let trace = try String(contentsOfFile: dataDirectory.appendingPathComponent("c22.csv").path, encoding: .utf8)
        let noGPS = dataDirectory.appendingPathComponent("no-gps.csv")
        let rows = trace.split(separator: "\n").prefix(6000).filter { !$0.contains(",gps,") }
            .map { $0.hasPrefix("# start_utc:") ? $0.replacingOccurrences(of: "2026-05-02", with: "2026-05-20") : String($0) }
        try (rows.joined(separator: "\n") + "\n").write(to: noGPS, atomically: true, encoding: .utf8)
        XCTAssertEqual(try oarlog("replay", noGPS.path, "--save", "--title", "No GPS").status, 0)
        let withoutGPS = try oarlog("compare", "2026-05-02", "2026-05-20")
        XCTAssertEqual(withoutGPS.status, 1)
        XCTAssertTrue(withoutGPS.err.contains("2026-05-20T07-00-00Z_no-gps has no GPS track"), withoutGPS.err)
    }
}
