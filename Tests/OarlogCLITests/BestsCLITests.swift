import Foundation
import OarlogTestSupport
import XCTest

/// `oarlog bests` over simulated outings of known constant rate: the fastest windows are the
/// faster outing's, as fast as its truth says, the progression in date order; a damaged file
/// in the directory is named and left out. (CLITests' data directory and `oarlog` runner.)
extension CLITests {
    /// The truth's fastest time over `metres`: catch times and true distances, the window's end
    /// placed between two catches.
    func truthFastest(_ truthPath: String, over metres: Double) throws -> Double {
        let rows = try String(contentsOfFile: truthPath, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("stroke,") }
        // Empty fields kept: the first stroke has no rate yet (`stroke,1,0.5,,…`).
        let fields = rows.map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let t = fields.map { Double($0[2])! }, d = fields.map { Double($0[6])! }
        var best = Double.infinity
        for i in t.indices {
            guard let j = d.indices.first(where: { $0 > i && d[$0] - d[i] >= metres }) else { break }
            let end = t[j - 1] + (d[i] + metres - d[j - 1]) / (d[j] - d[j - 1]) * (t[j] - t[j - 1])
            best = min(best, end - t[i])
        }
        return best
    }

    func testBestsOverSimulatedOutings() throws {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        var truths: [String: String] = [:]
        for (rate, date) in [("24", "2026-05-02T07:00:00Z"), ("30", "2026-05-09T07:00:00Z"), ("20", "2026-05-16T07:00:00Z")] {
            let trace = dataDirectory.appendingPathComponent("c\(rate).csv").path
            let simulated = try oarlog("simulate", "--minutes", "12", "--rate", rate, "--noise", "none", "--gps-dropouts", "0",
                                       "--seed", rate, "--start-utc", date, "-o", trace)
            XCTAssertEqual(simulated.status, 0, simulated.err)
            let saved = try oarlog("replay", trace, "--save", "--title", "At \(rate)")
            XCTAssertEqual(saved.status, 0, saved.err)
            truths[rate] = trace.replacingOccurrences(of: ".csv", with: ".truth.csv")
        }
        // A damaged file among them.
        let sessions = try oarlog("sessions", "--directory").out.trimmingCharacters(in: .whitespacesAndNewlines)
        try Data("not a session".utf8).write(to: URL(fileURLWithPath: sessions + "/2026-05-20T07-00-00Z_junk.oarlog"))

        let run = try oarlog("bests", "--json")
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.err.contains("2026-05-20T07-00-00Z_junk left out"), run.err)
        let events = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [[String: Any]])
        XCTAssertEqual(events.compactMap { $0["distance_m"] as? Int }, [500, 1000, 2000, 5000, 6000])
        XCTAssertEqual(events.compactMap { $0["duration_s"] as? Int }, [60, 1200, 1800])
        for event in events where (event["distance_m"] as? Int).map({ $0 <= 2000 }) ?? false {
            let metres = Double(event["distance_m"] as! Int)
            // The fastest is the 30 spm outing's; as fast as its truth within 0.2 s (the issue's
            // tolerance: the simulator places its fixes on the WGS 84 ellipsoid Oarlog measures on).
            XCTAssertEqual(event["session"] as? String, "2026-05-09T07-00-00Z_at-30")
            let truth = try truthFastest(truths["30"]!, over: metres)
            print("bests: \(metres) m: \(event["time_s"] as? Double ?? 0) s, truth \(truth) s")
            XCTAssertEqual(event["time_s"] as? Double ?? 0, truth, accuracy: 0.2, "\(metres) m")
            XCTAssertEqual(event["split_s_per_500m"] as? Double ?? 0, (event["time_s"] as? Double ?? 0) / metres * 500, accuracy: 0.01)
            // The season's progression: the 24 spm outing first, then the 30; the 20 spm one set no best.
            let progression = try XCTUnwrap(event["progression"] as? [[String: Any]])
            XCTAssertEqual(progression.compactMap { $0["session"] as? String }, ["2026-05-02T07-00-00Z_at-24", "2026-05-09T07-00-00Z_at-30"])
            let first = try truthFastest(truths["24"]!, over: metres)
            XCTAssertEqual(progression.first?["time_s"] as? Double ?? 0, first, accuracy: 0.2)
        }
        // Twelve minutes each: no 5,000 m at these speeds, no 20 or 30 minutes.
        for event in events where (event["distance_m"] as? Int ?? 0) >= 5000 || (event["duration_s"] as? Int ?? 0) >= 1200 {
            XCTAssertTrue(event["time_s"] is NSNull, "\(event)")
            XCTAssertEqual((event["progression"] as? [Any])?.count, 0)
        }
        let minute = try XCTUnwrap(events.first { $0["duration_s"] as? Int == 60 })
        XCTAssertEqual(minute["session"] as? String, "2026-05-09T07-00-00Z_at-30")
        // The table says the same.
        let table = try oarlog("bests")
        XCTAssertEqual(table.status, 0)
        let row500 = try XCTUnwrap(table.out.split(separator: "\n").first { $0.hasPrefix("500 m") })
        XCTAssertTrue(row500.hasSuffix("2026-05-09T07-00-00Z_at-30"), String(row500))
    }
}
