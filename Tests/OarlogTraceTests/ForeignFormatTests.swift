import Foundation
import OarlogCore
import OarlogTrace
import OarlogTestSupport
import XCTest

/// A small, independent CSV splitter for the tests (String based, RFC 4180 quotes), so the
/// expected values do not come from the reader's own code.
func testCSVFields(_ line: Substring) -> [String] {
    var fields: [String] = []
    var current = ""
    var inQuotes = false
    var chars = Array(line)
    if chars.last == "\r" { chars.removeLast() }
    var k = 0
    while k < chars.count {
        let c = chars[k]
        if inQuotes {
            if c == "\"" {
                if k + 1 < chars.count && chars[k + 1] == "\"" { current.append("\""); k += 1 } else { inQuotes = false }
            } else { current.append(c) }
        } else if c == "\"" { inQuotes = true }
        else if c == "," { fields.append(current); current = "" }
        else { current.append(c) }
        k += 1
    }
    fields.append(current)
    return fields
}

/// `HH:MM:SS.t` or `MM:SS.t` in seconds, computed independently of the reader.
func testClockSeconds(_ s: String) -> Double {
    s.split(separator: ":").reduce(0.0) { $0 * 60 + Double($1)! }
}

func metadataValue(_ records: [TraceRecord], _ key: String) -> String? {
    for case .metadata(let k, let v) in records where k == key { return v }
    return nil
}

final class SpeedCoachReaderTests: XCTestCase {
    /// The "Just Go" session: summary block and every stroke, checked against the file's text.
    func testJustGoSessionAgainstTheFile() throws {
        let path = try TestPaths.sample("rowingdata/SpeedCoach2Linkv1.27.csv")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let strokeTitle = lines.firstIndex { $0.hasPrefix("Per-Stroke Data:") }!
        let header = testCSVFields(lines[strokeTitle + 2])
        let rows = lines[(strokeTitle + 4)...].filter { !$0.isEmpty }.map(testCSVFields)
        let summaryTitle = lines.firstIndex { $0.hasPrefix("Session Summary:") }!
        let summaryHeader = testCSVFields(lines[summaryTitle + 2])
        let summary = testCSVFields(lines[summaryTitle + 4])
        func col(_ name: String) -> Int { header.firstIndex(of: name)! }
        func sum(_ name: String) -> String { summary[summaryHeader.firstIndex(of: name)!] }

        var reader = try SpeedCoachReader(path: path)
        let records = try readAll(&reader)
        let stats = reader.statistics

        XCTAssertEqual(metadataValue(records, "device_total_distance_m"), Double(sum("Total Distance (GPS)"))!.description)
        XCTAssertEqual(metadataValue(records, "device_elapsed_s"), testClockSeconds(sum("Total Elapsed Time")).description)
        XCTAssertEqual(metadataValue(records, "device_total_strokes"), sum("Total Strokes"))
        XCTAssertEqual(metadataValue(records, "device_avg_split_s_per_500m"), testClockSeconds(sum("Avg Split (GPS)")).description)
        XCTAssertEqual(metadataValue(records, "device_avg_rate_spm"), Double(sum("Avg Stroke Rate"))!.description)
        XCTAssertEqual(metadataValue(records, "device_total_strokes"), "1408")   // README: 1,408 strokes
        XCTAssertEqual(metadataValue(records, "device_elapsed_s"), "4513.0")     // README: 1:15:13
        XCTAssertEqual(metadataValue(records, "start_local"), "2016-11-05T10:02:00")
        XCTAssertEqual(metadataValue(records, "device"), "Sander's SpeedCoach")
        XCTAssertNil(metadataValue(records, "start_utc"), "the export has no time zone")

        let refs = records.compactMap { r -> ReferenceStroke? in if case .reference(let s) = r { return s }; return nil }
        let fixes = records.compactMap { r -> GPSFix? in if case .fix(let f) = r { return f }; return nil }
        XCTAssertEqual(refs.count, rows.count)
        XCTAssertEqual(refs.count, 1408)
        XCTAssertEqual(fixes.count, rows.count)
        XCTAssertEqual(stats.referenceRows, 1408)
        XCTAssertEqual(stats.totalSkipped, 0)
        for (k, (ref, fields)) in zip(refs, rows).enumerated() where k < 3 || k >= rows.count - 3 {
            XCTAssertEqual(ref.time, testClockSeconds(fields[col("Elapsed Time")]), accuracy: 1e-9)
            XCTAssertEqual(ref.distance, Double(fields[col("Distance (GPS)")]))
            XCTAssertEqual(ref.split!, testClockSeconds(fields[col("Split (GPS)")]), accuracy: 1e-9)
            XCTAssertEqual(ref.speed, Double(fields[col("Speed (GPS)")]))
            XCTAssertEqual(ref.strokeRate, Double(fields[col("Stroke Rate")]))
            XCTAssertEqual(ref.strokeCount, Int(fields[col("Total Strokes")]))
            XCTAssertEqual(ref.distancePerStroke, Double(fields[col("Distance/Stroke (GPS)")]))
            XCTAssertEqual(fixes[k].latitude, Double(fields[col("GPS Lat.")]))
            XCTAssertEqual(fixes[k].longitude, Double(fields[col("GPS Lon.")]))
            XCTAssertEqual(fixes[k].time, ref.time)
        }
        // Hand-read from the file: the first stroke and the last.
        XCTAssertEqual(refs.first, ReferenceStroke(time: 3.2, distance: 5.3, split: 367.6, strokeRate: 19, speed: 1.36,
                                                   strokeCount: 1, distancePerStroke: 5.25))
        XCTAssertEqual(refs.last?.strokeCount, 1408)
        XCTAssertEqual(refs.last!.time, 4505.1, accuracy: 1e-9)
        XCTAssertEqual(fixes.first?.latitude, 49.2389)
        XCTAssertEqual(fixes.first?.longitude, 16.5136)
        // Time never runs backward.
        XCTAssertTrue(zip(refs, refs.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    /// The interval session: intervals spliced back to back, the device's per-interval restarts
    /// of time, distance and stroke count undone using the interval summaries.
    func testIntervalSessionIsSplicedWithSummaryOffsets() throws {
        let path = try TestPaths.sample("rowingdata/SpeedCoach2Link_interval.csv")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let intervalTitle = lines.firstIndex { $0.hasPrefix("Interval Summaries:") }!
        let intervalHeader = testCSVFields(lines[intervalTitle + 2])
        var summaries: [[String]] = []
        var k = intervalTitle + 4
        while testCSVFields(lines[k]).first?.isEmpty == false { summaries.append(testCSVFields(lines[k])); k += 1 }
        XCTAssertEqual(summaries.count, 5)
        let strokesColumn = intervalHeader.firstIndex(of: "Total Strokes")!
        let distanceColumn = intervalHeader.firstIndex(of: "Total Distance (GPS)")!
        let elapsedColumn = intervalHeader.firstIndex(of: "Total Elapsed Time")!
        let totalStrokes = summaries.map { Int($0[strokesColumn])! }.reduce(0, +)

        let strokeTitle = lines.firstIndex { $0.hasPrefix("Per-Stroke Data:") }!
        let rows = lines[(strokeTitle + 4)...].map(testCSVFields).filter { $0.count > 3 && !$0[0].isEmpty }
        let timed = rows.filter { $0[3] != "---" }
        let untimed = rows.count - timed.count

        var reader = try SpeedCoachReader(path: path)
        let records = try readAll(&reader)
        let refs = records.compactMap { r -> ReferenceStroke? in if case .reference(let s) = r { return s }; return nil }
        let notes = records.compactMap { r -> Note? in if case .note(let n) = r { return n }; return nil }
        XCTAssertEqual(refs.count, timed.count)
        XCTAssertEqual(reader.statistics.skipped(.unusableRow), untimed)
        XCTAssertEqual(untimed, 4, "one untimed row at the end of intervals 1–4")
        XCTAssertEqual(notes.map(\.text), (1...5).map { "SpeedCoach interval \($0)" })
        XCTAssertEqual(metadataValue(records, "start_local"), "2016-11-14T07:38:00")
        XCTAssertEqual(metadataValue(records, "device_total_strokes"), String(totalStrokes))

        // The last stroke: count and distance run on across the intervals.
        XCTAssertEqual(refs.last?.strokeCount, totalStrokes)
        let previousDistance = summaries.dropLast().map { Double($0[distanceColumn])! }.reduce(0, +)
        let previousTime = summaries.dropLast().map { testClockSeconds($0[elapsedColumn]) }.reduce(0, +)
        XCTAssertEqual(refs.last!.distance!, previousDistance + Double(timed.last![1])!, accuracy: 1e-9)
        XCTAssertEqual(refs.last!.time, previousTime + testClockSeconds(timed.last![3]), accuracy: 1e-9)
        // Interval 2's first stroke starts after interval 1's 60 s.
        let firstOfTwo = timed.firstIndex { $0[0] == "2" }!
        XCTAssertEqual(refs[firstOfTwo].time, testClockSeconds(summaries[0][elapsedColumn]) + testClockSeconds(timed[firstOfTwo][3]),
                       accuracy: 1e-9)
        XCTAssertEqual(refs[firstOfTwo].strokeCount, Int(summaries[0][strokesColumn])! + 1)
        XCTAssertTrue(zip(refs, refs.dropFirst()).allSatisfy { $0.time <= $1.time })
        XCTAssertTrue(zip(refs, refs.dropFirst()).allSatisfy { $0.strokeCount! < $1.strokeCount! })
    }

    func testNotASpeedCoachFileIsAClearError() {
        assertTraceError(kind: .malformed, location: nil, contains: "Session Information:") {
            _ = try SpeedCoachReader(path: TestPaths.fixture("sample-trace.csv"))
        }
    }
}

final class NKLogbookReaderTests: XCTestCase {
    func testLogbookStrokesSortedAndChecked() throws {
        let path = try TestPaths.sample("rowingdata/nk_logbook.csv")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(testCSVFields)
        let header = lines[0]
        func col(_ name: String) -> Int { header.firstIndex(of: name)! }
        let strokeRows = lines.dropFirst().filter { $0[col("type")] == "0" }
            .sorted { Int($0[col("elapsedTime")])! < Int($1[col("elapsedTime")])! }
        XCTAssertEqual(strokeRows.count, 1237)   // README: 1,237 strokes

        var reader = try NKLogbookReader(path: path)
        let records = try readAll(&reader)
        let refs = records.compactMap { r -> ReferenceStroke? in if case .reference(let s) = r { return s }; return nil }
        let fixes = records.compactMap { r -> GPSFix? in if case .fix(let f) = r { return f }; return nil }
        XCTAssertEqual(refs.count, strokeRows.count)
        XCTAssertEqual(fixes.count, strokeRows.count)
        XCTAssertEqual(reader.statistics.skipped(.otherRecordType), lines.count - 1 - strokeRows.count)
        XCTAssertTrue(zip(refs, refs.dropFirst()).allSatisfy { $0.time < $1.time }, "sorted by time")

        for (k, fields) in strokeRows.enumerated() where k < 5 || k >= strokeRows.count - 5 || k % 97 == 0 {
            let time = Double(fields[col("elapsedTime")])! / 1000
            XCTAssertEqual(refs[k].time, time)
            XCTAssertEqual(refs[k].distance, Double(fields[col("gpsTotalDistance")]))
            XCTAssertEqual(refs[k].split!, Double(fields[col("gpsPace")])! / 1000, accuracy: 1e-12)
            XCTAssertEqual(refs[k].strokeRate, Double(fields[col("strokeRate")]))
            XCTAssertEqual(refs[k].strokeCount, Int(fields[col("strokeCount")]))
            XCTAssertEqual(refs[k].distancePerStroke, Double(fields[col("gpsDistStroke")]))
            XCTAssertEqual(fixes[k].latitude, Double(fields[col("latitude")]))
            XCTAssertEqual(fixes[k].longitude, Double(fields[col("longitude")]))
            XCTAssertEqual(fixes[k].speed, Double(fields[col("gpsInstaSpeed")]))
            XCTAssertEqual(fixes[k].utc, Double(fields[col("timestamp")])! / 1000)
            XCTAssertEqual(fixes[k].time, time)
        }
        // Hand-read: the earliest stroke and the last one.
        XCTAssertEqual(refs.first?.strokeCount, 1)
        XCTAssertEqual(refs.first?.distance, 4.85)
        XCTAssertEqual(refs.first?.time, 2.097)
        XCTAssertEqual(refs.last?.strokeCount, 1237)
        XCTAssertEqual(refs.last?.distance, 12155.47)

        let first = strokeRows[0]
        let startMs = Int64(first[col("timestamp")])! - Int64(first[col("elapsedTime")])!
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let expectedStart = formatter.string(from: Date(timeIntervalSince1970: Double(startMs) / 1000))
        XCTAssertEqual(metadataValue(records, "start_utc"), expectedStart)
        XCTAssertEqual(metadataValue(records, "start_utc"), "2021-03-30T11:13:05.000Z")
        XCTAssertEqual(metadataValue(records, "device_total_strokes"), "1237")
    }

    func testMissingColumnsIsAClearError() {
        assertTraceError(kind: .malformed, location: nil, contains: "\"type\"") {
            _ = try NKLogbookReader(path: TestPaths.fixture("sample-trace.csv"))
        }
    }
}
