import Foundation
import OarlogCore
import OarlogTrace
import XCTest

/// Writer → reader round trips: every record comes back equal, every float bit for bit.
final class TraceWriterTests: XCTestCase {
    func testRoundTripIsBitExact() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("roundtrip.csv")
        var rng = SeededGenerator(seed: 2024)
        func randomFloat() -> Float {
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: return Float(bitPattern: UInt32.random(in: 0..<0x7F80_0000, using: &rng)) * (Bool.random(using: &rng) ? 1 : -1)
            case 1: return [Float.leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, -0.0, 0, 1, -1,
                            standardGravity, 0.1][Int.random(in: 0..<9, using: &rng)]
            default: return Float.random(in: -40...40, using: &rng)
            }
        }
        func randomDouble(_ range: ClosedRange<Double>) -> Double {
            Bool.random(using: &rng) ? Double.random(in: range, using: &rng)
                : (Double(Int.random(in: Int(range.lowerBound * 1000)...Int(range.upperBound * 1000), using: &rng)) / 1000)
        }
        var records: [TraceRecord] = [.metadata(key: "oarlog-trace", value: "1"),
                                      .metadata(key: "start_utc", value: "2026-05-02T07:14:03.250Z"),
                                      .metadata(key: "title", value: "Round trip, \"quoted\" ö")]
        var t = 0.0
        for k in 0..<20000 {
            t += Double.random(in: 0...0.02, using: &rng)
            if k % 997 == 0 { t += 1e-9 }   // times with long expansions
            switch Int.random(in: 0..<40, using: &rng) {
            case 0:
                records.append(.fix(GPSFix(time: t, utc: Bool.random(using: &rng) ? 1.7e9 + t : nil,
                                           latitude: randomDouble(-90...90), longitude: randomDouble(-180...180),
                                           speed: Bool.random(using: &rng) ? randomDouble(0...8) : nil,
                                           course: Bool.random(using: &rng) ? randomDouble(0...360) : nil,
                                           horizontalAccuracy: Bool.random(using: &rng) ? randomDouble(0...50) : nil,
                                           altitude: Bool.random(using: &rng) ? randomDouble(-10...100) : nil)))
            case 1:
                records.append(.reference(ReferenceStroke(time: t, distance: randomDouble(0...20000),
                                                          split: Bool.random(using: &rng) ? randomDouble(80...300) : nil,
                                                          strokeRate: randomDouble(10...45), speed: nil,
                                                          strokeCount: Bool.random(using: &rng) ? k : nil,
                                                          distancePerStroke: Bool.random(using: &rng) ? randomDouble(5...12) : nil,
                                                          power: Bool.random(using: &rng) ? randomDouble(50...900) : nil)))
            case 4:
                let sensors: [String?] = [nil, "stroke", "bow", "7"]
                records.append(.heartRate(HeartRateSample(time: t, bpm: randomDouble(40...210),
                                                          sensor: sensors[Int.random(in: 0..<sensors.count, using: &rng)])))
            case 2:
                let texts = ["Push at the 500", "ten, \"hard\", now", "\"starts with a quote", "", " padded ", "naïve ½"]
                records.append(.note(Note(time: t, text: texts[Int.random(in: 0..<texts.count, using: &rng)])))
            case 3:
                records.append(.gap(Gap(sensor: Bool.random(using: &rng) ? .gps : .accelerometer, start: t,
                                        end: t + randomDouble(0...5), reason: "fifo overflow, 12 samples")))
            default:
                records.append(.accel(AccelSample(time: t, x: randomFloat(), y: randomFloat(), z: randomFloat())))
            }
        }
        records.append(.metadata(key: "end_note", value: "metadata after rows stays in place"))

        var writer = try TraceWriter(path: path, metadata: [("start_utc", "2026-05-02T07:14:03.250Z"),
                                                            ("title", "Round trip, \"quoted\" ö")])
        for r in records.dropFirst(3) { try writer.write(r) }
        try writer.close()

        // Floats over their whole range, beyond any accelerometer's (TraceLimits): the round trip
        // of the numbers, not the reading policy (which skips such rows).
        let (back, stats) = try readNative(path, checkingPlausibility: false)
        XCTAssertEqual(stats.totalSkipped, 0)
        XCTAssertEqual(back.count, records.count)
        XCTAssertEqual(back, records)
        // Equatable treats 0 and -0 alike: check the bits of every Float and Double.
        for (a, b) in zip(back, records) {
            switch (a, b) {
            case (.accel(let x), .accel(let y)):
                XCTAssertEqual([x.x.bitPattern, x.y.bitPattern, x.z.bitPattern], [y.x.bitPattern, y.y.bitPattern, y.z.bitPattern])
                XCTAssertEqual(x.time.bitPattern, y.time.bitPattern)
            case (.fix(let x), .fix(let y)):
                XCTAssertEqual(x.latitude.bitPattern, y.latitude.bitPattern)
                XCTAssertEqual(x.longitude.bitPattern, y.longitude.bitPattern)
                XCTAssertEqual(x.time.bitPattern, y.time.bitPattern)
            default: break
            }
        }
    }

    /// Line breaks in notes become spaces (a row is one line); NaN optional values become unknown.
    func testNoteLineBreaksAndUnknownValues() throws {
        let dir = TemporaryDirectory()
        let path = dir.path("w.csv")
        var writer = try TraceWriter(path: path, metadata: [])
        try writer.write(.note(Note(time: 1, text: "line one\nline two\r\n")))
        try writer.write(.fix(GPSFix(time: 2, latitude: 1, longitude: 2, speed: .nan, course: .infinity)))
        try writer.close()
        let (records, _) = try readNative(path)
        XCTAssertEqual(records, [.metadata(key: "oarlog-trace", value: "1"),
                                 .note(Note(time: 1, text: "line one line two  ")),
                                 .fix(GPSFix(time: 2, latitude: 1, longitude: 2))])
    }

    /// A metadata key the reader could not read back is refused.
    func testBadMetadataKeyIsRefused() {
        let dir = TemporaryDirectory()
        XCTAssertThrowsError(try TraceWriter(path: dir.path("k.csv"), metadata: [("two words", "x")]))
    }
}
