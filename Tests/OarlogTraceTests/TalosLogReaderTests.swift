import XCTest
import Foundation
import OarlogCore
import OarlogTrace

/// `../shared/data/<relative>` beside the checkout; fails clearly if the data is missing.
func talosQuiskeDataPath(_ relative: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }  // file → OarlogTraceTests → Tests → package → its parent
    let path = url.appendingPathComponent("shared/data").appendingPathComponent(relative).path
    guard FileManager.default.fileExists(atPath: path) else {
        XCTFail("Real data missing: expected \(path) (the shared/ data directory beside the checkout)", file: file, line: line)
        throw XCTSkip("missing data")
    }
    return path
}

final class TalosLogReaderTests: XCTestCase {
    private func records() throws -> [TraceRecord] {
        var reader = try TalosLogReader(path: try talosQuiskeDataPath("talos/100m-12-strokes-dataInput.txt"))
        var out: [TraceRecord] = []
        while let r = try reader.next() { out.append(r) }
        return out
    }

    func testCountsTimelineAndValues() throws {
        let all = try records()
        var accel: [AccelSample] = [], fixes: [GPSFix] = [], refs: [ReferenceStroke] = []
        var metadata: [String: String] = [:]
        for r in all {
            switch r {
            case .accel(let s): accel.append(s)
            case .fix(let f): fixes.append(f)
            case .reference(let x): refs.append(x)
            case .metadata(let k, let v): metadata[k] = v
            default: break
            }
        }
        // Counted with grep: 1,788 ACCEL rows, 60 GPS rows, ROWING_COUNT 1…12.
        XCTAssertEqual(accel.count, 1788)
        XCTAssertEqual(fixes.count, 60)
        XCTAssertEqual(refs.map { $0.strokeCount ?? 0 }, Array(1...12))
        // Time order, t = 0 at the first record, about 60 s long.
        let times = all.compactMap(\.time)
        XCTAssertEqual(times.first, 0)
        XCTAssertEqual(zip(times, times.dropFirst()).filter { $0 > $1 }.count, 0, "records in time order")
        XCTAssertEqual(try XCTUnwrap(accel.last).time, 60.2, accuracy: 0.1)
        // First ACCEL row: sensor 169048982260000 ns, logged at wall 1288708916885 ms: 1.5390993,4.8216033,8.349273.
        XCTAssertEqual(accel[0].x, 1.5390993); XCTAssertEqual(accel[0].y, 4.8216033); XCTAssertEqual(accel[0].z, 8.349273)
        // Sensor-clock spacing kept: second ACCEL at +30.091 ms on the sensor clock.
        XCTAssertEqual(accel[1].time - accel[0].time, 0.030091, accuracy: 1e-6)
        // start_utc: the wall clock of the first sample (the offset is the smallest logging delay,
        // 1288708916.885 − 169048.98226 s minus up to a few ms): 2010-11-02T14:41:56.88xZ.
        let start = try XCTUnwrap(metadata["start_utc"])
        XCTAssertTrue(start.hasPrefix("2010-11-02T14:41:56.88"), start)
        // The 12th ROWING_COUNT (sensor 169098852473000 ns) is 49.870 s after the first ACCEL.
        XCTAssertEqual(try XCTUnwrap(refs.last).time, 169098.852473 - 169048.98226, accuracy: 1e-6)
        // First GPS row: logged at wall 1288708917670 ms → 0.785 s after the first ACCEL's wall
        // time minus the offset error (≤ 2 ms); its fix: UTC 1288709057 s, 32.0963108…, 34.7817653…,
        // alt 15, speed 1.5 m/s, bearing 267.1875°, accuracy 2 m.
        let fix = fixes[0]
        XCTAssertEqual(fix.time, 0.785, accuracy: 0.003)
        XCTAssertEqual(try XCTUnwrap(fix.utc), 1288709057.0, accuracy: 1e-6)
        XCTAssertEqual(fix.latitude, 32.09631085395813, accuracy: 1e-12)
        XCTAssertEqual(fix.longitude, 34.78176534175873, accuracy: 1e-12)
        XCTAssertEqual(fix.altitude, 15); XCTAssertEqual(fix.speed, 1.5); XCTAssertEqual(fix.course, 267.1875)
        XCTAssertEqual(fix.horizontalAccuracy, 2)
        // Gravity on the phone: |mean| ≈ 9.84 m/s².
        let mean = accel.reduce(SIMD3<Double>.zero) { $0 + SIMD3(Double($1.x), Double($1.y), Double($1.z)) } / Double(accel.count)
        XCTAssertEqual((mean * mean).sum().squareRoot(), 9.84, accuracy: 0.05)
    }

    func testErrorsNameFileAndLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("talos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("bad.txt").path
        try "1288708916885 ACCEL 169048982260000 1.5,4.8,8.3@@\n1288708916915 ACCEL 169049012351000 1.5,oops,8.3@@\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try TalosLogReader(path: path)) { error in
            let e = error as? TalosLogError
            XCTAssertEqual(e?.line, 2)
            XCTAssertEqual(e?.path, path)
            XCTAssertTrue("\(error)".contains("bad.txt:2:"), "\(error)")
        }
        try "1288708916885 ACCEL 169048982260000 1.5,4.8,8.3\n".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try TalosLogReader(path: path)) { XCTAssertEqual(($0 as? TalosLogError)?.line, 1) }
        XCTAssertThrowsError(try TalosLogReader(path: dir.appendingPathComponent("missing.txt").path))
    }
}
