import Foundation
import XCTest
import OarlogCore
import OarlogDSP
import OarlogExport
import OarlogPipeline
import OarlogSimulator

/// A simulated 6-minute session with a rest (150 s at 24 spm, 60 s rest, 150 s at 28 spm) through
/// the pipeline into every exporter; each file is read back by an independent reader and
/// compared with the pipeline's own figures and the simulator's ground truth.
final class SimulatedExportTests: XCTestCase {
    struct Session {
        var run: ExportRun
        var truth: GroundTruth
    }

    func simulate() throws -> Session {
        var configuration = SimulationConfiguration(duration: 360, profile: SimulationProfile(
            name: "piece-rest-piece",
            segments: [.rowing(150, rate: 24, power: 0.9), .rest(60), .rowing(150, rate: 28, power: 1.0)],
            flyingStart: true))
        configuration.seed = 7
        var simulator = try BoatSimulator(configuration: configuration)
        let run = try ExportRun.make(&simulator, in: try temporaryDirectory(self))
        return Session(run: run, truth: simulator.groundTruth)
    }

    /// The first ground-truth catch after the rest (where lap 2 must begin).
    func firstCatchAfterRest(_ truth: GroundTruth) -> Double? {
        zip(truth.strokes, truth.strokes.dropFirst()).first { $1.catchTime - $0.catchTime > 30 }?.1.catchTime
    }

    func testFITDecodesWithGarminSDK() throws {
        let s = try simulate()
        let run = s.run, summary = run.summary
        let decoded = try decodeFIT(run.fit)
        XCTAssertEqual(decoded["is_fit"] as? Bool, true)
        XCTAssertEqual(decoded["integrity"] as? Bool, true, "FIT CRC / size check failed")
        XCTAssertEqual((decoded["errors"] as? [Any])?.count, 0, "decoder errors: \(decoded["errors"] ?? "")")

        let fileID = messages(decoded, "file_id")
        XCTAssertEqual(fileID.first?.string("type"), "activity")

        let sessions = messages(decoded, "session")
        XCTAssertEqual(sessions.count, 1)
        let session = try XCTUnwrap(sessions.first)
        XCTAssertEqual(session.string("sport"), "rowing")
        XCTAssertEqual(session.string("sub_sport"), "generic")
        let distance = try XCTUnwrap(summary.distance)
        let elapsed = try XCTUnwrap(summary.elapsed)
        XCTAssertEqual(try XCTUnwrap(session.double("total_distance")), distance, accuracy: 0.006)
        XCTAssertEqual(try XCTUnwrap(session.double("total_elapsed_time")), elapsed, accuracy: 0.0006)
        XCTAssertEqual(session.double("total_cycles"), Double(summary.strokes))
        XCTAssertEqual(session.double("avg_cadence"), summary.averageStrokeRate.map { $0.rounded() })
        XCTAssertEqual(session.double("num_laps"), 2)

        // Laps: one per piece, split at the first catch after the rest; they partition the session.
        let laps = messages(decoded, "lap")
        XCTAssertEqual(laps.count, 2, "one lap per piece")
        let lapDistance = laps.compactMap { $0.double("total_distance") }.reduce(0, +)
        let lapElapsed = laps.compactMap { $0.double("total_elapsed_time") }.reduce(0, +)
        XCTAssertEqual(lapDistance, distance, accuracy: 0.02)
        XCTAssertEqual(lapElapsed, elapsed, accuracy: 0.002)
        XCTAssertEqual(laps.compactMap { $0.double("total_cycles") }.reduce(0, +), Double(summary.strokes))
        let origin = try XCTUnwrap(ExportTextParse.startUTC(run.recorder))
        let secondStart = try XCTUnwrap(unixTime(laps[1].double("start_time"))) - origin
        let truthBoundary = try XCTUnwrap(firstCatchAfterRest(s.truth))
        // FIT start times are whole seconds (rounded down); the detector's catch within 0.3 s.
        XCTAssertEqual(secondStart, truthBoundary, accuracy: 1.3, "lap 2 starts at the first catch after the rest")
        XCTAssertEqual(laps.map { $0.string("sport") }, ["rowing", "rowing"])

        // Records: one per used fix, positions as the fixes, distance ending at the summary's.
        let records = messages(decoded, "record")
        let fixes = run.recorder.fixes
        XCTAssertEqual(records.count, fixes.count - summary.rejectedFixes)
        let first = try XCTUnwrap(records.first), last = try XCTUnwrap(records.last)
        let semicircle = 180 / 2_147_483_648.0
        XCTAssertEqual(try XCTUnwrap(degrees(first.double("position_lat"))), fixes[0].latitude, accuracy: semicircle)
        XCTAssertEqual(try XCTUnwrap(degrees(first.double("position_long"))), fixes[0].longitude, accuracy: semicircle)
        XCTAssertEqual(try XCTUnwrap(degrees(last.double("position_lat"))), fixes.last!.latitude, accuracy: semicircle)
        XCTAssertEqual(try XCTUnwrap(degrees(last.double("position_long"))), fixes.last!.longitude, accuracy: semicircle)
        XCTAssertEqual(try XCTUnwrap(last.double("distance")), distance, accuracy: 0.006)
        XCTAssertEqual(try XCTUnwrap(unixTime(first.double("timestamp"))), origin + fixes[0].time, accuracy: 1)

        // Cadence = stroke rate: the profile's rate mid-piece, 0 in the middle of the rest.
        func cadence(at t: Double) -> Double? {
            records.first { (unixTime($0.double("timestamp")) ?? 0) - origin >= t }?.double("cadence")
        }
        XCTAssertEqual(try XCTUnwrap(cadence(at: 100)), 24, accuracy: 1)
        XCTAssertEqual(try XCTUnwrap(cadence(at: 320)), 28, accuracy: 1)
        XCTAssertEqual(cadence(at: 185), 0)
        print("FIT (simulated): records \(records.count) fixes \(fixes.count) distance \(distance) elapsed \(elapsed) lap2 \(secondStart) truth \(truthBoundary) strokes \(summary.strokes)")
    }

    func testGPXAndTCXValidateAgainstTheSchemas() throws {
        let s = try simulate()
        let run = s.run
        try assertSchemaValid(run.gpx, schema: "gpx-1.1.xsd")
        try assertSchemaValid(run.tcx, schema: "TrainingCenterDatabasev2.xsd")
        let points = run.recorder.fixes.count - run.summary.rejectedFixes
        let gpx = try String(contentsOfFile: run.gpx, encoding: .utf8)
        XCTAssertEqual(count("<trkpt ", in: gpx), points)
        XCTAssertEqual(count("<trkseg>", in: gpx), 2, "one track segment per lap")
        // Cadence from the first catch on (0 when not rowing); none before the first stroke.
        let firstCatch = try XCTUnwrap(run.recorder.strokes.first?.stroke.catchTime)
        XCTAssertEqual(count("<gpxtpx:cad>", in: gpx), run.recorder.fixes.filter { $0.time >= firstCatch }.count)
        let tcx = try String(contentsOfFile: run.tcx, encoding: .utf8)
        XCTAssertEqual(count("<Trackpoint>", in: tcx), points)
        XCTAssertEqual(count("<Lap StartTime=", in: tcx), 2)
        // The last track point's distance is the summary's distance.
        let lastDistance = tcx.components(separatedBy: "<DistanceMeters>").last?.components(separatedBy: "<").first
        XCTAssertEqual(try XCTUnwrap(lastDistance.flatMap(Double.init)), try XCTUnwrap(run.summary.distance), accuracy: 0.006)
    }

    func testStrokeCSVMatchesTheStrokeList() throws {
        let s = try simulate()
        let run = s.run
        let rows = parseCSV(try String(contentsOfFile: run.csv, encoding: .utf8))
        XCTAssertEqual(rows.first, StrokeCSVExporter.oarlogHeader)
        let strokes = run.recorder.strokes
        XCTAssertEqual(rows.count - 1, strokes.count)
        XCTAssertEqual(strokes.count, run.summary.strokes)
        let column = Dictionary(uniqueKeysWithValues: StrokeCSVExporter.oarlogHeader.enumerated().map { ($1, $0) })
        let boundary = try XCTUnwrap(firstCatchAfterRest(s.truth))
        for (row, m) in zip(rows.dropFirst(), strokes) {
            XCTAssertEqual(Int(row[column["Stroke"]!]), m.stroke.index)
            XCTAssertEqual(try XCTUnwrap(Double(row[column["Time (s)"]!])), m.stroke.catchTime, accuracy: 0.0005)
            if let d = m.distance { XCTAssertEqual(try XCTUnwrap(Double(row[column["Distance (m)"]!])), d, accuracy: 0.005) }
            if let r = m.stroke.strokeRate { XCTAssertEqual(try XCTUnwrap(Double(row[column["Stroke Rate (spm)"]!])), r, accuracy: 0.005) }
            else { XCTAssertEqual(row[column["Stroke Rate (spm)"]!], "") }
            if let v = m.split { XCTAssertEqual(try XCTUnwrap(Double(row[column["Split (s/500m)"]!])), v, accuracy: 0.005) }
            XCTAssertEqual(try XCTUnwrap(Double(row[column["Drive (s)"]!])), m.stroke.driveDuration, accuracy: 0.0005)
            XCTAssertEqual(Int(row[column["Lap"]!]), m.stroke.catchTime < boundary - 1 ? 1 : 2)
            XCTAssertNotNil(Double(row[column["Latitude"]!]))
            // Stroke quality: the stroke's own figures, empty without them.
            if let q = m.quality {
                XCTAssertEqual(try XCTUnwrap(Double(row[column["Check (m/s2)"]!])), Double(q.check), accuracy: 0.0005)
                XCTAssertEqual(try XCTUnwrap(Double(row[column["Speed Fluctuation (m/s)"]!])), q.speedFluctuation, accuracy: 0.0005)
                if let p = q.speedFluctuationPercent {
                    XCTAssertEqual(try XCTUnwrap(Double(row[column["Speed Fluctuation (%)"]!])), p, accuracy: 0.005)
                    XCTAssertEqual(try XCTUnwrap(Double(row[column["Speed Min (m/s)"]!])), q.minimumSpeed ?? .nan, accuracy: 0.0005)
                }
            } else {
                XCTAssertEqual(row[column["Check (m/s2)"]!], "")
            }
            if let r = m.stroke.driveRecoveryRatio { XCTAssertEqual(try XCTUnwrap(Double(row[column["Drive/Recovery"]!])), r, accuracy: 0.0005) }
        }
        XCTAssertGreaterThan(strokes.filter { $0.quality?.speedFluctuationPercent != nil }.count, strokes.count / 2,
                             "most strokes have a quality anchored to GPS")
        let rowingdata = parseCSV(try String(contentsOfFile: run.rowingdataCSV, encoding: .utf8))
        XCTAssertEqual(rowingdata.first, StrokeCSVExporter.rowingdataHeader)
        XCTAssertEqual(rowingdata.count - 1, strokes.count)
        let speedColumn = try XCTUnwrap(StrokeCSVExporter.rowingdataHeader.firstIndex(of: " AverageBoatSpeed (m/s)"))
        for (row, m) in zip(rowingdata.dropFirst(), strokes) {
            XCTAssertEqual(try XCTUnwrap(Double(row[speedColumn])), m.quality?.meanSpeed ?? 0, accuracy: 0.0005)
        }
    }

    func testGeoJSONTrailHasStartAndEnd() throws {
        let s = try simulate()
        let run = s.run
        let data = try Data(contentsOf: URL(fileURLWithPath: run.geojson))
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(root.string("type"), "FeatureCollection")
        let features = try XCTUnwrap(root["features"] as? [[String: Any]])
        XCTAssertEqual(features.count, 3)
        let trail = try XCTUnwrap(features[0]["geometry"] as? [String: Any])
        XCTAssertEqual(trail.string("type"), "LineString")
        let coordinates = try XCTUnwrap(trail["coordinates"] as? [[Double]])
        let fixes = run.recorder.fixes
        XCTAssertEqual(coordinates.count, fixes.count - run.summary.rejectedFixes)
        XCTAssertEqual(coordinates[0][0], fixes[0].longitude, accuracy: 5e-8)
        XCTAssertEqual(coordinates[0][1], fixes[0].latitude, accuracy: 5e-8)
        let properties = try XCTUnwrap(features[0]["properties"] as? [String: Any])
        XCTAssertEqual(try XCTUnwrap(properties.double("distance_m")), try XCTUnwrap(run.summary.distance), accuracy: 0.006)
        XCTAssertEqual(properties.double("strokes"), Double(run.summary.strokes))
        for (feature, expected, kind) in [(features[1], coordinates.first!, "start"), (features[2], coordinates.last!, "end")] {
            let geometry = try XCTUnwrap(feature["geometry"] as? [String: Any])
            XCTAssertEqual(geometry.string("type"), "Point")
            XCTAssertEqual(geometry["coordinates"] as? [Double], expected)
            XCTAssertEqual((feature["properties"] as? [String: Any])?.string("kind"), kind)
        }
    }
}

enum ExportTextParse {
    static func startUTC(_ recorder: PipelineRecorder) -> Double? {
        recorder.metadata["start_utc"].flatMap(UTCTime.parseISO8601)
    }
}
