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
/// developer fields; every other message as before, checked with scripts/fit-compare.py. With
/// issue 28 the session's heart rate (the NK's strap, 94 records) reaches every export: FIT lap
/// and session avg_heart_rate 168 / max_heart_rate 184 (the source file's records: mean 168.3,
/// max 184; no other field changed, compared message by message with Garmin's SDK); GPX
/// `gpxtpx:hr` and TCX `HeartRateBpm` on 91 of 93 points and the TCX lap's average and maximum
/// (the files equal the old ones with those elements taken out); both CSVs gain the heart-rate,
/// power and oarlock columns at the end (old columns unchanged) and rowingdata's ` HRCur (bpm)`
/// the heart rate. With issue 29 the distance counts the device's first record (3.5 m: stroke 1
/// reads 6.19 m, was 2.68), and the export breaks its track at the FIT's lap gaps as the analyzer
/// does: 97 GPX points (was 93: four fixes after the rests, rejected as jumps before), the
/// positions of the three strokes at a rest's edge interpolated towards them; checked by hand
/// against main's `oarlog export` of the same file (which also smooths the track, see
/// docs/DISTANCE.md; this test's pipeline does not).)
final class NoPlanExportTests: XCTestCase {
    static let expected: [String: String] = [
        "session.gpx": "292227ecea307e18f1cd89dcdc0eae57a42293806ef591492e14fa5546aa4d4f",
        "session.tcx": "199841408da6458acbcfdb8495080f8de881e4e5e1f48042c629947b478e5e20",
        "session.fit": "0e69c8de12efcf270713e128889ca54bfa79f7325a2a68a09055e20b0aecbdf0",
        "session.csv": "0ce9fb2969ce6fd3384cfde67a201fc1042ed99a5e52932bc86bcc9fb9409d98",
        "session-rowingdata.csv": "4a97e7b3aee6118fbf316db3db020d14345e4562eead116bb643ce418e50cf82",
        "session.geojson": "4afe2048edc387174e63abe78b8901ee945731bbe77e2f7a90e57ae8b4b9b4c8",
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
