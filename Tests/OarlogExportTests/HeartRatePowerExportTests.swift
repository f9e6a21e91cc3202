import Foundation
import XCTest
import OarlogCore
import OarlogDSP
import OarlogExport
import OarlogTrace
import OarlogTestSupport

/// Heart rate and power in the FIT, TCX and GPX exports, against the values put into the trace
/// (`HeartRatePowerSession`): a strap sample every second (with a 12 s gap) and a device's stroke
/// with its power every 2.5 s while rowing.
final class HeartRatePowerExportTests: XCTestCase {
    typealias S = HeartRatePowerSession

    /// The device's power at a stroke at `t`: 180 W rising 1 W a second.
    static func power(_ t: Double) -> Double { 180 + t.rounded(.down) }
    static let strokeTimes = stride(from: 0.25, to: S.duration, by: 2.5).filter(S.rowing)

    /// The device's latest power at or before `t`, at most 10 s old (what a point carries).
    static func power(at t: Double) -> Double? {
        guard let s = strokeTimes.last(where: { $0 <= t }), t - s <= 10 else { return nil }
        return power(s)
    }

    func session() throws -> ExportRun {
        try S.export(self, extra: Self.strokeTimes.map { .reference(ReferenceStroke(time: $0, power: Self.power($0))) })
    }

    func testFITRecordsLapsAndSessionCarryHeartRateAndPower() throws {
        try XCTSkipUnless((try? OarlogExportTests.run(["python3", "-c", "import garmin_fit_sdk"]))?.status == 0, "Garmin's FIT SDK for Python is not installed")
        let run = try session()
        let decoded = try decodeFIT(run.fit)
        XCTAssertEqual(decoded["integrity"] as? Bool, true)
        XCTAssertEqual((decoded["errors"] as? [Any])?.count, 0, "decoder errors: \(decoded["errors"] ?? "")")

        // Records: the strap's latest sample within 5 s (none in the gap), the device's power within 10 s.
        let records = messages(decoded, "record")
        XCTAssertEqual(records.count, run.recorder.fixes.count)
        var withoutHeartRate = 0
        for (record, fix) in zip(records, run.recorder.fixes) {
            let expected = S.heartRate(at: fix.time)
            XCTAssertEqual(record.double("heart_rate"), expected, "heart rate at \(fix.time) s")
            if expected == nil { withoutHeartRate += 1 }
            XCTAssertEqual(record.double("power"), Self.power(at: fix.time)?.rounded(), "power at \(fix.time) s")
        }
        XCTAssertGreaterThanOrEqual(withoutHeartRate, 5, "the gap leaves points without a heart rate")

        // Session: the mean and maximum of every sample and of every stroke's power.
        let beats = S.heartRateTimes.map { S.heartRate($0) }, watts = Self.strokeTimes.map { Self.power($0) }
        let session = try XCTUnwrap(messages(decoded, "session").first)
        XCTAssertEqual(try XCTUnwrap(session.double("avg_heart_rate")), S.mean(beats), accuracy: 1)
        XCTAssertEqual(session.double("max_heart_rate"), beats.max())
        XCTAssertEqual(try XCTUnwrap(session.double("avg_power")), S.mean(watts), accuracy: 1)
        XCTAssertEqual(session.double("max_power"), watts.max())

        // Laps: the samples and strokes from each lap's start to the next lap's.
        let laps = messages(decoded, "lap")
        XCTAssertEqual(laps.count, 2, "two pieces, two laps")
        let boundary = try S.secondLapStart(run.recorder.strokes)
        for (i, lap) in laps.enumerated() {
            let inLap: (Double) -> Bool = { i == 0 ? $0 < boundary : $0 >= boundary }
            let b = S.heartRateTimes.filter(inLap).map { S.heartRate($0) }
            let w = Self.strokeTimes.filter(inLap).map { Self.power($0) }
            XCTAssertEqual(try XCTUnwrap(lap.double("avg_heart_rate")), S.mean(b), accuracy: 1, "lap \(i + 1)")
            XCTAssertEqual(lap.double("max_heart_rate"), b.max(), "lap \(i + 1)")
            XCTAssertEqual(try XCTUnwrap(lap.double("avg_power")), S.mean(w), accuracy: 1, "lap \(i + 1)")
            XCTAssertEqual(lap.double("max_power"), w.max(), "lap \(i + 1)")
        }
        print("HR/power FIT: session HR \(session.double("avg_heart_rate") ?? -1)/\(session.double("max_heart_rate") ?? -1) truth \(S.mean(beats))/\(beats.max() ?? -1); power \(session.double("avg_power") ?? -1)/\(session.double("max_power") ?? -1) truth \(S.mean(watts))/\(watts.max() ?? -1); lap 2 from \(boundary) s")
    }

    func testTCXAndGPXCarryHeartRateAndStayValid() throws {
        let run = try session()
        try assertSchemaValid(run.tcx, schema: "TrainingCenterDatabasev2.xsd")
        try assertSchemaValid(run.gpx, schema: "gpx-1.1.xsd")
        let fixes = run.recorder.fixes
        let truth = fixes.map { S.heartRate(at: $0.time) }
        XCTAssertTrue(truth.contains(nil) && truth.contains { $0 != nil }, "points with and without a heart rate")

        let tcx = try String(contentsOfFile: run.tcx, encoding: .utf8)
        XCTAssertEqual(values(of: "<HeartRateBpm><Value>", "</Value>", per: "<Trackpoint>", until: "</Trackpoint>", in: tcx), truth)
        XCTAssertEqual(values(of: "<ns3:Watts>", "</ns3:Watts>", per: "<Trackpoint>", until: "</Trackpoint>", in: tcx),
                       fixes.map { Self.power(at: $0.time)?.rounded() })
        let boundary = try S.secondLapStart(run.recorder.strokes)
        let lapBeats = [S.heartRateTimes.filter { $0 < boundary }, S.heartRateTimes.filter { $0 >= boundary }]
            .map { $0.map { S.heartRate($0) } }
        let averages = values(of: "<AverageHeartRateBpm><Value>", "</Value>", per: "<Lap ", until: "<Track>", in: tcx)
        let maxima = values(of: "<MaximumHeartRateBpm><Value>", "</Value>", per: "<Lap ", until: "<Track>", in: tcx)
        XCTAssertEqual(averages.count, 2)
        for (i, b) in lapBeats.enumerated() {
            XCTAssertEqual(try XCTUnwrap(averages[i]), S.mean(b), accuracy: 0.5, "lap \(i + 1) average (whole bpm)")
            XCTAssertEqual(maxima[i], b.max(), "lap \(i + 1) maximum")
        }

        let gpx = try String(contentsOfFile: run.gpx, encoding: .utf8)
        XCTAssertEqual(values(of: "<gpxtpx:hr>", "</gpxtpx:hr>", per: "<trkpt ", until: "</trkpt>", in: gpx), truth)

        // Oarlog's own GPX reader reads the heart rates back: one per point that has one.
        var source = try TraceOpener.open(path: run.gpx)
        var read: [Double] = []
        while let r = try source.next() { if case .heartRate(let h) = r { read.append(h.bpm) } }
        XCTAssertEqual(read, truth.compactMap { $0 })
    }
}
