import OarlogAPI
import OarlogCore
import XCTest
@testable import OarlogApp

/// The records' series of the session page (`SessionRecordSeries`): heart rates per strap into
/// the strokes' buckets (at most 16 straps), the oarlock's power, angles and forces per stroke,
/// its power preferred to the device's strokes' — each bucket's min, max and mean as the values
/// put in, and the zones' floors of the rowers who have zones.
final class SessionSeriesRecordsTests: XCTestCase {
    private func decoded(_ series: SessionRecordSeries, _ fields: String, zones: HeartRateZoneTable = HeartRateZoneTable()) throws -> [String: Any] {
        let request = try SeriesRequest(fields: fields, points: "4")
        let json = SessionSeries(strokes: [], duration: 40).json(request, records: series, zones: zones)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    func testOarlockFiguresGoIntoTheirBuckets() throws {
        // Four buckets of 10 s; two strokes in the first, one in the third.
        var series = SessionRecordSeries(buckets: 4, width: 10)
        series.add(OarlockStroke(time: 2, seat: "7", power: 300, catchAngle: -58, finishAngle: 34, averageForce: 410, maxForce: 720))
        series.add(OarlockStroke(time: 6, seat: "7", power: 340, catchAngle: -60, finishAngle: 36, averageForce: 430, maxForce: 760))
        series.add(OarlockStroke(time: 25, seat: "7", power: 280, catchAngle: nil, finishAngle: 33))
        series.referencePower.add(999, bucket: 0)
        let answer = try decoded(series, "power,catch_angle,finish_angle,avg_force,max_force")
        XCTAssertEqual(answer["points"] as? Int, 4, "records without strokes still get the buckets")
        let power = try XCTUnwrap(answer["power_w"] as? [String: Any])
        XCTAssertEqual(power["source"] as? String, "oarlock", "the oarlock's power before the device's")
        XCTAssertEqual(power["samples"] as? Int, 3)
        XCTAssertEqual((power["mean"] as? [Any])?.compactMap { $0 as? Double }, [320, 280])
        XCTAssertEqual((power["min"] as? [Any])?.first as? Double, 300)
        XCTAssertEqual((power["max"] as? [Any])?.first as? Double, 340)
        XCTAssertTrue((power["mean"] as? [Any])?[1] is NSNull, "no stroke from 10 to 20 s")
        let catchAngle = try XCTUnwrap(answer["catch_angle_deg"] as? [String: Any])
        XCTAssertEqual(catchAngle["samples"] as? Int, 2)
        XCTAssertEqual((catchAngle["mean"] as? [Any])?.first as? Double, -59)
        XCTAssertTrue((catchAngle["mean"] as? [Any])?[2] is NSNull, "the third stroke gave no catch angle")
        XCTAssertEqual(((answer["finish_angle_deg"] as? [String: Any])?["mean"] as? [Any])?.compactMap { $0 as? Double }, [35, 33])
        XCTAssertEqual(((answer["avg_force_n"] as? [String: Any])?["mean"] as? [Any])?.first as? Double, 420)
        XCTAssertEqual(((answer["max_force_n"] as? [String: Any])?["max"] as? [Any])?.first as? Double, 760)
    }

    func testHeartRatesPerStrapWithTheirZones() throws {
        var series = SessionRecordSeries(buckets: 4, width: 10)
        for t in stride(from: 0.5, to: 40, by: 1) {
            series.add(HeartRateSample(time: t, bpm: 120 + t, sensor: "stroke"))
            series.add(HeartRateSample(time: t, bpm: 100, sensor: nil))
        }
        for k in 0..<20 { series.add(HeartRateSample(time: 1, bpm: 90, sensor: "extra \(k)")) }
        XCTAssertEqual(series.heartRates.count, SessionRecordSeries.maximumSensors)
        XCTAssertEqual(series.ignoredSensors, 2 + 20 - SessionRecordSeries.maximumSensors)
        let zones = HeartRateZoneTable([HeartRateZoneSetting(sensor: "Stroke", maxBPM: 200)])
        let answer = try decoded(series, "heart_rate", zones: zones)
        let lines = try XCTUnwrap(answer["heart_rate_bpm"] as? [[String: Any]])
        XCTAssertEqual(lines.count, SessionRecordSeries.maximumSensors)
        XCTAssertEqual(lines[0]["sensor"] as? String, "stroke")
        XCTAssertEqual(lines[0]["samples"] as? Int, 40)
        // Bucket 0 holds 0.5 … 9.5 s: 120.5 … 129.5, mean 125.
        XCTAssertEqual((lines[0]["mean"] as? [Double]), [125, 135, 145, 155])
        XCTAssertEqual((lines[0]["min"] as? [Double])?.first, 120.5)
        XCTAssertEqual(lines[0]["zone_floors_bpm"] as? [Double], [120, 140, 160, 180], "60–90 % of 200")
        XCTAssertTrue(lines[1]["sensor"] is NSNull, "the strap without a name")
        XCTAssertTrue(lines[1]["zone_floors_bpm"] is NSNull, "no zones, and no default")
    }
}
