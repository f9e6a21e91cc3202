import Foundation
import XCTest
import OarlogCore
import OarlogDSP
import OarlogExport
import OarlogPipeline
import OarlogSimulator
import OarlogTestSupport

/// The rowing figures FIT has no field for travel as developer fields, and heart rate and power
/// in the record's own fields: a simulated two minutes with a heart-rate strap (one sample a
/// second) and an oarlock's power (one figure a stroke) beside it, read back with Garmin's FIT
/// SDK and compared with what was put in and with the pipeline's own strokes.
final class FITRowingFieldsTests: XCTestCase {
    /// The strap's heart rate at `t`: rises a beat every 4 s from 120.
    static func heartRate(_ t: Double) -> Double { 120 + (t / 4).rounded(.down) }
    /// The oarlock's power at a stroke at `t`: 180 W rising 1 W a second.
    static func power(_ t: Double) -> Double { 180 + t.rounded(.down) }

    func session() throws -> ExportRun {
        var configuration = SimulationConfiguration(duration: 120, profile: SimulationProfile(
            name: "steady", segments: [.rowing(120, rate: 24, power: 0.9)], flyingStart: true))
        configuration.seed = 11
        var simulator = try BoatSimulator(configuration: configuration)
        var records: [TraceRecord] = []
        var nextBeat = 0.0, nextStroke = 0.25
        while let r = try simulator.next() {
            if let t = r.time {
                while nextBeat <= t { records.append(.heartRate(HeartRateSample(time: nextBeat, bpm: Self.heartRate(nextBeat)))); nextBeat += 1 }
                while nextStroke <= t { records.append(.reference(ReferenceStroke(time: nextStroke, power: Self.power(nextStroke)))); nextStroke += 2.5 }
            }
            records.append(r)
        }
        var source = ListSource(records)
        return try ExportRun.make(&source, in: try temporaryDirectory(self))
    }

    func testTheSDKReadsTheRowingFieldsHeartRateAndPower() throws {
        try XCTSkipUnless((try? OarlogExportTests.run(["python3", "-c", "import garmin_fit_sdk"]))?.status == 0, "Garmin's FIT SDK for Python is not installed")
        let run = try session()
        let decoded = try decodeFIT(run.fit)
        XCTAssertEqual((decoded["errors"] as? [Any])?.count, 0, "decoder errors: \(decoded["errors"] ?? "")")

        // The developer data and its fields, by name, type, scale and units.
        let developer = messages(decoded, "developer_data_id")
        XCTAssertEqual(developer.count, 1)
        XCTAssertEqual(developer.first?["application_id"] as? [Int], Array("oarlog-rowing-v1".utf8).map(Int.init))
        let descriptions = messages(decoded, "field_description")
        let names = descriptions.compactMap { $0.string("field_name") }
        XCTAssertEqual(names, ["StrokeDistance", "DriveTime", "StrokeRecoveryTime", "AverageBoatSpeed", "DriveRecoveryRatio", "Check", "SpeedSwing"])
        XCTAssertEqual(descriptions.first { $0.string("field_name") == "DriveTime" }?.string("units"), "ms")
        XCTAssertEqual(descriptions.first { $0.string("field_name") == "StrokeDistance" }?.double("scale"), 100)

        let records = messages(decoded, "record")
        XCTAssertGreaterThan(records.count, 100)
        let fixes = run.recorder.fixes
        XCTAssertEqual(records.count, fixes.count, "a record per fix")
        var rowing = 0
        for (record, fix) in zip(records, fixes) {
            // Heart rate: the strap's latest sample (1 Hz, so at most 1 s old).
            let hr = try XCTUnwrap(record.double("heart_rate"), "heart rate at \(fix.time)")
            XCTAssertEqual(hr, Self.heartRate(fix.time.rounded(.down)), accuracy: 1, "heart rate at \(fix.time) s")
            // Power: the oarlock's latest stroke (every 2.5 s from 0.25 s).
            let lastStroke = ((fix.time - 0.25) / 2.5).rounded(.down) * 2.5 + 0.25
            if fix.time >= 0.25 {
                XCTAssertEqual(try XCTUnwrap(record.double("power")), Self.power(lastStroke).rounded(), accuracy: 0.5, "power at \(fix.time) s")
            }
            // The rowing fields: those of the pipeline's stroke under way at this fix.
            // The SDK gives a developer field's invalid value (0xFFFF) as it is: no stroke under way.
            guard let fields = record["developer_fields"] as? [String: Any], let drive = (fields["1"] as? NSNumber)?.doubleValue,
                  drive != 65535 else { continue }
            let stroke = try XCTUnwrap(run.recorder.strokes.last { $0.stroke.catchTime <= fix.time }, "a stroke before \(fix.time) s")
            XCTAssertEqual(drive, (stroke.stroke.driveDuration * 1000).rounded(), "DriveTime at \(fix.time) s")
            if let dps = stroke.distancePerStroke {
                XCTAssertEqual(try XCTUnwrap((fields["0"] as? NSNumber)?.doubleValue) / 100, dps, accuracy: 0.006, "StrokeDistance at \(fix.time) s")
            }
            if let check = stroke.quality?.check {
                XCTAssertEqual(try XCTUnwrap((fields["5"] as? NSNumber)?.doubleValue) / 100, Double(check), accuracy: 0.006, "Check at \(fix.time) s")
            }
            if let speed = stroke.quality?.meanSpeed {
                XCTAssertEqual(try XCTUnwrap((fields["3"] as? NSNumber)?.doubleValue) / 100, speed, accuracy: 0.006, "AverageBoatSpeed at \(fix.time) s")
            }
            rowing += 1
        }
        // Rowing from the first stroke to the end: nearly every record carries a stroke.
        XCTAssertGreaterThan(Double(rowing), 0.9 * Double(records.count), "records with the stroke's figures")
    }
}
