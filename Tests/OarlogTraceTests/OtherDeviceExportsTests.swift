import Foundation
import OarlogCore
@testable import OarlogTrace
import OarlogTestSupport
import XCTest

/// The first NK SpeedCoach, BoatCoach on the water and CoxMate (issue 31): each real export read
/// through `TraceOpener` as the replay reads it, against the file's own figures computed here from
/// its text with a plain split (not by the readers).
final class OtherDeviceExportsTests: XCTestCase {
    let dir = TemporaryDirectory()
    override func tearDown() { dir.remove() }

    /// The file's rows as fields (header included), split independently of the readers.
    func rows(_ name: String) throws -> [[String]] {
        let text = try String(contentsOfFile: TestPaths.fixture("devices/\(name)"), encoding: .utf8)
        return text.split(separator: "\n").map { testCSVFields($0) }
    }

    /// Every record through `TraceOpener.open`, with the detected format and the statistics.
    func open(_ path: String) throws -> (format: TraceFormat, records: [TraceRecord], statistics: TraceReadStatistics) {
        let format = try TraceOpener.detectFormat(path: path)
        var source = try TraceOpener.open(path: path)
        let records = try readAll(&source)
        return (format, records, try XCTUnwrap(TraceOpener.statistics(of: source)))
    }

    func references(_ records: [TraceRecord]) -> [ReferenceStroke] {
        records.compactMap { if case .reference(let r) = $0 { return r } else { return nil } }
    }

    func heartRates(_ records: [TraceRecord]) -> [Double] {
        records.compactMap { if case .heartRate(let h) = $0 { return h.bpm } else { return nil } }
    }

    /// Metadata first, then times that never go back; reference times strictly increasing (the
    /// analyzer counts a reference only after the previous one's time).
    func assertOrdered(_ records: [TraceRecord], file: StaticString = #filePath, line: UInt = #line) {
        let firstTimed = records.firstIndex { $0.time != nil } ?? records.count
        XCTAssertFalse(records[firstTimed...].contains { $0.time == nil }, "metadata after data", file: file, line: line)
        let times = records.compactMap(\.time)
        let back = zip(times, times.dropFirst()).enumerated().first { $0.element.1 < $0.element.0 }
        XCTAssertNil(back, "time goes back after timed record \(back?.offset ?? 0): \(back.map { "\($0.element)" } ?? "")",
                     file: file, line: line)
        let strokeTimes = references(records).map(\.time)
        let same = zip(strokeTimes, strokeTimes.dropFirst()).enumerated().first { $0.element.1 <= $0.element.0 }
        XCTAssertNil(same, "reference \(same?.offset ?? 0) not before the next: \(same.map { "\($0.element)" } ?? "")",
                     file: file, line: line)
    }

    /// Great-circle distance on a sphere of the mean Earth radius (written here, not the DSP's).
    func haversineMetres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = 6_371_008.8, rad = Double.pi / 180
        let h = pow(sin((lat2 - lat1) * rad / 2), 2) + cos(lat1 * rad) * cos(lat2 * rad) * pow(sin((lon2 - lon1) * rad / 2), 2)
        return 2 * r * asin(min(1, h.squareRoot()))
    }

    // MARK: The first SpeedCoach

    func testFirstSpeedCoachAgainstTheFile() throws {
        let table = try rows("speedcoachexample.csv")
        let header = table[0], data = table.dropFirst()
        let iDistance = try XCTUnwrap(header.firstIndex(of: "Distance(m)")), iStroke = try XCTUnwrap(header.firstIndex(of: "Stroke"))
        let iHR = try XCTUnwrap(header.firstIndex(of: "HR")), iSeconds = try XCTUnwrap(header.firstIndex(of: "Time(sec)"))
        let last = try XCTUnwrap(data.last)
        let totalDistance = try XCTUnwrap(Double(last[iDistance])), totalStrokes = try XCTUnwrap(Int(last[iStroke]))
        let beats = data.compactMap { Double($0[iHR]) }.filter { $0 > 0 }

        let (format, records, stats) = try open(TestPaths.fixture("devices/speedcoachexample.csv"))
        XCTAssertEqual(format, .speedcoachV1)
        assertOrdered(records)
        XCTAssertEqual(metadataValue(records, "source_format"), "NK SpeedCoach (first model) CSV")
        XCTAssertEqual(metadataValue(records, "device_total_distance_m").flatMap(Double.init), totalDistance)
        XCTAssertEqual(metadataValue(records, "device_total_strokes").flatMap(Int.init), totalStrokes)
        XCTAssertEqual(metadataValue(records, "device_elapsed_s").flatMap(Double.init), Double(last[iSeconds]))
        XCTAssertNil(metadataValue(records, "start_utc"), "the export has no date")

        // One reference per stroke the device counted, numbered 1…N, the last at the device's distance.
        let strokes = references(records)
        XCTAssertEqual(strokes.count, totalStrokes)
        XCTAssertEqual(strokes.map { $0.strokeCount ?? -1 }, Array(1...totalStrokes))
        let finalDistance = try XCTUnwrap(strokes.last?.distance)
        XCTAssertEqual(finalDistance, totalDistance, accuracy: totalDistance * 0.02)
        XCTAssertEqual(strokes.last?.time ?? 0, Double(last[iSeconds]) ?? -1, accuracy: 1e-9)
        let distances = strokes.compactMap(\.distance)
        XCTAssertEqual(distances.count, strokes.count)
        XCTAssertEqual(distances, distances.sorted(), "cumulative distance never goes back")

        // Heart rate at every row that has one; the mean of the file's non-zero values within 0.5 bpm.
        let hr = heartRates(records)
        XCTAssertEqual(hr.count, beats.count)
        XCTAssertEqual(hr.reduce(0, +) / Double(hr.count), beats.reduce(0, +) / Double(beats.count), accuracy: 0.5)
        XCTAssertEqual(stats.referenceRows, totalStrokes)
        XCTAssertEqual(stats.heartRateRows, beats.count)
        XCTAssertEqual(stats.totalSkipped, 0)
    }

    // MARK: BoatCoach

    func testBoatCoachAgainstTheFile() throws {
        let table = try rows("boatcoach_otw.csv")
        let headerIndex = try XCTUnwrap(table.firstIndex { $0.first == "DateTime" })
        let header = table[headerIndex], data = table[(headerIndex + 1)...]
        func column(_ name: String) throws -> Int { try XCTUnwrap(header.firstIndex(of: name), name) }
        let iDistance = try column("Cumulative Distance(m)"), iStrokes = try column("Cumulative Stroke Count")
        let iLat = try column("Latitude"), iLon = try column("Longitude"), iPiece = try column("Piece Number")
        let iHR = try column("Heart Rate")
        let last = try XCTUnwrap(data.last)
        let totalDistance = try XCTUnwrap(Double(last[iDistance])), totalStrokes = try XCTUnwrap(Int(last[iStrokes]))
        let positioned = data.filter { !((Double($0[iLat]) ?? 0) == 0 && (Double($0[iLon]) ?? 0) == 0) }.count
        var pieceStarts = 0, piece = "0"
        for r in data where r[iPiece] != piece {
            piece = r[iPiece]
            if piece != "0" { pieceStarts += 1 }
        }
        XCTAssertTrue(data.allSatisfy { $0[iHR] == "0" }, "this file has no heart rate")

        let (format, records, stats) = try open(TestPaths.fixture("devices/boatcoach_otw.csv"))
        XCTAssertEqual(format, .boatcoach)
        assertOrdered(records)
        // 2017-09-25 17:22:24.1 GMT+02:00 is 15:22:24.1 UTC.
        let first = try XCTUnwrap(data.first?[0])
        XCTAssertTrue(first.hasPrefix("2017-09-25 17:22:24.1 GMT+02:00"), first)
        XCTAssertEqual(metadataValue(records, "start_utc"), "2017-09-25T15:22:24.100Z")
        XCTAssertEqual(metadataValue(records, "device_total_distance_m").flatMap(Double.init), totalDistance)
        XCTAssertEqual(metadataValue(records, "device_total_strokes").flatMap(Int.init), totalStrokes)
        XCTAssertEqual(metadataValue(records, "device_elapsed_s").flatMap(Double.init),
                       testClockSeconds(last[try column("TOTAL Time Since Start BoatCoach")]))

        let strokes = references(records)
        XCTAssertEqual(strokes.count, totalStrokes)
        XCTAssertEqual(strokes.map { $0.strokeCount ?? -1 }, Array(1...totalStrokes))
        XCTAssertEqual(try XCTUnwrap(strokes.last?.distance), totalDistance, accuracy: totalDistance * 0.02)

        // Every position but 0,0 is a fix; their path is the device's distance within 2 %.
        let fixes = records.compactMap { if case .fix(let f) = $0 { return f } else { return nil } }
        XCTAssertEqual(fixes.count, positioned)
        XCTAssertEqual(stats.skipped(.noPosition), data.count - positioned)
        var path = 0.0
        for (a, b) in zip(fixes, fixes.dropFirst()) {
            path += haversineMetres(a.latitude, a.longitude, b.latitude, b.longitude)
        }
        XCTAssertEqual(path, totalDistance, accuracy: totalDistance * 0.02)
        XCTAssertEqual(fixes.first?.utc ?? 0, UTCTime.epochSeconds(year: 2017, month: 9, day: 25, hour: 15, minute: 22, second: 25.1),
                       accuracy: 1e-6, "the first fix is the second row, a second after the start")

        let notes = records.compactMap { if case .note(let n) = $0 { return n.text } else { return nil } }
        XCTAssertEqual(notes.count, pieceStarts)
        XCTAssertEqual(notes.first, "BoatCoach piece 1")
        XCTAssertTrue(heartRates(records).isEmpty)
    }

    // MARK: CoxMate

    func testCoxMateAgainstTheFile() throws {
        let table = try rows("coxmate.csv")
        let header = table[0], data = Array(table.dropFirst())
        let iStroke = try XCTUnwrap(header.firstIndex(of: "Stroke")), iTime = try XCTUnwrap(header.firstIndex(of: "Time"))
        let iDistance = try XCTUnwrap(header.firstIndex(of: "Distance"))
        let last = try XCTUnwrap(data.last)
        let lastNumber = try XCTUnwrap(Int(last[iStroke])), totalDistance = try XCTUnwrap(Double(last[iDistance]))
        // Catches closer than 0.3 s (a rate of 200) are one: here stroke 1 (0 s) and stroke 2 (0.08 s).
        let times = data.compactMap { Double($0[iTime]) }
        let doubleCatches = zip(times, times.dropFirst()).filter { $1 - $0 < 0.3 }.count
        XCTAssertEqual(doubleCatches, 1)
        XCTAssertEqual(data.count, lastNumber, "one row per stroke number")

        let (format, records, stats) = try open(TestPaths.fixture("devices/coxmate.csv"))
        XCTAssertEqual(format, .coxmate)
        assertOrdered(records)
        XCTAssertEqual(metadataValue(records, "device_total_strokes").flatMap(Int.init), lastNumber)
        XCTAssertEqual(metadataValue(records, "device_total_distance_m").flatMap(Double.init), totalDistance)
        let strokes = references(records)
        XCTAssertEqual(strokes.count, lastNumber - doubleCatches)
        XCTAssertEqual(strokes.first?.strokeCount, 2, "stroke 2 is the first catch: stroke 3's rating is measured from it")
        XCTAssertEqual(strokes.first?.speed, nil, "stroke 1's leftover speed is not a stroke's")
        XCTAssertEqual(try XCTUnwrap(strokes.last?.distance), totalDistance, accuracy: totalDistance * 0.02)
        XCTAssertEqual(strokes.last?.strokeCount, lastNumber)
        // Stroke 3: 60 / (2.71 − 0.08) s = 22.81 spm, as the device wrote it.
        XCTAssertEqual(try XCTUnwrap(strokes.dropFirst().first?.strokeRate), 60 / (times[2] - times[1]), accuracy: 0.01)
        XCTAssertEqual(stats.skipped(.implausibleValue), doubleCatches)
        XCTAssertEqual(stats.firstSkippedLine(.implausibleValue), 2)
        XCTAssertTrue(heartRates(records).isEmpty, "the file's heart rates are all 0")
    }

    // MARK: Bad input

    func testBadValuesAreErrorsNamingLineAndColumn() throws {
        let cox = dir.file("cox.csv", "Stroke,Time,Distance,Rating,Speed,Ratio,Cover,Heart Rate\n1,0,0,0,0,0,0,0\n2,2.1,x9,30,0,0,0,0\n")
        assertTraceError(kind: .malformed, location: "cox.csv:3:7", contains: "expected a number for Distance") {
            _ = try TraceOpener.open(path: cox)
        }
        let v1 = dir.file("v1.csv", "Interval,Type,Distance(m),Time,Stroke,Rate,Speed(m/s),Split,Time(sec),Split(sec),HR\n1,D,20,0:00:17.0,3.5,12,1,7:05.4,17.0,425.4,116\n")
        assertTraceError(kind: .malformed, location: "v1.csv:2:18", contains: "whole number for Stroke") {
            _ = try TraceOpener.open(path: v1)
        }
        let header = "DateTime,TOTAL Time Since Start BoatCoach,Cumulative Stroke Count,Cumulative Distance(m),Heart Rate,Latitude,Longitude"
        let bc = dir.file("bc.csv", "Workout data for: x\n\(header)\n2017-09-25 25:22:24.1 GMT+02:00,0:00:01,0,0,0,0,0\n")
        assertTraceError(kind: .malformed, location: "bc.csv:3:1", contains: "expected a date and time") {
            _ = try TraceOpener.open(path: bc)
        }
        let noHeader = dir.file("nh.csv", "Workout data for: x\n1\n2\n3\n4\n5\n6\n")
        assertTraceError(kind: .malformed, location: "nh.csv:5:1", contains: "expected the header DateTime") {
            _ = try BoatCoachReader(path: noHeader)
        }
    }

    func testUnusableRowsAreSkippedAndImplausibleFiguresDropped() throws {
        let header = "DateTime,TOTAL Time Since Start BoatCoach,Cumulative Stroke Count,Cumulative Distance(m),Heart Rate,Latitude,Longitude"
        let text = """
            Workout data for: x
            \(header)
            2020-01-01 10:00:00.0 GMT-05:00,0:00:01,0,0,0,0,0
            ,0:00:02,1,5,0,0,0
            2020-01-01 10:00:02.0 GMT-05:00,0:00:03,1,8,300,49.1,16.5
            2020-01-01 10:00:01.0 GMT-05:00,0:00:04,2,9,0,49.1,16.5
            2020-01-01 10:00:04.0 GMT-05:00,0:00:05,999999,12,140,49.1,16.5
            2020-01-01 10:00:05.0 GMT-05:00,0:00:06,1000000,15,140,49.1,16.5
            2020-01-08 10:00:05.0 GMT-05:00,0:00:07,1000001,15,140,49.1,16.5

            """
        let (_, records, stats) = try open(dir.file("bc.csv", text))
        XCTAssertEqual(metadataValue(records, "start_utc"), "2020-01-01T15:00:00.000Z")
        XCTAssertEqual(stats.skipped(.unusableRow), 1)
        XCTAssertEqual(stats.firstSkippedLine(.unusableRow), 4)
        XCTAssertEqual(stats.skipped(.timeWentBackward), 1)
        XCTAssertEqual(stats.skipped(.implausibleValue), 1, "a week after the start")
        // Heart rate 300 is dropped; a jump of 999,998 strokes in 2 s is dropped, the next row counts from it.
        XCTAssertEqual(heartRates(records), [140, 140])
        XCTAssertEqual(references(records).map(\.strokeCount), [1, 1_000_000])
        XCTAssertEqual(stats.droppedValues, 2)
        assertOrdered(records)
    }

    func testStrokesBetweenRowsAreSpreadEvenly() throws {
        let text = """
            Interval,Type,Distance(m),Time,Stroke,Rate,Speed(m/s),Split,Time(sec),Split(sec),HR
            1,D,20,0:00:06.0,3,30,3.3,2:30.0,6.0,150.0,0
            2,D,40,0:00:10.0,5,30,5.0,1:40.0,10.0,100.0,0
            3,D,60,0:00:14.0,5,30,5.0,1:40.0,14.0,100.0,0

            """
        let (format, records, _) = try open(dir.file("v1.csv", text))
        XCTAssertEqual(format, .speedcoachV1)
        let strokes = references(records)
        XCTAssertEqual(strokes.count, 5)
        for (got, want) in zip(strokes.map(\.time), [2.0, 4, 6, 8, 10]) { XCTAssertEqual(got, want, accuracy: 1e-9) }
        for (got, want) in zip(strokes.map { $0.distance ?? -1 }, [20.0 / 3, 40.0 / 3, 20, 30, 40]) {
            XCTAssertEqual(got, want, accuracy: 1e-9)
        }
        XCTAssertEqual(strokes.map { $0.split ?? -1 }, [150, 150, 150, 100, 100])
        XCTAssertTrue(heartRates(records).isEmpty, "HR 0 is no reading")
        XCTAssertEqual(metadataValue(records, "device_total_distance_m"), "60.0")
    }
}
