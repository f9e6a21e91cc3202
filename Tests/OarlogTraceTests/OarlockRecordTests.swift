import Foundation
import OarlogCore
@testable import OarlogTrace
import OarlogTestSupport
import XCTest

/// Heart rate and the EmPower oarlock's figures from the traces: the native `oar` row (written by
/// `TraceWriter`, read back), and the NK LiNK Logbook and SpeedCoach exports, against the values
/// the test reads from the CSV files itself.
final class OarlockRecordTests: XCTestCase {
    let dir = TemporaryDirectory()
    override func tearDown() { dir.remove() }

    // MARK: Native oar row

    func testOarRowRoundTripsThroughTheWriter() throws {
        let path = dir.path("oar.csv")
        let strokes = [
            OarlockStroke(time: 1.25, power: 148.3, catchAngle: -62, finishAngle: 48, slip: 8, wash: 15,
                          effectiveLength: 87, averageForce: 273.7, maxForce: 518.8, maxForceAngle: -21, work: 495.5),
            OarlockStroke(time: 4.5, seat: "stroke, port", power: 0, catchAngle: nil, finishAngle: 44.25),
            OarlockStroke(time: 7.75, seat: "bow", work: 4999.5),
            OarlockStroke(time: 9),
        ]
        var writer = try TraceWriter(path: path, metadata: [])
        for o in strokes { try writer.write(.oarlock(o)) }
        try writer.write(.heartRate(HeartRateSample(time: 9.5, bpm: 151, sensor: "bow")))
        try writer.close()
        let (all, stats) = try readNative(path)
        let back = all.filter { if case .metadata = $0 { return false } else { return true } }
        XCTAssertEqual(back, strokes.map { .oarlock($0) } + [.heartRate(HeartRateSample(time: 9.5, bpm: 151, sensor: "bow"))])
        XCTAssertEqual(stats.oarlockRows, 4)
        XCTAssertEqual(stats.droppedValues, 0)
        XCTAssertEqual(stats.totalSkipped, 0)
    }

    func testImplausibleOarFiguresAreDroppedAndCounted() throws {
        // power 2,500 W is within 0–5,000; a −150° catch, a 4,000 N force, 6,000 J and −1 W are not.
        let text = "1,oar,2500,-150,40,5,10,70,4000,500,-20,6000\n2,oar,-1,-60,40,,,,,,,\n"
        let (records, stats) = try readNative(dir.file("trace.csv", text))
        XCTAssertEqual(records, [
            .oarlock(OarlockStroke(time: 1, power: 2500, catchAngle: nil, finishAngle: 40, slip: 5, wash: 10,
                                   effectiveLength: 70, averageForce: nil, maxForce: 500, maxForceAngle: -20, work: nil)),
            .oarlock(OarlockStroke(time: 2, power: nil, catchAngle: -60, finishAngle: 40)),
        ])
        XCTAssertEqual(stats.droppedValues, 4)
    }

    func testMalformedOarRowsNameFileAndLine() {
        assertTraceError(kind: .malformed, location: "trace.csv:2:11", contains: "expected a number or an empty field for catch_deg") {
            _ = try readNative(self.dir.file("trace.csv", "0,hr,120\n1,oar,150,x,40,5,10,70,250,500,-20,450\n"))
        }
        assertTraceError(kind: .malformed, location: "trace.csv:1:19", contains: "expected ',' and a value for wash_deg") {
            _ = try readNative(self.dir.file("trace.csv", "1,oar,150,-60,40,5\n"))
        }
    }

    // MARK: NK LiNK Logbook

    func testNKLogbookStrokesCarryTheirRowsHeartRateAndOarlock() throws {
        let path = try TestPaths.sample("rowingdata/nk_logbook.csv")
        let rows = try DeviceCSV.rows(path).filter { $0["type"] == "0" }
        var reader = try NKLogbookReader(path: path)
        let records = try readAll(&reader)
        var heartRates: [Int64: [Double]] = [:], oarlocks: [Int64: [OarlockStroke]] = [:], powers: [Int64: [Double?]] = [:]
        for r in records {
            switch r {
            case .heartRate(let h): heartRates[Int64((h.time * 1000).rounded()), default: []].append(h.bpm)
            case .oarlock(let o): oarlocks[Int64((o.time * 1000).rounded()), default: []].append(o)
            case .reference(let x): powers[Int64((x.time * 1000).rounded()), default: []].append(x.power)
            default: break
            }
        }
        XCTAssertEqual(heartRates.values.map(\.count).reduce(0, +), rows.filter { Double($0["heartRate"]!) ?? 0 > 0 }.count)
        XCTAssertEqual(oarlocks.values.map(\.count).reduce(0, +), rows.filter { !$0["power"]!.isEmpty }.count)
        var checked = 0
        for row in rows {
            let ms = Int64(row["elapsedTime"]!)!
            guard rows.filter({ $0["elapsedTime"] == row["elapsedTime"] }).count == 1 else { continue }
            XCTAssertEqual(heartRates[ms], [Double(row["heartRate"]!)!], "heart rate at \(ms) ms")
            if let power = Double(row["power"]!) {
                let o = try XCTUnwrap(oarlocks[ms]?.first)
                XCTAssertEqual(o.power!, power, accuracy: 0.01)
                XCTAssertEqual(powers[ms]?.first??.rounded(), power.rounded())
                XCTAssertEqual(o.catchAngle!, Double(row["catchAngle"]!)!, accuracy: 1e-4)
                XCTAssertEqual(o.maxForce!, Double(row["maxHandleForce"]!)!, accuracy: 0.01)
                XCTAssertEqual(o.maxForceAngle!, Double(row["positionOfMaxForce"]!)!, accuracy: 1e-4)
                XCTAssertEqual(o.work!, Double(row["realWorkPerStroke"]!)!, accuracy: 0.01)
                XCTAssertEqual(o.slip, Double(row["slip"]!).map { Double(Float($0)) })
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 1000)
    }

    // MARK: SpeedCoach

    func testSpeedCoachOarlockColumnsBecomeOarlockStrokes() throws {
        let path = try TestPaths.sample("rowingdata/SpeedCoach2Link_interval.csv")
        var reader = try SpeedCoachReader(path: path)
        let oarlocks = try readAll(&reader).compactMap { r -> OarlockStroke? in
            if case .oarlock(let o) = r { return o } else { return nil }
        }
        // A row without an elapsed time (the device's end-of-interval row) is no stroke.
        let rows = try DeviceCSV.speedCoachStrokes(path).filter { $0["Catch"] != "---" && $0["Elapsed Time"] != "---" }
        XCTAssertEqual(oarlocks.count, rows.count)
        func mean(_ column: String) -> Double {
            let v = rows.compactMap { Double($0[column]!) }
            return v.reduce(0, +) / Double(v.count)
        }
        func ours(_ k: KeyPath<OarlockStroke, Double?>) -> Double {
            let v = oarlocks.compactMap { $0[keyPath: k] }
            return v.reduce(0, +) / Double(v.count)
        }
        XCTAssertEqual(ours(\.power), mean("Power"), accuracy: 1e-9)
        XCTAssertEqual(ours(\.catchAngle), mean("Catch"), accuracy: 1e-9)
        XCTAssertEqual(ours(\.finishAngle), mean("Finish"), accuracy: 1e-9)
        XCTAssertEqual(ours(\.slip), mean("Slip"), accuracy: 1e-9)
        XCTAssertEqual(ours(\.wash), mean("Wash"), accuracy: 1e-9)
        XCTAssertEqual(ours(\.averageForce), mean("Force Avg"), accuracy: 1e-9)
        XCTAssertEqual(ours(\.maxForce), mean("Force Max"), accuracy: 1e-9)
        XCTAssertEqual(ours(\.maxForceAngle), mean("Max Force Angle"), accuracy: 1e-9)
        XCTAssertEqual(ours(\.work), mean("Work"), accuracy: 1e-9)
        // The effective arc: finish − catch − slip − wash.
        XCTAssertEqual(ours(\.effectiveLength), mean("Finish") - mean("Catch") - mean("Slip") - mean("Wash"), accuracy: 1e-9)
    }

    func testSpeedCoachWithoutOarlockGivesNone() throws {
        var reader = try SpeedCoachReader(path: try TestPaths.sample("rowingdata/SpeedCoach2Linkv1.27.csv"))
        let records = try readAll(&reader)
        XCTAssertFalse(records.contains { if case .oarlock = $0 { return true } else { return false } })
        XCTAssertTrue(records.contains { if case .heartRate = $0 { return true } else { return false } })
    }
}

/// The device exports as plain tables, read by the test itself (quoted fields with commas, as
/// NK's are): the ground truth the readers are checked against.
enum DeviceCSV {
    static func fields(_ line: Substring) -> [String] {
        var out: [String] = [], field = "", quoted = false
        var chars = line.makeIterator()
        while let c = chars.next() {
            if c == "\"" { quoted.toggle() } else if c == "," && !quoted { out.append(field); field = "" } else { field.append(c) }
        }
        out.append(field)
        return out
    }

    /// The rows of a CSV with a header line, by the header's names (the first of a repeated name).
    static func rows(_ path: String) throws -> [[String: String]] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline)
        let header = fields(lines[0])
        return lines.dropFirst().map { line in
            var row: [String: String] = [:]
            for (k, v) in zip(header, fields(line)) where row[k] == nil { row[k] = v }
            return row
        }
    }

    /// The per-stroke rows of a SpeedCoach export (after the header that has "Elapsed Time" and
    /// its units row), by column name.
    static func speedCoachStrokes(_ path: String) throws -> [[String: String]] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(whereSeparator: \.isNewline)
        guard let h = lines.lastIndex(where: { $0.hasPrefix("Interval,") && $0.contains("Elapsed Time") }) else { return [] }
        let header = fields(lines[h])
        return lines[(h + 2)...].map(fields).filter { $0.count == header.count }.map { Dictionary(zip(header, $0), uniquingKeysWith: { a, _ in a }) }
    }
}
