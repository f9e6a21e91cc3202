import Foundation
import XCTest
import OarlogCore
import OarlogDSP
import OarlogExport
import OarlogPipeline
import OarlogTrace
import OarlogTestSupport

/// The real NK LiNK Logbook session (1:05 h, ~12.15 km, per-stroke GPS) through every exporter.
final class NKLogbookExportTests: XCTestCase {
    func exportNK(laps: LapRule = .rests(minimumPause: 30)) throws -> ExportRun {
        let path = try samplePath("rowingdata/nk_logbook.csv")
        var source = try TraceOpener.open(path: path)
        return try ExportRun.make(&source, in: try temporaryDirectory(self), laps: laps)
    }

    func testEveryExportAgreesWithTheSummary() throws {
        let run = try exportNK()
        let summary = run.summary
        let distance = try XCTUnwrap(summary.distance)
        let elapsed = try XCTUnwrap(summary.elapsed)

        try assertSchemaValid(run.gpx, schema: "gpx-1.1.xsd")
        try assertSchemaValid(run.tcx, schema: "TrainingCenterDatabasev2.xsd")

        let decoded = try decodeFIT(run.fit)
        XCTAssertEqual(decoded["integrity"] as? Bool, true)
        XCTAssertEqual((decoded["errors"] as? [Any])?.count, 0, "decoder errors: \(decoded["errors"] ?? "")")
        let session = try XCTUnwrap(messages(decoded, "session").first)
        XCTAssertEqual(session.string("sport"), "rowing")
        XCTAssertEqual(try XCTUnwrap(session.double("total_distance")), distance, accuracy: 0.006)
        XCTAssertEqual(try XCTUnwrap(session.double("total_elapsed_time")), elapsed, accuracy: 0.0006)
        XCTAssertEqual(session.double("total_cycles"), Double(summary.strokes))
        let laps = messages(decoded, "lap")
        XCTAssertEqual(session.double("num_laps"), Double(laps.count))
        XCTAssertEqual(laps.compactMap { $0.double("total_distance") }.reduce(0, +), distance, accuracy: 0.01 * Double(laps.count))
        XCTAssertEqual(laps.compactMap { $0.double("total_elapsed_time") }.reduce(0, +), elapsed, accuracy: 0.001 * Double(laps.count))
        XCTAssertEqual(laps.compactMap { $0.double("total_cycles") }.reduce(0, +), Double(summary.strokes))

        let records = messages(decoded, "record")
        let fixes = run.recorder.fixes
        let first = try XCTUnwrap(records.first), last = try XCTUnwrap(records.last)
        let semicircle = 180 / 2_147_483_648.0
        XCTAssertEqual(try XCTUnwrap(degrees(first.double("position_lat"))), fixes[0].latitude, accuracy: semicircle)
        XCTAssertEqual(try XCTUnwrap(degrees(last.double("position_long"))), fixes.last!.longitude, accuracy: semicircle)
        XCTAssertEqual(try XCTUnwrap(last.double("distance")), distance, accuracy: 0.006)

        let gpx = try String(contentsOfFile: run.gpx, encoding: .utf8)
        let tcx = try String(contentsOfFile: run.tcx, encoding: .utf8)
        XCTAssertEqual(count("<trkpt ", in: gpx), records.count)
        XCTAssertEqual(count("<Trackpoint>", in: tcx), records.count)
        XCTAssertEqual(count("<trkseg>", in: gpx), laps.count)
        XCTAssertEqual(count("<Lap StartTime=", in: tcx), laps.count)

        let rows = parseCSV(try String(contentsOfFile: run.csv, encoding: .utf8))
        XCTAssertEqual(rows.count - 1, summary.strokes)

        let geojson = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: run.geojson))) as? [String: Any])
        let features = try XCTUnwrap(geojson["features"] as? [[String: Any]])
        let trail = try XCTUnwrap((features.first?["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
        XCTAssertEqual(trail.count, records.count)

        // Against the device's own totals: the same strokes, distance within 1 % (the analyzer's
        // distance is measured along the fixes; measured +0.22 %).
        let deviceDistance = try XCTUnwrap(run.recorder.metadata["device_total_distance_m"].flatMap(Double.init))
        XCTAssertEqual(try XCTUnwrap(session.double("total_distance")), deviceDistance, accuracy: 0.01 * deviceDistance)
        XCTAssertEqual(session.double("total_cycles"), run.recorder.metadata["device_total_strokes"].flatMap(Double.init))

        print("NK: fixes \(fixes.count) records \(records.count) rejected \(summary.rejectedFixes) distance \(distance) elapsed \(elapsed) strokes \(summary.strokes) laps \(laps.count) device \(run.recorder.metadata["device_total_distance_m"] ?? "-") \(run.recorder.metadata["device_total_strokes"] ?? "-")")
        for l in laps { print("  lap", l.double("start_time") ?? 0, l.double("total_elapsed_time") ?? 0, l.double("total_distance") ?? 0, l.double("total_cycles") ?? 0, l.double("avg_cadence") ?? 0) }
    }

    /// Laps every 1000 m: 12 full laps and the rest; each full lap ends at the first fix at or past
    /// its mark.
    func testKilometreLaps() throws {
        let run = try exportNK(laps: .distance(1000))
        let distance = try XCTUnwrap(run.summary.distance)
        let decoded = try decodeFIT(run.fit)
        let laps = messages(decoded, "lap")
        let recordDistances = messages(decoded, "record").compactMap { $0.double("distance") }
        XCTAssertEqual(laps.count, Int(distance / 1000) + 1)
        var covered = 0.0
        for (i, lap) in laps.dropLast().enumerated() {
            covered += try XCTUnwrap(lap.double("total_distance"))
            XCTAssertEqual(lap.string("lap_trigger"), "distance")
            // Each lap ends at the first fix at or past its kilometre mark (FIT stores centimetres).
            let crossing = try XCTUnwrap(recordDistances.first { $0 >= 1000 * Double(i + 1) })
            XCTAssertEqual(covered, crossing, accuracy: 0.01 * Double(i + 1))
        }
        XCTAssertEqual(laps.last?.string("lap_trigger"), "session_end")
        let total = laps.compactMap { $0.double("total_distance") }.reduce(0, +)
        XCTAssertEqual(total, distance, accuracy: 0.01 * Double(laps.count))
        let rows = parseCSV(try String(contentsOfFile: run.csv, encoding: .utf8))
        XCTAssertEqual(Int(rows.last?[4] ?? ""), laps.count, "the last stroke is in the last lap")
    }
}
