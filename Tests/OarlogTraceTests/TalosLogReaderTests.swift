import XCTest
import Foundation
import OarlogCore
import OarlogTrace
import OarlogTestSupport

/// The Talos reader on a small log in the Talos format written for Oarlog (the real Talos
/// recording is GPL and stays outside the project: `oarlog evaluate --data DIR` checks it).
/// The fixture has the app's three clocks: wall ms (first field), sensor ns (ACCEL, ROWING_*)
/// and GPS UTC ms; its sensor-to-wall offset is exactly 1699995000.010 s on every ACCEL row.
final class TalosLogReaderTests: XCTestCase {
    private func records() throws -> [TraceRecord] {
        var reader = try TalosLogReader(path: TestPaths.fixture("talos-synthetic.txt"))
        var out: [TraceRecord] = []
        while let r = try reader.next() { out.append(r) }
        return out
    }

    func testCountsTimelineAndValues() throws {
        let all = try records()
        var accel: [AccelSample] = [], fixes: [GPSFix] = [], refs: [ReferenceStroke] = [], notes: [Note] = []
        var metadata: [String: String] = [:]
        for r in all {
            switch r {
            case .accel(let s): accel.append(s)
            case .fix(let f): fixes.append(f)
            case .reference(let x): refs.append(x)
            case .note(let n): notes.append(n)
            case .metadata(let k, let v): metadata[k] = v
            default: break
            }
        }
        XCTAssertEqual(accel.count, 4)
        XCTAssertEqual(fixes.count, 2)
        XCTAssertEqual(refs.map { $0.strokeCount ?? 0 }, [1, 2])
        XCTAssertEqual(notes.count, 2)
        // Time order, t = 0 at the first ACCEL (sensor 5000 s); sensor spacing kept.
        let times = all.compactMap(\.time)
        XCTAssertEqual(times.first, 0)
        XCTAssertEqual(zip(times, times.dropFirst()).filter { $0 > $1 }.count, 0, "records in time order")
        for (sample, expected) in zip(accel, [0, 0.033, 0.065, 0.8]) { XCTAssertEqual(sample.time, expected, accuracy: 1e-6) }
        XCTAssertEqual(accel[1].x, 0.5); XCTAssertEqual(accel[1].y, -0.25); XCTAssertEqual(accel[1].z, 9.8125)
        XCTAssertEqual(refs[0].time, 0.79, accuracy: 1e-6)
        XCTAssertEqual(refs[1].time, 1.99, accuracy: 1e-6)
        // GPS rows have no sensor stamp: placed at their wall time (received) through the offset.
        XCTAssertEqual(fixes[0].time, 0.390, accuracy: 1e-6)
        XCTAssertEqual(fixes[1].time, 1.390, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(fixes[0].utc), 1_700_000_100, accuracy: 1e-6)
        XCTAssertEqual(fixes[1].latitude, 52.375); XCTAssertEqual(fixes[1].longitude, 4.8755)
        XCTAssertEqual(fixes[1].altitude, 2); XCTAssertEqual(fixes[1].speed, 3.75); XCTAssertEqual(fixes[1].course, 91.5)
        XCTAssertEqual(fixes[1].horizontalAccuracy, 3)
        // start_utc: the wall clock of the first sample, 1700000000.010 s.
        let start = try XCTUnwrap(metadata["start_utc"])
        XCTAssertTrue(start.hasPrefix("2023-11-14T22:13:20.01"), start)
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
