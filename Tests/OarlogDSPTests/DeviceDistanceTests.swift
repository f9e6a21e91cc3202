import XCTest
import OarlogCore
@testable import OarlogDSP

/// A trace with a device's own distances and no positions (a SpeedCoach by impeller, CoxMate):
/// the device's distance is the session's, strokes are joined to it, and the GPS takes over as
/// soon as it gives fixes. Heart rate and power reach the summary.
final class DeviceDistanceTests: XCTestCase {
    /// 60 strokes at 24 spm (2.5 s), 10 m each, a 60 s pause after stroke 30 (the device keeps
    /// its distance), heart rate rising 120…179 once a stroke, power 200…259 W.
    private func run(_ extra: [TraceRecord] = []) -> (RowingAnalyzer, [StrokeMetrics]) {
        var analyzer = RowingAnalyzer()
        var strokes: [StrokeMetrics] = []
        var records: [TraceRecord] = []
        for k in 0..<60 {
            let t = Double(k) * 2.5 + (k >= 30 ? 60 : 0)
            records.append(.reference(ReferenceStroke(time: t, distance: Double(k) * 10, strokeCount: k + 1, power: Double(200 + k))))
            records.append(.heartRate(HeartRateSample(time: t + 0.1, bpm: Double(120 + k))))
        }
        records += extra
        records.sort { ($0.time ?? 0) < ($1.time ?? 0) }
        for r in records { analyzer.process(r) { if case .stroke(let m) = $0 { strokes.append(m) } } }
        analyzer.finish { if case .stroke(let m) = $0 { strokes.append(m) } }
        return (analyzer, strokes)
    }

    func testTheDevicesDistanceIsTheSessionsWithoutFixes() throws {
        let (analyzer, strokes) = run()
        let s = analyzer.summary
        XCTAssertEqual(try XCTUnwrap(s.distance), 590, accuracy: 1e-9)
        XCTAssertEqual(s.strokes, 60)
        // Moving: 29 + 29 steps of 2.5 s at 4 m/s; the 62.5 s step over the pause is not.
        XCTAssertEqual(try XCTUnwrap(s.movingTime), 58 * 2.5, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(s.averageSplit), 58 * 2.5 / 590 * 500, accuracy: 1e-6)
        // Strokes carry the device's distance per stroke and a split from it (10 m in 2.5 s = 2:05).
        let joined = strokes.filter { $0.distancePerStroke != nil }
        XCTAssertGreaterThan(joined.count, 50)
        for m in joined where m.stroke.index != 30 {
            XCTAssertEqual(try XCTUnwrap(m.distancePerStroke), 10, accuracy: 1e-9)
            XCTAssertEqual(try XCTUnwrap(m.split), 125, accuracy: 1e-6)
        }
        XCTAssertEqual(try XCTUnwrap(s.averageHeartRate), (120.0 + 179) / 2, accuracy: 1e-9)
        XCTAssertEqual(s.maxHeartRate, 179)
        XCTAssertEqual(try XCTUnwrap(s.averagePower), (200.0 + 259) / 2, accuracy: 1e-9)
    }

    func testFixesTakeOverFromTheDevice() throws {
        // A straight line north at 4 m/s, one fix a second over the first 60 s.
        var fixes: [TraceRecord] = []
        for k in 0...60 {
            let north = Double(k) * 4
            fixes.append(.fix(GPSFix(time: Double(k), latitude: 51 + north / 111_195, longitude: -0.2, speed: 4)))
        }
        let (analyzer, _) = run(fixes)
        // The GPS's 240 m, not the device's 590 m.
        XCTAssertEqual(try XCTUnwrap(analyzer.summary.distance), 240, accuracy: 8)
    }

    func testTheDeviceKeepsItsDistanceWhenTheTraceSaysSo() throws {
        // An impeller's distance (through the water) is the session's even with GPS positions.
        var fixes: [TraceRecord] = [.metadata(key: "distance_source", value: "device")]
        for k in 0...60 {
            fixes.append(.fix(GPSFix(time: Double(k), latitude: 51 + Double(k) * 4 / 111_195, longitude: -0.2, speed: 4)))
        }
        let (analyzer, _) = run(fixes)
        XCTAssertTrue(analyzer.prefersDeviceDistance)
        XCTAssertEqual(try XCTUnwrap(analyzer.summary.distance), 590, accuracy: 1e-9)
    }
}
