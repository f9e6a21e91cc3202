import Foundation
import XCTest
import OarlogCore
import OarlogExport
import OarlogTestSupport
import OarlogTrace

/// A session rowed without a workout plan exports byte for byte as it did before exports learned
/// plans (main at c77330a): NK's real 3×250 m outing (Tests/OarlogTraceTests/Fixtures/devices/
/// 3x250m.fit, 94 strokes, laps cut at the rests) through every exporter, each file's SHA-256
/// against the one the exporters wrote before the change. The fixture goes through the FIT reader
/// and the analyzer only (no simulator), so the hashes move only when the reader, the analyzer or
/// an exporter changes; after an intended change, print the new hashes with
/// `OARLOG_PRINT_EXPORT_HASHES=1` and check the files by hand before replacing them.
final class NoPlanExportTests: XCTestCase {
    static let expected: [String: String] = [
        "session.gpx": "",
        "session.tcx": "",
        "session.fit": "",
        "session.csv": "",
        "session-rowingdata.csv": "",
        "session.geojson": "",
    ]

    func sha256(_ path: String) throws -> String {
        let result = try OarlogExportTests.run(["sha256sum", path])
        XCTAssertEqual(result.status, 0, result.err)
        return String(result.out.prefix { $0 != " " })
    }

    func testExportsWithoutAPlanAreUnchanged() throws {
        let path = TestPaths.packageRoot.appendingPathComponent("Tests/OarlogTraceTests/Fixtures/devices/3x250m.fit").path
        var source = try TraceOpener.open(path: path)
        let run = try ExportRun.make(&source, in: try temporaryDirectory(self))
        XCTAssertEqual(run.summary.strokes, 94, "NK's own stroke count")
        var hashes: [String: String] = [:]
        for name in Self.expected.keys.sorted() {
            hashes[name] = try sha256(run.directory.appendingPathComponent(name).path)
        }
        if ProcessInfo.processInfo.environment["OARLOG_PRINT_EXPORT_HASHES"] == "1" {
            for (name, hash) in hashes.sorted(by: { $0.key < $1.key }) { print("\"\(name)\": \"\(hash)\",") }
        }
        for (name, hash) in Self.expected.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(hashes[name], hash, "\(name) changed")
        }
    }
}
