import Foundation
import OarlogTestSupport
import XCTest

/// `replay --course NAME --ghost best --json` as a person runs it, over two crews that
/// `oarlog simulate --course samples/nk-course.geojson` rowed up the NK course (noise-free
/// positions, 1 Hz GPS): the faster one kept and its attempt the ghost, the slower one replayed
/// against it. The gap at every gate is the truth's (the simulator's gate rows: each crew's time
/// from its start crossing to the gate, the difference), within 0.3 s; it grows gate by gate to
/// about 5 s at the finish.
extension CLITests {
    /// Each forward gate crossing of the first passage up the course: course index (1-based) → time.
    private func firstPassage(_ truthPath: String) throws -> [Int: Double] {
        let rows = try String(contentsOfFile: truthPath, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("gate,") }.map { $0.split(separator: ",").map(String.init) }
        // gate,index,name,course_distance_m,t_s,direction,passage
        var times: [Int: Double] = [:]
        for row in rows where row[5] == "forward" && row[6] == "1" { times[Int(row[1]) ?? 0] = Double(row[4]) }
        return times
    }

    func testASlowerSimulatedCrewLosesToItsGhostWhatTheTruthSays() throws {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        var traces: [String] = []
        for (name, rate) in [("fast", "26"), ("slow", "25.5")] {
            let trace = dataDirectory.appendingPathComponent("\(name).csv").path
            let simulate = try oarlog("simulate", "--minutes", "12", "--rate", rate, "--accel-hz", "25", "--gps-hz", "1", "--noise", "none",
                                      "--gps-dropouts", "0", "--course", "samples/nk-course.geojson", "-o", trace)
            XCTAssertEqual(simulate.status, 0, simulate.err)
            traces.append(trace)
        }
        XCTAssertEqual(try oarlog("replay", traces[0], "--save", "--title", "Fast").status, 0)
        let added = try oarlog("courses", "add", "samples/nk-course.geojson", "--name", "NK 2k")
        XCTAssertEqual(added.status, 0, added.err)
        let race = try oarlog("replay", traces[1], "--course", "NK 2k", "--ghost", "best", "--json")
        XCTAssertEqual(race.status, 0, race.err)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(race.out.utf8)) as? [String: Any])
        let ghost = try XCTUnwrap(report["ghost"] as? [String: Any], race.out)
        XCTAssertEqual((ghost["reference"] as? [String: Any])?["session"] as? String, "2026-05-02T07-00-00Z_fast")
        let gates = try XCTUnwrap(ghost["gates"] as? [[String: Any]])
        XCTAssertEqual(gates.compactMap { $0["gate"] as? String }, ["500 m", "1000 m", "1500 m", "Finish"])

        let fast = try firstPassage(dataDirectory.appendingPathComponent("fast.truth.csv").path)
        let slow = try firstPassage(dataDirectory.appendingPathComponent("slow.truth.csv").path)
        var previous = 0.0
        for (k, gate) in zip(2...5, gates) {
            let truth = (try XCTUnwrap(slow[k]) - XCTUnwrap(slow[1])) - (try XCTUnwrap(fast[k]) - XCTUnwrap(fast[1]))
            XCTAssertGreaterThan(truth, previous, "the truth's gap grows")
            previous = truth
            XCTAssertEqual(gate["gap_s"] as? Double ?? .nan, truth, accuracy: 0.3, "\(gate)")
            print("[ghost] NK course, simulated: gap at \(gate["gate"] ?? "") \(gate["gap_s"] ?? "") s, truth \(String(format: "%.2f", truth)) s")
        }
        XCTAssertEqual(previous, 5, accuracy: 2.5, "about 5 s slower over 2 km")
        XCTAssertEqual(ghost["final_gap_s"] as? Double ?? .nan, previous, accuracy: 0.3)
    }
}
