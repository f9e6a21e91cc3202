import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import OarlogCore
@testable import OarlogTrace
import OarlogTestSupport
import XCTest

/// The TCX and GPX readers against the files' own figures, read independently here with
/// Foundation's XMLParser (libxml2), not with the scanner under test.
final class TCXGPXReaderTests: XCTestCase {
    private let directory = TemporaryDirectory()
    override func tearDown() { directory.remove() }

    // MARK: The file's own figures

    /// What a TCX file says, read with XMLParser: each lap's totals, each trackpoint's values.
    struct TCXFigures {
        struct Lap { var distance = 0.0, time = 0.0, averageHeartRate: Double? }
        struct Point { var time: Double?, latitude: Double?, longitude: Double?, heartRate: Double?, distance: Double? }
        var laps: [Lap] = []
        var points: [Point] = []

        var lapDistance: Double { laps.reduce(0) { $0 + $1.distance } }
        /// The device's distance over the stretches without a pause of more than 30 s: its
        /// `DistanceMeters` increments (a lap that restarts at 0 counts from 0).
        var deviceDistanceWithoutPauses: Double {
            zip(points, points.dropFirst()).reduce(0) { sum, pair in
                guard let t0 = pair.0.time, let t1 = pair.1.time, t1 - t0 <= 30,
                      let d0 = pair.0.distance, let d1 = pair.1.distance else { return sum }
                return sum + (d1 >= d0 ? d1 - d0 : d1)
            }
        }
    }

    final class TCXParser: NSObject, XMLParserDelegate {
        var figures = TCXFigures()
        private var path: [String] = []
        private var text = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            path.append(name)
            text = ""
            if name == "Lap" { figures.laps.append(.init()) }
            if name == "Trackpoint" { figures.points.append(.init()) }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let parent = path.count >= 2 ? path[path.count - 2] : ""
            let value = Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
            let inPoint = path.contains("Trackpoint")
            switch (name, parent) {
            case ("DistanceMeters", "Lap"): figures.laps[figures.laps.count - 1].distance = value ?? .nan
            case ("TotalTimeSeconds", "Lap"): figures.laps[figures.laps.count - 1].time = value ?? .nan
            case ("Value", "AverageHeartRateBpm"): figures.laps[figures.laps.count - 1].averageHeartRate = value
            case ("Time", "Trackpoint"):
                figures.points[figures.points.count - 1].time = UTCTime.parseISO8601(text.trimmingCharacters(in: .whitespaces))
            case ("LatitudeDegrees", _) where inPoint: figures.points[figures.points.count - 1].latitude = value
            case ("LongitudeDegrees", _) where inPoint: figures.points[figures.points.count - 1].longitude = value
            case ("Value", "HeartRateBpm") where inPoint: figures.points[figures.points.count - 1].heartRate = value
            case ("DistanceMeters", "Trackpoint"): figures.points[figures.points.count - 1].distance = value
            default: break
            }
            path.removeLast()
            text = ""
        }
    }

    private func figures(_ path: String) throws -> TCXFigures {
        let parser = try XCTUnwrap(XMLParser(contentsOf: URL(fileURLWithPath: path)))
        let delegate = TCXParser()
        parser.delegate = delegate
        XCTAssertTrue(parser.parse(), "XMLParser could not read \(path)")
        return delegate.figures
    }

    // MARK: What the reader gives

    struct Read {
        var records: [TraceRecord]
        var statistics: TraceReadStatistics
        var fixes: [GPSFix] { records.compactMap { if case .fix(let f) = $0 { return f } else { return nil } } }
        var heartRates: [HeartRateSample] { records.compactMap { if case .heartRate(let h) = $0 { return h } else { return nil } } }
        var notes: [Note] { records.compactMap { if case .note(let n) = $0 { return n } else { return nil } } }
        var gaps: [Gap] { records.compactMap { if case .gap(let g) = $0 { return g } else { return nil } } }
        func metadata(_ key: String) -> String? {
            records.lazy.compactMap { if case .metadata(key, let v) = $0 { return v } else { return nil } }.first
        }
        var meanHeartRate: Double { heartRates.reduce(0) { $0 + $1.bpm } / Double(heartRates.count) }

        /// The path along the fixes on a sphere of the mean Earth radius, not across a `.gap`.
        var pathLength: Double {
            var total = 0.0
            var last: GPSFix?
            for r in records {
                switch r {
                case .gap: last = nil
                case .fix(let f):
                    if let p = last { total += Self.haversine(p, f) }
                    last = f
                default: break
                }
            }
            return total
        }

        static func haversine(_ a: GPSFix, _ b: GPSFix) -> Double {
            let r = 6_371_008.8, rad = Double.pi / 180
            let dLat = (b.latitude - a.latitude) * rad, dLon = (b.longitude - a.longitude) * rad
            let h = pow(sin(dLat / 2), 2) + cos(a.latitude * rad) * cos(b.latitude * rad) * pow(sin(dLon / 2), 2)
            return 2 * r * asin(min(1, h.squareRoot()))
        }
    }

    private func readTCX(_ path: String, anySport: Bool = false) throws -> Read {
        var reader = try TCXReader(path: path, options: TraceOpenOptions(anySport: anySport))
        let records = try readAll(&reader)
        return Read(records: records, statistics: reader.statistics)
    }

    private func readGPX(_ path: String, anySport: Bool = false) throws -> Read {
        var reader = try GPXReader(path: path, options: TraceOpenOptions(anySport: anySport))
        let records = try readAll(&reader)
        return Read(records: records, statistics: reader.statistics)
    }

    private func device(_ name: String) -> String { TestPaths.fixture("devices/" + name) }
    private func xml(_ name: String) -> String { TestPaths.fixture("xml/" + name) }

    /// Checks common to every TCX: records in time order from 0, a fix per trackpoint with a
    /// position, the laps' distance as the device's total, the path near the device's distance.
    private func checkTCX(_ name: String, lapSum: Double, pathTolerance: Double, line: UInt = #line) throws -> (Read, TCXFigures) {
        let path = device(name)
        XCTAssertEqual(try TraceOpener.detectFormat(path: path), .tcx, line: line)
        let read = try readTCX(path)
        let file = try figures(path)
        XCTAssertEqual(file.lapDistance, lapSum, accuracy: 1e-9, "the laps' DistanceMeters, summed by hand", line: line)
        XCTAssertEqual(read.metadata("device_total_distance_m").flatMap(Double.init) ?? .nan, file.lapDistance, accuracy: 1e-9, line: line)
        XCTAssertEqual(read.metadata("device_intervals"), String(file.laps.count), line: line)
        XCTAssertEqual(read.metadata("device_elapsed_s").flatMap(Double.init) ?? .nan, file.laps.reduce(0) { $0 + $1.time },
                       accuracy: 1e-9, line: line)
        XCTAssertEqual(read.fixes.count, file.points.filter { $0.latitude != nil && $0.longitude != nil }.count, line: line)
        XCTAssertEqual(read.fixes.first?.time, 0, line: line)
        let times = read.records.compactMap(\.time)
        XCTAssertTrue(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "records in time order", line: line)
        let relative = abs(read.pathLength - file.deviceDistanceWithoutPauses) / file.deviceDistanceWithoutPauses
        XCTAssertLessThan(relative, pathTolerance, "path \(read.pathLength) m against the device's \(file.deviceDistanceWithoutPauses) m", line: line)
        XCTAssertEqual(read.statistics.fixRows, read.fixes.count, line: line)
        return (read, file)
    }

    // MARK: TCX

    func testCrewNerdTCX() throws {
        let (read, file) = try checkTCX("crewnerddata.tcx", lapSum: 1877 + 6000 + 2342, pathTolerance: 0.02)
        // The path is 0.3 % over the laps' own total too (10,219 m).
        XCTAssertLessThan(abs(read.pathLength - 10_219) / 10_219, 0.02)
        XCTAssertEqual(read.metadata("start_utc"), "2016-04-02T08:15:08.000Z")  // Id 10:15:08+02:00
        XCTAssertEqual(read.metadata("device"), "CrewNerd")
        XCTAssertEqual(read.metadata("device_firmware"), "4.62")
        XCTAssertEqual(read.metadata("device_total_strokes"), "1223")  // Steps 197 + 728 + 298
        XCTAssertEqual(read.metadata("device_interval_2_distance_m"), "6000.0")
        XCTAssertEqual(read.notes.map(\.text), ["Lap 1: Just Go", "Lap 2: Distance (6000 m)", "Lap 3: Just Go"])
        // Lap 2 starts at 10:34:55, 1187 s after the start; lap 3 at 11:03:02, 2874 s.
        XCTAssertEqual(read.notes.map(\.time), [0, 1187, 2874])
        // Between the laps the app recorded nothing: 10:26:30 → 10:34:55 and 11:02:17 → 11:03:02.
        XCTAssertEqual(read.gaps.map { $0.end - $0.start }, [505, 45])
        // Heart rate: the laps' averages (142, 175, 137 bpm) weighted by their time, against the
        // trackpoints' mean (the laps' figures are whole numbers and leave the pauses out).
        let lapMean = file.laps.reduce(0) { $0 + $1.time * ($1.averageHeartRate ?? .nan) } / file.laps.reduce(0) { $0 + $1.time }
        XCTAssertEqual(lapMean, 524_808.0 / 3351, accuracy: 1e-9)
        XCTAssertEqual(read.meanHeartRate, lapMean, accuracy: 1.5)
        XCTAssertEqual(read.heartRates.count, file.points.filter { ($0.heartRate ?? 0) >= 20 }.count)
        XCTAssertEqual(Double(read.metadata("device_avg_heart_rate_bpm") ?? "") ?? .nan, lapMean, accuracy: 1e-9)
    }

    func testRowingInMotionTCX() throws {
        // The raw path is 2.2 % over the device: 336 m of it is the position wandering while
        // the device's distance stood still (the boat at rest); the pipeline's still detection
        // leaves that out (`oarlog replay` gives 13,633 m, 2.0 % over).
        let (read, file) = try checkTCX("rowinginmotionexample.TCX", lapSum: 13_368.854_492_187_5, pathTolerance: 0.025)
        // The Id is local time (Boston, UTC−4 in October), the trackpoints UTC without a zone.
        XCTAssertEqual(read.metadata("start_utc"), "2015-10-17T12:45:55.000Z")
        XCTAssertEqual(read.metadata("start_local"), "2015-10-17T08:45:54")
        XCTAssertNil(read.notes.first, "one lap: no lap notes")
        // No lap heart rate in this file: the trackpoints' own mean, as XMLParser reads them.
        let beats = file.points.compactMap(\.heartRate).filter { $0 >= 20 }
        XCTAssertGreaterThan(beats.count, 5000)
        XCTAssertEqual(read.heartRates.count, beats.count)
        XCTAssertEqual(read.meanHeartRate, beats.reduce(0, +) / Double(beats.count), accuracy: 1e-9)
        XCTAssertEqual(read.fixes.last?.utc ?? 0, file.points.last?.time ?? .nan, accuracy: 1e-9)
    }

    func testRowingdataTCXWithPlaceholderHeartRate() throws {
        let (read, file) = try checkTCX("2x2km.tcx", lapSum: 9474, pathTolerance: 0.02)
        XCTAssertLessThan(abs(read.pathLength - 9474) / 9474, 0.02)
        XCTAssertEqual(read.metadata("start_utc"), "2024-12-13T07:14:02.999Z")
        // Every heart rate in the file is 1, a placeholder: no heart-rate record, each counted.
        XCTAssertTrue(file.points.allSatisfy { $0.heartRate == 1 })
        XCTAssertEqual(read.heartRates.count, 0)
        XCTAssertEqual(read.statistics.droppedValues, file.points.count + 2)  // and the lap's average and maximum
        XCTAssertNil(read.metadata("device_avg_heart_rate_bpm"))
    }

    func testIntervalTCXWithTheRestsCutOut() throws {
        // The app cut the rests out: two pauses of 158 s and 163 s across which the position
        // jumps 506 m. The laps' 750 m also holds 3.22 m before the first trackpoint and the two
        // steps across the cuts (7.22 m, 6.95 m): the path of the kept fixes is 2.4 % short of
        // 750 m and within 0.1 % of the device's distance over the same stretches.
        let (read, file) = try checkTCX("3x250m.tcx", lapSum: 750, pathTolerance: 0.02)
        XCTAssertEqual(file.deviceDistanceWithoutPauses, 750.29 - 3.22 - (256.12 - 248.90) - (502.17 - 495.22), accuracy: 1e-6)
        XCTAssertEqual(read.gaps.map { $0.end - $0.start }, [158, 163])  // 09:36:24 → 09:39:02, 09:39:58 → 09:42:41
        XCTAssertTrue(read.gaps.allSatisfy { $0.sensor == .gps })
        XCTAssertEqual(read.meanHeartRate, 168, accuracy: 1.0, "the lap's AverageHeartRateBpm")
        XCTAssertEqual(read.heartRates.count, 94)
    }

    func testRunningAndBikingAreRefusedUnlessAnySport() throws {
        let path = xml("running.tcx")
        XCTAssertEqual(try TraceOpener.detectFormat(path: path), .tcx)
        assertTraceError(kind: .unsupportedFormat, location: path + ":4",
                         contains: "not a rowing activity (Sport=\"Running\"); pass --any-sport to read it anyway") {
            _ = try TCXReader(path: path)
        }
        let read = try readTCX(path, anySport: true)
        XCTAssertEqual(read.metadata("activity_sport"), "Running")
        XCTAssertEqual(read.fixes.map(\.time), [0, 5, 10])
        XCTAssertEqual(read.fixes.map(\.speed), [3, 3, 3])
        XCTAssertEqual(read.heartRates.map(\.bpm), [130, 134, 138])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let biking = directory.file("biking.tcx", text.replacingOccurrences(of: "Sport=\"Running\"", with: "Sport=\"Biking\""))
        assertTraceError(kind: .unsupportedFormat, location: biking + ":4", contains: "(Sport=\"Biking\")") {
            _ = try TCXReader(path: biking)
        }
        let other = directory.file("other.tcx", text.replacingOccurrences(of: "Sport=\"Running\"", with: "Sport=\"Other\""))
        XCTAssertEqual(try readTCX(other).fixes.count, 3)
    }

    func testCutOffAndSummaryOnlyTCXAreClearErrors() throws {
        let text = try String(contentsOfFile: device("3x250m.tcx"), encoding: .utf8)
        let cut = directory.file("cut.tcx", String(text.prefix(3000)))
        do {
            _ = try TCXReader(path: cut)
            XCTFail("a cut-off file was read")
        } catch let e as TraceError {
            XCTAssertEqual(e.kind, .malformed)
            XCTAssertNotNil(e.line)
            XCTAssertTrue(e.message.contains("the file ends inside <"), e.description)
        }
        let summary = directory.file("summary.tcx", """
            <?xml version="1.0"?><TrainingCenterDatabase><Activities><Activity Sport="Other"><Id>2020-01-01T00:00:00Z</Id>
            <Lap StartTime="2020-01-01T00:00:00Z"><TotalTimeSeconds>60</TotalTimeSeconds><DistanceMeters>250</DistanceMeters></Lap>
            </Activity></Activities></TrainingCenterDatabase>
            """)
        assertTraceError(kind: .empty, location: summary, contains: "lap summaries only") { _ = try TCXReader(path: summary) }
    }

    // MARK: GPX

    /// Oarlog's own GPX export of the NK LiNK Logbook sample read back: the NK reader's fixes.
    func testOarlogGPXExportRoundTrip() throws {
        var nk = try NKLogbookReader(path: try TestPaths.sample("rowingdata/nk_logbook.csv"))
        let original = try readAll(&nk).compactMap { if case .fix(let f) = $0 { return f } else { return nil } }
        let path = xml("nk_logbook.oarlog.gpx")
        XCTAssertEqual(try TraceOpener.detectFormat(path: path), .gpx)
        let read = try readGPX(path)
        XCTAssertEqual(read.fixes.count, original.count)
        XCTAssertGreaterThan(original.count, 1000)
        XCTAssertEqual(read.metadata("device"), "oarlog")
        XCTAssertEqual(read.metadata("activity_sport"), "rowing")
        let first = try XCTUnwrap(original.first?.utc)
        for (a, b) in zip(original, read.fixes) {
            // The exporter writes 7 decimals of a degree, milliseconds (truncated), 3 decimals of m/s.
            XCTAssertEqual(b.latitude, a.latitude, accuracy: 0.5e-7 + 1e-12)
            XCTAssertEqual(b.longitude, a.longitude, accuracy: 0.5e-7 + 1e-12)
            XCTAssertEqual(b.utc ?? .nan, a.utc ?? .nan, accuracy: 0.001)
            XCTAssertEqual(b.time, (a.utc ?? .nan) - first, accuracy: 0.001, "times from the first fix, the export's start")
            XCTAssertEqual(b.speed ?? .nan, a.speed ?? .nan, accuracy: 0.0005 + 1e-12)
        }
    }

    func testStravaStyleGPXWithHeartRateAndTwoSegments() throws {
        let read = try readGPX(xml("strava-style.gpx"))
        XCTAssertEqual(read.metadata("start_utc"), "2024-05-04T07:00:00.000Z")
        XCTAssertEqual(read.metadata("session_name"), "Morning Row & drills")
        XCTAssertEqual(read.metadata("device"), "StravaGPX")
        let firstSegment: [Double] = (0..<10).map { Double(4 * $0) }
        let secondSegment: [Double] = (0..<5).map { Double(96 + 4 * $0) }
        XCTAssertEqual(read.fixes.map(\.time), firstSegment + secondSegment)
        XCTAssertEqual(read.fixes.map(\.altitude), Array(repeating: 5, count: 15))
        XCTAssertEqual(read.notes, [Note(time: 0, text: "Segment 1"), Note(time: 96, text: "Segment 2")])
        XCTAssertEqual(read.gaps.map { [$0.start, $0.end] }, [[36, 96]])
        // 120, 122 … 138 and 140 … 146: (1290 + 572) / 14; the 0 is a placeholder, no record.
        XCTAssertEqual(read.heartRates.count, 14)
        XCTAssertEqual(read.meanHeartRate, 1862.0 / 14, accuracy: 1e-9)
        XCTAssertEqual(read.statistics.droppedValues, 1)
        // 13 steps of 0.0001° of latitude, none across the pause.
        XCTAssertEqual(read.pathLength, 13 * 0.0001 * Double.pi / 180 * 6_371_008.8, accuracy: 1e-6)
    }

    func testGPX10WithDoctypeSpeedSatellitesAndFixMode() throws {
        let read = try readGPX(xml("gpx10.gpx"))
        XCTAssertEqual(read.metadata("source_format"), "GPX 1.0")
        XCTAssertEqual(read.metadata("start_utc"), "2010-06-12T08:59:58.000Z")  // gpx/time, 2 s before the first point
        XCTAssertEqual(read.fixes.map(\.time), [2, 3, 5])  // the point with fix "none" gives no fix
        XCTAssertEqual(read.fixes.map(\.speed), [3.5, 3.4, nil])  // 99 m/s is no boat's speed
        XCTAssertEqual(read.fixes.map(\.satellitesUsed), [8, 4, 9])
        XCTAssertEqual(read.fixes.map(\.mode), [.threeD, .twoD, .threeD])
        XCTAssertEqual(read.statistics.skipped(.noPosition), 1)
        XCTAssertEqual(read.statistics.firstSkippedLine(.noPosition), 10)
        XCTAssertEqual(read.statistics.droppedValues, 1)
    }

    func testNonRowingTrackTypesAreRefusedUnlessAnySport() throws {
        let text = try String(contentsOfFile: xml("strava-style.gpx"), encoding: .utf8)
        for type in ["running", "Ride", "Trail Running", "cycling"] {
            let path = directory.file("t.gpx", text.replacingOccurrences(of: "<type>rowing</type>", with: "<type>\(type)</type>"))
            assertTraceError(kind: .unsupportedFormat, location: path + ":8",
                             contains: "not a rowing activity (type \"\(type)\"); pass --any-sport to read it anyway") {
                _ = try GPXReader(path: path)
            }
            XCTAssertEqual(try readGPX(path, anySport: true).fixes.count, 15)
        }
        // A number (older Strava files) says nothing clear: read.
        let numbered = directory.file("n.gpx", text.replacingOccurrences(of: "<type>rowing</type>", with: "<type>9</type>"))
        XCTAssertEqual(try readGPX(numbered).fixes.count, 15)
    }

    func testGPXWithoutTimesIsAClearError() {
        let path = directory.file("route.gpx", """
            <gpx version="1.1" creator="x"><trk><trkseg><trkpt lat="1" lon="2"/><trkpt lat="1.1" lon="2"/></trkseg></trk></gpx>
            """)
        assertTraceError(kind: .empty, location: path, contains: "no track point with a time") { _ = try GPXReader(path: path) }
        let wrongRoot = directory.file("root.gpx", "<gpx:not/>\n")
        XCTAssertThrowsError(try GPXReader(path: wrongRoot))
    }
}
