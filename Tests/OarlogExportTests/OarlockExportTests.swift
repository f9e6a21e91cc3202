import Foundation
import XCTest
import OarlogCore
import OarlogDSP
import OarlogExport
import OarlogTrace
import OarlogTestSupport

/// An instrumented oarlock's strokes (EmPower) in the exports: the per-stroke CSV's heart-rate,
/// power and oarlock columns, and the oarlock's power on the FIT records and session when no
/// device stroke gives one. The oarlock strokes are made for the analyzer's own strokes (a first
/// run without them finds the catches), 0.2 s after each catch, every fifth one missing.
final class OarlockExportTests: XCTestCase {
    typealias S = HeartRatePowerSession

    /// The oarlock's figures for the analyzer's stroke `i` at `catchTime` (nil: none for it).
    static func oarlock(_ i: Int, _ catchTime: Double) -> OarlockStroke? {
        guard i % 5 != 3 else { return nil }
        let k = Double(i)
        return OarlockStroke(time: catchTime + 0.2, seat: "1", power: 150 + k, catchAngle: -60 - k.truncatingRemainder(dividingBy: 5),
                             finishAngle: 40 + k.truncatingRemainder(dividingBy: 7), slip: 5 + k.truncatingRemainder(dividingBy: 3),
                             wash: 9, effectiveLength: 80 + k.truncatingRemainder(dividingBy: 4), averageForce: 250.5 + k,
                             maxForce: 500 + k, maxForceAngle: -20, work: 450.25 + k)
    }

    func testStrokeCSVHasHeartRatePowerAndTheOarlocksFigures() throws {
        let first = try S.export(self)
        let catches = first.recorder.strokes.map(\.stroke.catchTime)
        XCTAssertGreaterThan(catches.count, 40)
        let oarlocks = catches.enumerated().compactMap { Self.oarlock($0.offset, $0.element) }
        let run = try S.export(self, extra: oarlocks.map { .oarlock($0) })
        XCTAssertEqual(run.recorder.strokes.map(\.stroke.catchTime), catches, "the oarlock records leave the strokes as they were")

        let rows = parseCSV(try String(contentsOfFile: run.csv, encoding: .utf8))
        let header = try XCTUnwrap(rows.first)
        XCTAssertEqual(Array(header.prefix(23)), Array(StrokeCSVExporter.oarlogHeader.prefix(23)), "the columns before stay where they were")
        XCTAssertEqual(Array(header.suffix(11)), ["heart_rate_bpm", "power_w", "catch_angle_deg", "finish_angle_deg", "slip_deg", "wash_deg",
                                                  "effective_length_deg", "avg_force_n", "max_force_n", "max_force_angle_deg", "work_j"])
        XCTAssertEqual(rows.count - 1, catches.count)
        func column(_ name: String) throws -> Int { try XCTUnwrap(header.firstIndex(of: name), name) }
        let hr = try column("heart_rate_bpm"), power = try column("power_w")
        let angles = try ["catch_angle_deg", "finish_angle_deg", "slip_deg", "wash_deg", "effective_length_deg", "avg_force_n",
                          "max_force_n", "max_force_angle_deg", "work_j"].map(column)
        var emptyHeartRate = 0
        for (i, row) in rows.dropFirst().enumerated() {
            let t = catches[i]
            XCTAssertEqual(Double(row[hr]), S.heartRate(at: t), "heart rate of stroke \(i + 1) at \(t) s")
            if row[hr].isEmpty { emptyHeartRate += 1 }
            guard let o = Self.oarlock(i, t) else {
                XCTAssertEqual(row[power], "", "stroke \(i + 1) has no oarlock stroke within half a stroke")
                XCTAssertTrue(angles.allSatisfy { row[$0].isEmpty }, "stroke \(i + 1): no oarlock figures")
                continue
            }
            let truth = [o.catchAngle, o.finishAngle, o.slip, o.wash, o.effectiveLength, o.averageForce, o.maxForce, o.maxForceAngle, o.work]
            XCTAssertEqual(Double(row[power]), o.power, "power of stroke \(i + 1)")
            for (c, v) in zip(angles, truth) {
                XCTAssertEqual(try XCTUnwrap(Double(row[c]), "\(header[c]) of stroke \(i + 1)"), try XCTUnwrap(v), accuracy: 0.0501, "\(header[c]) of stroke \(i + 1)")
            }
        }
        XCTAssertGreaterThan(emptyHeartRate, 0, "strokes in the strap's gap have no heart rate")

        // rowingdata's own columns carry the heart rate, power and forces (lbf) too.
        let rd = parseCSV(try String(contentsOfFile: run.rowingdataCSV, encoding: .utf8))
        let h = try XCTUnwrap(rd.first)
        let rdPower = try XCTUnwrap(h.firstIndex(of: " Power (watts)")), rdForce = try XCTUnwrap(h.firstIndex(of: " PeakDriveForce (lbs)"))
        let rdHeart = try XCTUnwrap(h.firstIndex(of: " HRCur (bpm)"))
        for (i, row) in rd.dropFirst().enumerated() {
            let o = Self.oarlock(i, catches[i])
            XCTAssertEqual(try XCTUnwrap(Double(row[rdPower])), o?.power ?? 0, "rowingdata power of stroke \(i + 1)")
            XCTAssertEqual(try XCTUnwrap(Double(row[rdForce])), (o?.maxForce ?? 0) / 4.4482216152605, accuracy: 0.05)
            XCTAssertEqual(try XCTUnwrap(Double(row[rdHeart])), S.heartRate(at: catches[i]) ?? 0)
        }

        try assertOarlockPowerOnFIT(run, oarlocks: oarlocks)
    }

    /// Without a device's power the FIT records carry the oarlock's latest (within 10 s), and the
    /// session its mean and maximum.
    func assertOarlockPowerOnFIT(_ run: ExportRun, oarlocks: [OarlockStroke]) throws {
        guard (try? OarlogExportTests.run(["python3", "-c", "import garmin_fit_sdk"]))?.status == 0 else { return }
        let decoded = try decodeFIT(run.fit)
        let records = messages(decoded, "record")
        XCTAssertEqual(records.count, run.recorder.fixes.count)
        for (record, fix) in zip(records, run.recorder.fixes) {
            let latest = oarlocks.last { $0.time <= fix.time }.flatMap { fix.time - $0.time <= 10 ? $0.power : nil }
            XCTAssertEqual(record.double("power"), latest?.rounded(), "power at \(fix.time) s")
        }
        let watts = oarlocks.compactMap(\.power)
        let session = try XCTUnwrap(messages(decoded, "session").first)
        XCTAssertEqual(try XCTUnwrap(session.double("avg_power")), S.mean(watts), accuracy: 1)
        XCTAssertEqual(session.double("max_power"), watts.max())
    }

    /// NK's real logbook (heart rate in every row, max 170): the FIT session's heart rate is the
    /// rows' own. Needs the NK reader to emit its heart rates (issue 28's imports).
    func testNKLogbookSessionHeartRateIsTheRows() throws {
        try XCTSkipUnless((try? OarlogExportTests.run(["python3", "-c", "import garmin_fit_sdk"]))?.status == 0, "Garmin's FIT SDK for Python is not installed")
        let path = try samplePath("rowingdata/nk_logbook.csv")
        let rows = parseCSV(try String(contentsOfFile: path, encoding: .utf8))
        let column = try XCTUnwrap(rows.first?.firstIndex(of: "heartRate"))
        let beats = rows.dropFirst().compactMap { $0.count > column ? Double($0[column]) : nil }.filter { $0 > 0 }
        XCTAssertGreaterThan(beats.count, 1000)
        var source = try TraceOpener.open(path: path)
        let run = try ExportRun.make(&source, in: try temporaryDirectory(self))
        let session = try XCTUnwrap(messages(try decodeFIT(run.fit), "session").first)
        XCTAssertEqual(try XCTUnwrap(session.double("avg_heart_rate"), "the session's average heart rate"), S.mean(beats), accuracy: 1)
        XCTAssertEqual(session.double("max_heart_rate"), 170)
        XCTAssertEqual(beats.max(), 170)
    }
}
