import Foundation
import OarlogTestSupport
import XCTest

/// `oarlog simulate --course FILE` as a person runs it, then `oarlog course` over what it wrote:
/// the pieces are the truth's complete passages up the course, each start and finish within
/// 0.1 s of the truth (1 Hz GPS, noise-free positions), and every gate crossed back down the
/// course is a wrong-way problem; a course file that does not load is named in the error.
extension CLITests {
    func testASimulatedOutingOverACourseIsTimedByTheCourseCommand() throws {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        let trace = dataDirectory.appendingPathComponent("nk.csv").path
        let simulate = try oarlog("simulate", "--minutes", "40", "--rate", "24", "--accel-hz", "25", "--gps-hz", "1",
                                  "--noise", "none", "--gps-dropouts", "0", "--course", "samples/nk-course.geojson", "-o", trace)
        XCTAssertEqual(simulate.status, 0, simulate.err)
        let truth = try String(contentsOfFile: dataDirectory.appendingPathComponent("nk.truth.csv").path, encoding: .utf8)
        let gates = truth.split(separator: "\n").filter { $0.hasPrefix("gate,") }.map { $0.split(separator: ",").map(String.init) }
        // gate,index,name,course_distance_m,t_s,direction,passage
        var passages: [Int: [(gate: Int, time: Double)]] = [:]
        for row in gates where row[5] == "forward" {
            passages[Int(row[6]) ?? 0, default: []].append((Int(row[1]) ?? 0, Double(row[4]) ?? .nan))
        }
        let complete = passages.keys.sorted().compactMap { passages[$0] }.filter { $0.map(\.gate) == [1, 2, 3, 4, 5] }
        XCTAssertGreaterThanOrEqual(complete.count, 2, "40 minutes at 24 spm: two passages up the 2 km course at least")
        XCTAssertTrue(simulate.err.contains("complete passages up the course: \(complete.count)"), simulate.err)

        let course = try oarlog("course", trace, "--fences", "samples/nk-course.geojson")
        XCTAssertEqual(course.status, 0, course.err)
        let pieces = course.out.split(separator: "\n").filter { $0.hasPrefix("Piece ") }
        XCTAssertEqual(pieces.count, complete.count, course.out)
        // The table prints tenths: 0.1 s of timing error plus 0.05 s of rounding.
        for (line, passage) in zip(pieces, complete) {
            let words = line.split(separator: " ").map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
            let start = try XCTUnwrap(words.firstIndex(of: "start").flatMap { seconds(words[$0 + 1]) }, String(line))
            let finish = try XCTUnwrap(words.firstIndex(of: "finish").flatMap { seconds(words[$0 + 1]) }, String(line))
            XCTAssertEqual(start, passage[0].time, accuracy: 0.15, String(line))
            XCTAssertEqual(finish, passage[4].time, accuracy: 0.15, String(line))
        }
        let back = gates.filter { $0[5] == "back" }.count
        XCTAssertGreaterThanOrEqual(back, 5)
        XCTAssertEqual(course.out.components(separatedBy: "crossed the wrong way").count - 1, back, course.out)
    }

    func testACourseFileThatDoesNotLoadIsNamed() throws {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        let trace = dataDirectory.appendingPathComponent("x.csv").path
        let missing = try oarlog("simulate", "--minutes", "1", "--course", "no-such-course.geojson", "-o", trace)
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.err.contains("no-such-course.geojson"), missing.err)

        let areaOnly = dataDirectory.appendingPathComponent("area.geojson")
        try """
        {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "boathouse", "radius_m": 50},
         "geometry": {"type": "Point", "coordinates": [6.82, 52.24]}}]}
        """.write(to: areaOnly, atomically: true, encoding: .utf8)
        let noCourse = try oarlog("simulate", "--minutes", "1", "--course", areaOnly.path, "-o", trace)
        XCTAssertNotEqual(noCourse.status, 0)
        XCTAssertTrue(noCourse.err.contains("\(areaOnly.path) defines no course"), noCourse.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: trace), "nothing written")

        let withStart = try oarlog("simulate", "--minutes", "1", "--course", "samples/nk-course.geojson", "--start", "52.2,6.8", "-o", trace)
        XCTAssertNotEqual(withStart.status, 0)
        XCTAssertTrue(withStart.err.contains("do not go with a course file"), withStart.err)
    }

    /// `m:ss.s` or `h:mm:ss.s` as seconds.
    private func seconds(_ text: String) -> Double? {
        var total = 0.0
        for part in text.split(separator: ":") {
            guard let value = Double(part) else { return nil }
            total = total * 60 + value
        }
        return total
    }
}
