import Foundation
import OarlogCore
import OarlogTrace
import OarlogTestSupport
import XCTest

/// Values no boat or sensor can produce (`TraceLimits`), found from outside by mutating real
/// inputs: each reader skips and counts them (a lone glitch row in a device export), reads them
/// as unknown (an optional figure) or refuses the file naming the line (Quiske), and never hands
/// them on.
final class NativePlausibilityTests: XCTestCase {
    private let dir = TemporaryDirectory()
    override func tearDown() { dir.remove() }

    /// `printf '# oarlog-trace: 1\nt,kind,values\n0,accel,0,0,9.8\n1e300,accel,0,0,9.8\n'`: the
    /// row at 1e300 s is skipped (and does not make every later row "backward").
    func testTimeBeyondASessionIsSkipped() throws {
        let path = dir.file("t.csv", "# oarlog-trace: 1\nt,kind,values\n0,accel,0,0,9.8\n1e300,accel,0,0,9.8\n1,accel,0,0,9.8\n")
        let (records, stats) = try readNative(path)
        XCTAssertEqual(records, [.metadata(key: "oarlog-trace", value: "1"),
                                 .accel(AccelSample(time: 0, x: 0, y: 0, z: 9.8)),
                                 .accel(AccelSample(time: 1, x: 0, y: 0, z: 9.8))])
        XCTAssertEqual(stats.skipped(.implausibleValue), 1)
        XCTAssertEqual(stats.firstSkippedLine(.implausibleValue), 4)
        XCTAssertEqual(stats.skipped(.timeWentBackward), 0)
    }

    /// The bound is 7 days exactly, on the fast path (plain integers) and the general one alike.
    func testSevenDaysIsTheBoundOnEveryPath() throws {
        let text = "604800,accel,0,0,9.8\n604800.5,accel,0,0,9.8\n6048001,accel,0,0,9.8\n604800.001,accel,0,0,9.8\n"
            + "604800,gps,51,0,1,2,3\n604800,gap,gps,604801\n604800,note,late\n"
        let (records, stats) = try readNative(dir.file("week.csv", text))
        XCTAssertEqual(records, [.accel(AccelSample(time: 604_800, x: 0, y: 0, z: 9.8)),
                                 .fix(GPSFix(time: 604_800, latitude: 51, longitude: 0, speed: 1, course: 2, horizontalAccuracy: 3)),
                                 .note(Note(time: 604_800, text: "late"))])
        XCTAssertEqual(stats.skipped(.implausibleValue), 4)
        XCTAssertEqual(stats.firstSkippedLine(.implausibleValue), 2)
        // The batch path stops at the implausible row and `next()` skips it.
        var reader = try NativeTraceReader(path: dir.file("batch.csv", "0,accel,1,2,3\n1e7,accel,1,2,3\n2,accel,1,2,3\n"))
        var samples: [AccelSample] = []
        while true {
            var batch: [AccelSample] = []
            if try reader.readAccel(into: &batch, maxCount: 10) > 0 { samples += batch; continue }
            guard let r = try reader.next() else { break }
            if case .accel(let s) = r { samples.append(s) }
        }
        XCTAssertEqual(samples.map(\.time), [0, 2])
        XCTAssertEqual(reader.statistics.skipped(.implausibleValue), 1)
    }

    /// An acceleration of 123456789012345678901234567890.5 m/s² (or anything over 2000 m/s² on any
    /// axis) is no accelerometer's: the row is skipped.
    func testAccelerationBeyondAnySensorIsSkipped() throws {
        let text = "0,accel,0,0,9.8\n0.01,accel,123456789012345678901234567890.5,0,9.8\n0.02,accel,0,-2000.5,9.8\n"
            + "0.03,accel,0,0,2000\n0.04,accel,1e4,0,0\n0.05,accel,0,0,-1999.99\n"
        let (records, stats) = try readNative(dir.file("a.csv", text))
        XCTAssertEqual(records.compactMap(\.time), [0, 0.03, 0.05])
        XCTAssertEqual(stats.skipped(.implausibleValue), 3)
        XCTAssertEqual(stats.firstSkippedLine(.implausibleValue), 2)
    }

    /// Optional values beyond their bounds are unknown (counted); the row is kept.
    func testImplausibleOptionalValuesAreUnknown() throws {
        let text = "0,gps,51,0,1e300,720,-3,1e6,1e300\n1,gps,51,0,29.9,359,20,12,1700000000\n"
            + "2,ref,1e300,-5,500,31,99999999999,1000\n3,ref,2000,120,30,4.5,200,10\n"
        let (records, stats) = try readNative(dir.file("o.csv", text))
        XCTAssertEqual(records, [
            .fix(GPSFix(time: 0, latitude: 51, longitude: 0)),
            .fix(GPSFix(time: 1, utc: 1_700_000_000, latitude: 51, longitude: 0, speed: 29.9, course: 359, horizontalAccuracy: 20, altitude: 12)),
            .reference(ReferenceStroke(time: 2, speed: nil)),
            .reference(ReferenceStroke(time: 3, distance: 2000, split: 120, strokeRate: 30, speed: 4.5, strokeCount: 200, distancePerStroke: 10)),
        ])
        XCTAssertEqual(stats.droppedValues, 5 + 6)
        XCTAssertEqual(stats.firstDroppedValueLine, 1)
        XCTAssertEqual(stats.totalSkipped, 0)
    }

    /// A gap ending beyond a session is skipped like its start would be.
    func testGapEndingBeyondASessionIsSkipped() throws {
        let (records, stats) = try readNative(dir.file("g.csv", "0,gap,gps,1e300,lost\n1,gap,gps,2,ok\n"))
        XCTAssertEqual(records, [.gap(Gap(sensor: .gps, start: 1, end: 2, reason: "ok"))])
        XCTAssertEqual(stats.skipped(.implausibleValue), 1)
    }
}

final class ForeignPlausibilityTests: XCTestCase {
    private let dir = TemporaryDirectory()
    override func tearDown() { dir.remove() }

    /// A CSV line with field `column` replaced (quoted when needed).
    private func replacing(_ line: Substring, column: Int, with value: String) -> String {
        var fields = testCSVFields(line)
        fields[column] = value
        return fields.map { $0.contains(",") || $0.contains("\"") ? "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : $0 }
            .joined(separator: ",")
    }

    private func records(_ source: inout some RecordSource) throws -> [TraceRecord] {
        var out: [TraceRecord] = []
        while let r = try source.next() { out.append(r) }
        return out
    }

    /// A SpeedCoach stroke whose elapsed time is `00:` and 64 nines is skipped (line named); a
    /// speed of 1e300 is unknown; every other stroke reads as before.
    func testSpeedCoachElapsedTimeOfSixtyFourNines() throws {
        let path = try TestPaths.sample("rowingdata/SpeedCoach2Linkv1.27.csv")
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let title = lines.firstIndex { $0.hasPrefix("Per-Stroke Data:") }!
        let unmutated = lines
        let header = testCSVFields(lines[title + 2])
        let elapsed = header.firstIndex(of: "Elapsed Time")!, speed = header.firstIndex(of: "Speed (GPS)")!
        let glitch = title + 4 + 10, fast = title + 4 + 20
        lines[glitch] = Substring(replacing(lines[glitch], column: elapsed, with: "00:" + String(repeating: "9", count: 64)))
        lines[fast] = Substring(replacing(lines[fast], column: speed, with: "1e300"))
        let mutated = dir.file("sc.csv", lines.joined(separator: "\n"))

        var original = try SpeedCoachReader(path: path)
        var reader = try SpeedCoachReader(path: mutated)
        let before = try records(&original), after = try records(&reader)
        XCTAssertEqual(reader.statistics.skipped(.implausibleValue), 1)
        XCTAssertEqual(reader.statistics.firstSkippedLine(.implausibleValue), glitch + 1)
        XCTAssertEqual(reader.statistics.droppedValues, 1)
        XCTAssertEqual(reader.statistics.firstDroppedValueLine, fast + 1)
        // The stroke's records: its fix, its reference and the device's heart rate (118 bpm).
        let clock = testCSVFields(unmutated[glitch])[elapsed].split(separator: ":").compactMap { Double($0) }
        let strokeTime = clock.reduce(0) { $0 * 60 + $1 }
        let ofStroke = before.filter { abs(($0.time ?? -1) - strokeTime) < 0.05 }.count
        XCTAssertEqual(ofStroke, 3)
        XCTAssertEqual(after.count, before.count - ofStroke, "one stroke (fix, reference, heart rate) fewer")
        XCTAssertTrue(after.allSatisfy { ($0.time ?? 0) < 10_000 })
        func unknownSpeeds(_ records: [TraceRecord]) -> Int {
            records.filter { if case .fix(let f) = $0 { return f.speed == nil } else { return false } }.count
        }
        XCTAssertEqual(unknownSpeeds(after), unknownSpeeds(before) + 1)
    }

    /// NK LiNK Logbook: an elapsed time of 10¹³ ms is skipped; a speed of 1e300 is unknown.
    func testNKLogbookImplausibleStroke() throws {
        let path = try TestPaths.sample("rowingdata/nk_logbook.csv")
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let header = testCSVFields(lines[0])
        let type = header.firstIndex(of: "type")!, elapsed = header.firstIndex(of: "elapsedTime")!
        let speed = header.firstIndex(of: "gpsInstaSpeed")!
        let strokeLines = lines.indices.dropFirst().filter { !lines[$0].isEmpty && testCSVFields(lines[$0])[type] == "0" }
        let glitch = strokeLines[5], fast = strokeLines[9]
        lines[glitch] = Substring(replacing(lines[glitch], column: elapsed, with: "10000000000000"))
        lines[fast] = Substring(replacing(lines[fast], column: speed, with: "1e300"))
        var reader = try NKLogbookReader(path: dir.file("nk.csv", lines.joined(separator: "\n")))
        let after = try records(&reader)
        var original = try NKLogbookReader(path: path)
        let before = try records(&original)
        XCTAssertEqual(reader.statistics.skipped(.implausibleValue), 1)
        XCTAssertEqual(reader.statistics.firstSkippedLine(.implausibleValue), glitch + 1)
        XCTAssertEqual(reader.statistics.droppedValues, 1)
        XCTAssertEqual(reader.statistics.firstDroppedValueLine, fast + 1)
        // The skipped stroke's records: its fix and reference, its heart rate (if not 0) and its
        // oarlock stroke (if it has power).
        let row = testCSVFields(lines[glitch])
        let ofStroke = 2 + (Double(row[header.firstIndex(of: "heartRate")!]) ?? 0 > 0 ? 1 : 0)
            + (row[header.firstIndex(of: "power")!].isEmpty ? 0 : 1)
        XCTAssertEqual(after.count, before.count - ofStroke)
        XCTAssertLessThan(after.compactMap(\.time).max()!, TraceLimits.maxSessionSeconds)
    }

    private func talosRecords(_ text: String) throws -> ([TraceRecord], TraceReadStatistics) {
        var reader = try TalosLogReader(path: dir.file("talos-\(UUID().uuidString).txt", text))
        return (try records(&reader), reader.statistics)
    }

    /// Talos: an ACCEL sensor stamp of 1e308 ns or of 65 digits, an acceleration of 20000 m/s²,
    /// a position at latitude 1e300 or a wall clock in the year 3 million are skipped and counted,
    /// and do not disturb the clock offset: every other record is exactly as without them.
    func testTalosGlitchRowsAreSkippedWithoutDisturbingTheTimeline() throws {
        let fixture = try String(contentsOfFile: TestPaths.fixture("talos-synthetic.txt"), encoding: .utf8)
        var lines = fixture.split(separator: "\n").map(String.init)
        let glitches = [
            "1700000000005 ACCEL 1e308 0.1,0.2,9.8@@",
            "1700000000006 ACCEL " + String(repeating: "7", count: 65) + " 0.1,0.2,9.8@@",
            "1700000000044 ACCEL 5000034000000 0.1,20000,9.8@@",
            "1700000000401 GPS 1700000100001 1e300,4.875,2.0,3.5,90.0,4.0@@",
            "99999999999999999 ACCEL 5000040000000 0.1,0.2,9.8@@",
            "1700000000402 ACCEL 5000041000000 nan,0.2,9.8@@",
        ]
        lines.insert(glitches[0], at: 2)
        lines.insert(glitches[1], at: 3)
        lines.insert(contentsOf: glitches[2...], at: 8)
        let (expected, _) = try talosRecords(fixture)
        let (got, stats) = try talosRecords(lines.joined(separator: "\n") + "\n")
        XCTAssertEqual(got, expected)
        XCTAssertEqual(stats.skipped(.implausibleValue), 5)
        XCTAssertEqual(stats.firstSkippedLine(.implausibleValue), 3)
        XCTAssertEqual(stats.skipped(.nonFiniteValue), 1)
    }

    /// Talos: a fix's impossible speed is unknown; a 200 MB Talos line is refused at 64 KiB.
    func testTalosOptionalValuesAndLongLines() throws {
        let (records, stats) = try talosRecords("1700000000400 GPS 1700000100000 52.375,4.875,2.0,1e300,90.0,4.0@@\n")
        guard case .fix(let fix)? = records.last else { return XCTFail("\(records)") }
        XCTAssertNil(fix.speed)
        XCTAssertEqual(fix.course, 90)
        XCTAssertEqual(stats.droppedValues, 1)
        let long = "1700000000010 ACCEL 5000000000000 " + String(repeating: "1,", count: 40_000) + "1@@\n"
        XCTAssertThrowsError(try talosRecords(long)) { error in
            XCTAssertEqual((error as? TalosLogError)?.line, 1)
            XCTAssertTrue("\(error)".contains("longer than 65536 bytes"), "\(error)")
        }
    }

    private func quiske(_ rows: [String]) -> String {
        dir.file("q-\(UUID().uuidString).csv",
                 "Quiske,x\ntimestamp(s),distance(m),SPM (strokes per minute),speed (m/s),boat accelerator curve\n"
                 + rows.joined(separator: "\n") + "\n")
    }

    /// Quiske refuses (naming the line) what it cannot skip without shifting every later catch.
    func testQuiskeRefusesImplausibleRows() throws {
        let good = "1495347480.2,2,20,3,\"0.1,0.2,-0.1\""
        let cases: [([String], Int, String)] = [
            ([good, "1495347483.2,3,20,3,\"0.1,1e30\""], 4, "curve samples within ±2000 m/s²"),
            ([good, "1495347483.2,3,20,3,\"0.1,nan\""], 4, "curve samples within"),
            ([good, "1e300,3,20,3,\"0.1,0.2\""], 4, "a time from the first row's to 7 days after it"),
            (["1e300,3,20,3,\"0.1,0.2\""], 3, "a UTC time in seconds (1970–2100)"),
            ([good, "1495347483.2,3,20,1e300,\"0.1,0.2\""], 4, "a speed within 0…30 m/s"),
            ([good, "1495347483.2,3,2000,3,\"0.1,0.2\""], 4, "a stroke rate within 0…200 spm"),
            ([good, "1495347483.2,1e12,20,3,\"0.1,0.2\""], 4, "a distance within 0…1000 km"),
            ([good, "1495347483.2,3,20,3,\"" + Array(repeating: "0.1", count: 10_001).joined(separator: ",") + "\""], 4,
             "more than 10000 samples"),
        ]
        for (rows, line, fragment) in cases {
            let path = quiske(rows)
            XCTAssertThrowsError(try QuiskeCurveReader(path: path)) { error in
                XCTAssertEqual((error as? QuiskeCurveError)?.line, line, "\(error)")
                XCTAssertTrue("\(error)".contains(fragment), "expected \(fragment) in \(error)")
                XCTAssertTrue("\(error)".hasPrefix(path + ":\(line): "), "\(error)")
            }
        }
        // The bounds themselves are accepted.
        let edge = quiske([good, "1495347483.2,1000000,200,30,\"-203.9,203.9\""])
        XCTAssertEqual(try QuiskeCurveReader(path: edge).strokes.count, 2)
    }
}
