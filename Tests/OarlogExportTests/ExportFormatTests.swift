import XCTest
import OarlogCore
import OarlogExport

/// Names, lap rules and text formatting the exporters rely on.
final class ExportFormatTests: XCTestCase {
    func testDefaultOutputNames() {
        XCTAssertEqual(ExportFormat.gpx.defaultOutputPath(forInput: "data/session.csv"), "data/session.gpx")
        XCTAssertEqual(ExportFormat.csv.defaultOutputPath(forInput: "data/session.csv"), "data/session.strokes.csv")
        XCTAssertEqual(ExportFormat.fit.defaultOutputPath(forInput: "dir.v2/trace"), "dir.v2/trace.fit")
        XCTAssertEqual(ExportFormat.geojson.defaultOutputPath(forInput: ".hidden"), ".hidden.geojson")
    }

    func testLapRuleParsing() {
        XCTAssertEqual(LapRule(parsing: "rests"), .rests(minimumPause: 30))
        XCTAssertEqual(LapRule(parsing: "rests:45s"), .rests(minimumPause: 45))
        XCTAssertEqual(LapRule(parsing: "every:500m"), .distance(500))
        XCTAssertEqual(LapRule(parsing: "whole"), .whole)
        XCTAssertNil(LapRule(parsing: "every:0"))
        XCTAssertNil(LapRule(parsing: "sometimes"))
    }

    func testTimesAndNumbers() {
        // 2026-05-02T07:00:00Z = 1777705200 s (checked with `date -u -d @1777705200`).
        XCTAssertEqual(ExportText.iso8601(1_777_705_200.25), "2026-05-02T07:00:00.250Z")
        XCTAssertEqual(UTCTime.parseISO8601("2026-05-02T07:00:00.250Z"), 1_777_705_200.25)
        XCTAssertEqual(UTCTime.parseISO8601("2026-05-02T09:00:00+02:00"), 1_777_705_200)
        XCTAssertEqual(UTCTime.parseISO8601("1969-12-31T23:59:59Z"), -1)
        XCTAssertNil(UTCTime.parseISO8601("2026-13-02T07:00:00Z"))
        XCTAssertEqual(ExportText.fixed(-0.00004, 3), "0.000")
        XCTAssertEqual(ExportText.fixed(51.48731234, 7), "51.4873123")
        XCTAssertEqual(ExportText.fixed(-0.2241, 7), "-0.2241000")
        XCTAssertEqual(ExportText.fixed(1e-5, 2), "0.00")
        // Total: no number is an empty CSV cell (JSON: null); huge values in full, no exponent.
        XCTAssertEqual(ExportText.fixed(.nan, 3), "")
        XCTAssertEqual(ExportText.fixed(.infinity, 3), "")
        XCTAssertEqual(ExportText.fixed(-.infinity, 0), "")
        XCTAssertEqual(ExportText.jsonNumber(.nan, 7), "null")
        XCTAssertEqual(ExportText.jsonNumber(-.infinity, 2), "null")
        XCTAssertEqual(ExportText.jsonNumber(-0.2241, 7), "-0.2241000")
        XCTAssertEqual(ExportText.fixed(9.3e18, 2), "9300000000000000000.00")
        XCTAssertEqual(ExportText.fixed(-1e300, 1), "-1" + String(repeating: "0", count: 300) + ".0")
        XCTAssertEqual(ExportText.fixed(.greatestFiniteMagnitude, 0), "17976931348623157" + String(repeating: "0", count: 292))
        XCTAssertEqual(ExportText.iso8601(.nan), "0000-00-00T00:00:00.000Z")
        XCTAssertEqual(ExportText.xmlEscaped("A & B <8+>"), "A &amp; B &lt;8+&gt;")
        XCTAssertEqual(ExportText.csvCell("a,\"b\""), "\"a,\"\"b\"\"\"")
    }
}
