import Foundation
import XCTest
import OarlogCore
import OarlogExport
import OarlogSimulator

/// A session with no GPS at all (accelerometer only): every export must still be valid, with
/// the strokes and no track.
final class NoGPSExportTests: XCTestCase {
    /// The simulator with its fixes taken out.
    struct WithoutFixes: RecordSource {
        var inner: BoatSimulator
        mutating func next() throws -> TraceRecord? {
            while let r = try inner.next() {
                if case .fix = r { continue }
                return r
            }
            return nil
        }
    }

    func testAccelerometerOnlySessionExportsStrokesWithoutATrack() throws {
        var source = WithoutFixes(inner: try BoatSimulator(configuration: SimulationConfiguration(minutes: 2, rate: 26)))
        let run = try ExportRun.make(&source, in: try temporaryDirectory(self))
        XCTAssertNil(run.summary.distance)
        XCTAssertGreaterThan(run.summary.strokes, 40)
        try assertSchemaValid(run.gpx, schema: "gpx-1.1.xsd")
        try assertSchemaValid(run.tcx, schema: "TrainingCenterDatabasev2.xsd")
        let decoded = try decodeFIT(run.fit)
        XCTAssertEqual(decoded["integrity"] as? Bool, true)
        XCTAssertEqual(messages(decoded, "record").count, 0)
        let session = try XCTUnwrap(messages(decoded, "session").first)
        XCTAssertEqual(session.double("total_cycles"), Double(run.summary.strokes))
        XCTAssertEqual(session.double("total_distance"), 0)
        let rows = parseCSV(try String(contentsOfFile: run.csv, encoding: .utf8))
        XCTAssertEqual(rows.count - 1, run.summary.strokes)
        XCTAssertEqual(rows.last?.last, "", "no position without GPS")
        let geojson = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: run.geojson))) as? [String: Any])
        let features = try XCTUnwrap(geojson["features"] as? [[String: Any]])
        XCTAssertEqual(features.count, 1, "the trail only, with no geometry")
        XCTAssertTrue(features[0]["geometry"] is NSNull)
    }
}
