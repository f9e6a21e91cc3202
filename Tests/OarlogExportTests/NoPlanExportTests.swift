import Foundation
import XCTest
import OarlogCore
import OarlogExport
import OarlogTestSupport
import OarlogTrace

/// A session rowed without a workout plan exports byte for byte as it did before exports learned
/// plans: NK's real 3×250 m outing (Tests/OarlogTraceTests/Fixtures/devices/3x250m.fit, 94
/// strokes, laps cut at the rests) through every exporter, each file's SHA-256 against the one
/// written before the change (the same bytes as `oarlog export` of main at 44373bc, whose
/// exporters were still those of c77330a). The fixture goes through the FIT reader and the
/// analyzer only (no simulator), so the hashes move only when the reader, the analyzer or an
/// exporter changes; after an intended change, print the new hashes with
/// `OARLOG_PRINT_EXPORT_HASHES=1` and check the files by hand before replacing them. (session.fit
/// last changed with issue 27: heart rate and power fields on the records and the rowing
/// developer fields; every other message as before, checked with scripts/fit-compare.py.)
final class NoPlanExportTests: XCTestCase {
    static let expected: [String: String] = [
        "session.gpx": "329855a3f31dc7826ead143521c92d756f8ccf1c03c17c755b93a5edbe5f2eea",
        "session.tcx": "6b557f93b0109e8d33e6b10c7a365baee41e17d4b05b5ea915e3fb3c5d2047ae",
        "session.fit": "9ee89c68596258aa8190103fc5fd216d81e1d9a68333c796bdf8dd20c3b8db3d",
        "session.csv": "e3b794e0f09fd2d1e45434ff4621e8febec12e33cfd8ec1f918796c14904c2e8",
        "session-rowingdata.csv": "7f124a92bc03b8fc2d3a11013af758abd0d6ee3616d9454cae1b84a1dc3e9b66",
        "session.geojson": "efb88f991097a2a155fdb4c7a61ab2651c82ae5c31d412e7bd9e041d2e0af0b2",
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
