import XCTest
import Foundation
import OarlogCore
import OarlogTrace
import OarlogTestSupport

final class QuiskeCurveReaderTests: XCTestCase {
    private func path() throws -> String { try TestPaths.sample("rowingdata/quiske_per_stroke_seat.csv") }

    func testRowsUnitsAndBoundaries() throws {
        let reader = try QuiskeCurveReader(path: try path())
        // 55 stroke rows (57 lines minus the two header lines).
        XCTAssertEqual(reader.strokes.count, 55)
        let first = reader.strokes[0]
        XCTAssertEqual(first.time, 0)
        XCTAssertEqual(first.strokeRate, 20)
        XCTAssertEqual(first.speed, 0.993333333333333, accuracy: 1e-12)
        XCTAssertEqual(first.acceleration.count, 304)
        // In g in the file: -0.122276801843432 → m/s².
        XCTAssertEqual(first.acceleration[0], Float(-0.122276801843432) * standardGravity, accuracy: 1e-6)
        // Row 2 starts 3.03902 s after row 1 (timestamps 1495347480.21874, 1495347483.25776).
        XCTAssertEqual(reader.strokes[1].time, 3.039, accuracy: 0.001)
        XCTAssertEqual(first.duration, reader.strokes[1].time, accuracy: 1e-9)
        // About 100 Hz everywhere.
        for s in reader.strokes.dropLast() {
            XCTAssertEqual(Double(s.acceleration.count) / s.duration, 100, accuracy: 0.5)
        }
        // The units: integrating a steady stroke's curve (mean removed) gives the intra-stroke
        // speed swing; in g → m/s² it is 1.2–1.6 m/s, as a single scull at ~3.2 m/s shows.
        for s in reader.strokes[5..<50] {
            let dt = s.duration / Double(s.acceleration.count)
            let mean = s.acceleration.reduce(0, +) / Float(s.acceleration.count)
            var v = 0.0, lo = 0.0, hi = 0.0
            for a in s.acceleration { v += Double(a - mean) * dt; lo = min(lo, v); hi = max(hi, v) }
            XCTAssert(hi - lo > 1.0 && hi - lo < 1.8, "swing \(hi - lo) m/s at \(s.time)")
        }
        // Each curve starts and ends in the catch dip: the minimum is within 2 samples of an end.
        for s in reader.strokes {
            let i = s.acceleration.indices.min { s.acceleration[$0] < s.acceleration[$1] }!
            XCTAssert(i <= 2 || i >= s.acceleration.count - 3, "minimum at sample \(i) of \(s.acceleration.count)")
        }
    }

    func testChainedRecords() throws {
        var reader = try QuiskeCurveReader(path: try path())
        var accel = 0, refs: [ReferenceStroke] = [], lastTime = -1.0, start: String? = nil
        while let r = try reader.next() {
            switch r {
            case .accel(let s):
                XCTAssertGreaterThan(s.time, lastTime); lastTime = s.time; accel += 1
                XCTAssertEqual(s.z, standardGravity); XCTAssertEqual(s.y, 0)
            case .reference(let x): refs.append(x)
            case .metadata(let k, let v): if k == "start_utc" { start = v }
            default: break
            }
        }
        let expected = try QuiskeCurveReader(path: try path()).strokes
        XCTAssertEqual(accel, expected.reduce(0) { $0 + $1.acceleration.count })
        XCTAssertEqual(refs.count, 55)
        XCTAssertEqual(refs.map(\.time), expected.map(\.time))
        XCTAssertEqual(refs[3].strokeRate, 24)
        XCTAssertEqual(refs[3].strokeCount, 4)
        // 1495347480.21874 s = 2017-05-21T06:18:00.219Z.
        XCTAssertEqual(start, "2017-05-21T06:18:00.219Z")
    }

    func testResampling() throws {
        let native = try QuiskeCurveReader(path: try path())
        for rate in [25.0, 500.0] {
            var reader = try QuiskeCurveReader(path: try path(), sampleRate: rate)
            var samples: [AccelSample] = []
            var refs = 0
            while let r = try reader.next() {
                if case .accel(let s) = r { samples.append(s) }
                if case .reference = r { refs += 1 }
            }
            XCTAssertEqual(refs, 55)
            XCTAssertEqual(Double(samples.count), native.duration * rate, accuracy: 2)
            XCTAssertEqual(samples[10].time, 10 / rate, accuracy: 1e-12)
            // Upsampled values follow the curve; downsampled ones are interval means (within
            // 0.5 m/s² of the curve at that time, the curve changing fast only at the catch).
            for s in samples.prefix(2000) {
                XCTAssertEqual(s.x, native.acceleration(at: s.time), accuracy: rate > 100 ? 0.05 : 0.5)
            }
        }
    }

    func testErrorsNameFileAndLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("quiske-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("bad.csv").path
        try "Quiske,x\ntimestamp(s),distance(m),SPM (strokes per minute),speed (m/s),boat accelerator curve\n1,2,20,3,\"0.1,0.2\"\n2,3,20,3,\"0.1,zz\"\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try QuiskeCurveReader(path: path)) { error in
            XCTAssertEqual((error as? QuiskeCurveError)?.line, 4)
            XCTAssertTrue("\(error)".contains("bad.csv:4:"), "\(error)")
        }
    }
}
