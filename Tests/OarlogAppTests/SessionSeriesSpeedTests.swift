import Foundation
import OarlogAPI
import OarlogCore
import OarlogDSP
import OarlogPipeline
import OarlogSession
import XCTest
@testable import OarlogApp

/// The session page's series from the boat's fused speed a session stores: `boat_speed` is each
/// bucket's slowest, fastest and mean sample, and each stroke's `speed` and `split` stay its own
/// stored split (the analyzer's, one rule with the stroke list and the exports); a session
/// without the fused speed keeps its strokes' splits and has an empty `boat_speed`.
final class SessionSeriesSpeedTests: XCTestCase {
    var directory = ""
    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "oarlog-series-speed-\(getpid())-\(UInt64.random(in: 0..<UInt64.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    /// 20 strokes of 2.5 s (drive 0.8 s) from t = 1 s, each with a GPS split of 130 s; the fused
    /// speed every 0.1 s from 0.05 to 59.95 s (never on a stroke's or a bucket's edge), 4 m/s +
    /// 0.6 sin within each stroke + 0.01 m/s per stroke.
    static let strokes: [StrokeMetrics] = (0..<20).map { k in
        StrokeMetrics(stroke: StrokeEvent(index: k + 1, catchTime: 1 + 2.5 * Double(k), driveDuration: 0.8,
                                          recoveryDuration: k == 19 ? nil : 1.7, peakAcceleration: 3, strokeRate: 24),
                      smoothedRate: 24, split: 130, distancePerStroke: 9.6, distance: 9.6 * Double(k))
    }
    static let speeds: [BoatSpeedSample] = (0..<600).map { i in
        let t = 0.05 + Double(i) * 0.1
        let phase = (t - 1).truncatingRemainder(dividingBy: 2.5) / 2.5
        return BoatSpeedSample(time: t, speed: 4 + 0.6 * sin(2 * .pi * phase) + 0.01 * ((t - 1) / 2.5).rounded(.down))
    }

    func session(withSpeeds: Bool) throws -> SessionReader {
        let path = directory + "/\(withSpeeds).oarlog"
        let metadata = SessionMetadata(title: "Speed", startUTC: 1_777_705_200, monotonicOrigin: 0, devices: [],
                                       accelerometerRate: 100, gpsRate: 1, softwareVersion: "test", settings: [])
        let writer = try SessionWriter(path: path, metadata: metadata, options: SessionWriter.Options(durability: .never))
        var pending = Self.strokes[...]
        for s in Self.speeds {
            try writer.receive(.record(.note(Note(time: s.time, text: ""))))
            if withSpeeds { try writer.receive(.analysis(.speed(s))) }
            while let m = pending.first, m.stroke.catchTime + 2.5 <= s.time {
                try writer.receive(.analysis(.stroke(m)))
                pending.removeFirst()
            }
        }
        for m in pending { try writer.receive(.analysis(.stroke(m))) }
        try writer.close(summary: nil)
        return try SessionReader(path: path)
    }

    func answer(_ reader: SessionReader, fields: String, points: Int) throws -> [String: Any] {
        let request = try SeriesRequest(fields: fields, points: "\(points)")
        var series = SessionSeries(strokes: try reader.strokes(), duration: 60)
        try series.readSpeeds(reader, request)
        let json = series.json(request)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    func testStrokeSpeedsAndSplitsAreTheStrokesOwnWithTheFusedSpeedStored() throws {
        // One bucket per stroke: 24 buckets of 2.5 s, stroke k's catch in bucket k (1 + 2.5 k).
        // The stored samples (4 m/s and more, 125 s/500 m at most) are not worked into a second
        // per-stroke figure: each stroke's split is the one it was stored with (the analyzer's).
        let answer = try answer(try session(withSpeeds: true), fields: "speed,split,boat_speed", points: 24)
        let speed = try XCTUnwrap((answer["speed_mps"] as? [String: Any])?["mean"] as? [Any])
        let split = try XCTUnwrap((answer["split_s_per_500m"] as? [String: Any])?["mean"] as? [Any])
        for k in Self.strokes.indices {
            XCTAssertEqual(try XCTUnwrap(split[k] as? Double), 130, "stroke \(k + 1)")
            XCTAssertEqual(try XCTUnwrap(speed[k] as? Double), 500.0 / 130, accuracy: 0.005, "stroke \(k + 1)")  // 2 decimals
        }
        let boat = try XCTUnwrap(answer["boat_speed_mps"] as? [String: Any])
        XCTAssertEqual(boat["samples"] as? Int, Self.speeds.count, "the in-stroke speed is read")
    }

    func testBoatSpeedIsEachBucketsSlowestFastestAndMeanSample() throws {
        let answer = try answer(try session(withSpeeds: true), fields: "boat_speed", points: 6)
        let boat = try XCTUnwrap(answer["boat_speed_mps"] as? [String: Any])
        XCTAssertEqual(boat["samples"] as? Int, Self.speeds.count)
        let low = try XCTUnwrap(boat["min"] as? [Double]), high = try XCTUnwrap(boat["max"] as? [Double])
        let mean = try XCTUnwrap(boat["mean"] as? [Double])
        // Buckets of 10 s (60 s / 6).
        for b in 0..<6 {
            let inBucket = Self.speeds.filter { min(5, Int($0.time / 10)) == b }.map(\.speed)
            XCTAssertEqual(low[b], inBucket.min()!, accuracy: 0.0005 + 0.0005, "bucket \(b)")
            XCTAssertEqual(high[b], inBucket.max()!, accuracy: 0.0005 + 0.0005, "bucket \(b)")
            XCTAssertEqual(mean[b], inBucket.reduce(0, +) / Double(inBucket.count), accuracy: 0.0005 + 0.0005, "bucket \(b)")
            XCTAssertGreaterThan(high[b] - low[b], 1.1, "the swing within the strokes is kept")
        }
    }

    func testASessionWithoutTheFusedSpeedKeepsItsStrokesSplits() throws {
        let answer = try answer(try session(withSpeeds: false), fields: "split,boat_speed", points: 24)
        let split = try XCTUnwrap((answer["split_s_per_500m"] as? [String: Any])?["mean"] as? [Any])
        XCTAssertEqual(split.prefix(20).compactMap { $0 as? Double }, [Double](repeating: 130, count: 20))
        let boat = try XCTUnwrap(answer["boat_speed_mps"] as? [String: Any])
        XCTAssertEqual(boat["samples"] as? Int, 0)
        XCTAssertEqual((boat["mean"] as? [Any])?.count, 24)
        XCTAssertTrue((boat["mean"] as? [Any])?.allSatisfy { $0 is NSNull } ?? false)
    }
}
