import OarlogCore
import OarlogDSP
@testable import OarlogSession
import XCTest

/// The stroke quality in the session file (minor version 1): appended to the stroke record only
/// when a stroke has one, so a stroke without it is byte for byte as before, an older reader
/// (which ignores bytes after the fields it knows) reads the same stroke, and a newer reader
/// reads no quality from an older record.
final class StrokeQualityCodingTests: XCTestCase {
    let plain = StrokeMetrics(stroke: StrokeEvent(index: 7, catchTime: 12.5, driveDuration: 0.82, recoveryDuration: 1.61,
                                                  peakAcceleration: 3.25, strokeRate: 24.6),
                              smoothedRate: 24.4, split: 118.3, distancePerStroke: 10.1, distance: 640.2)

    func encoded(_ m: StrokeMetrics) -> [UInt8] {
        var w = ByteWriter()
        RecordCoding.encodeStroke(m, into: &w)
        return w.bytes
    }

    func decoded(_ bytes: [UInt8]) throws -> StrokeMetrics {
        try bytes.withUnsafeBytes { b in
            var r = ByteReader(b)
            return try RecordCoding.decodeStroke(&r)
        }
    }

    func testQualityRoundTripsAndAStrokeWithoutOneIsAsBefore() throws {
        var anchored = plain
        anchored.quality = StrokeQuality(check: 4.375, peakDriveAcceleration: 3.0625, meanDriveAcceleration: 1.1,
                                         speedBelowMean: 0.55, speedAboveMean: 0.4375, meanSpeed: 4.21)
        var unanchored = anchored
        unanchored.quality?.meanSpeed = nil
        for m in [plain, anchored, unanchored] { XCTAssertEqual(try decoded(encoded(m)), m) }

        // Without a quality: nothing appended (minor version 0's bytes); with one, those bytes
        // first, the quality after them.
        let before = encoded(plain), after = encoded(anchored)
        XCTAssertEqual(Array(after.prefix(before.count)), before)
        XCTAssertEqual(after.count - before.count, 1 + 3 * 4 + 3 * 8)
        XCTAssertEqual(encoded(unanchored).count - before.count, 1 + 3 * 4 + 2 * 8)
        // An older reader stops after the fields it knows: the same stroke, no quality.
        XCTAssertEqual(try decoded(before), plain)
    }

    func testWriterAndReaderKeepTheQualityAndTheSummaryItsMeans() throws {
        let directory = NSTemporaryDirectory() + "oarlog-quality-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var strokes: [StrokeMetrics] = []
        for i in 0..<4 {
            var m = plain
            m.stroke.index = i + 1
            m.stroke.catchTime = 10 + 2.5 * Double(i)
            if i > 0 {
                m.quality = StrokeQuality(check: Float(4 + i), peakDriveAcceleration: 3, meanDriveAcceleration: 1,
                                          speedBelowMean: 0.5, speedAboveMean: 0.5, meanSpeed: i == 3 ? nil : 4)
            }
            strokes.append(m)
        }
        let path = directory + "/q.oarlog"
        let writer = try SessionWriter(path: path, metadata: SessionMetadata(title: "quality", startUTC: 1_780_000_000), options: .init(durability: .never))
        var totals = SummaryAccumulator()
        for m in strokes {
            try writer.append(m)
            totals.add(m)
        }
        let summary = totals.summary(distance: nil, movingTime: nil, rejectedFixes: 0, reanchors: 0, gpsGaps: 0, accelerometerGaps: 0)
        XCTAssertEqual(Double(summary.averageCheck ?? 0), 6, accuracy: 1e-6)              // (5 + 6 + 7) / 3
        XCTAssertEqual(summary.averageSpeedFluctuation ?? 0, 1, accuracy: 1e-12)
        XCTAssertEqual(summary.averageSpeedFluctuationPercent ?? 0, 25, accuracy: 1e-9)    // the two anchored
        XCTAssertEqual(summary.averageDriveRecoveryRatio ?? 0, 0.82 / 1.61, accuracy: 1e-12)
        try writer.close(summary: summary)
        let reader = try SessionReader(path: path)
        XCTAssertGreaterThanOrEqual(reader.minorVersion, 1, "written by a version with the quality fields")
        XCTAssertEqual(try reader.strokes(), strokes)
        XCTAssertEqual(reader.summary?.analysis, summary)
    }
}
