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
/// the heart rate. With issue 29 the distance is the smoothed track's and counts the device's
/// first record (3.5 m: stroke 1 reads 6.19 m, was 2.68; the last stroke 4.5 m on, within 1.1 m
/// per stroke elsewhere), and the export breaks its track at the FIT's lap gaps as the analyzer
/// does: 97 GPX points (was 93: four fixes after the rests, rejected as jumps before), the
/// positions of the three strokes at a rest's edge interpolated towards them; checked by hand
/// against main's `oarlog export` of the same file.)
final class NoPlanExportTests: XCTestCase {
    static let expected: [String: String] = [
        "session.gpx": "f3468bc45817cff524319450319375a99b169115e09f1985a1156803f1af5c44",
        "session.tcx": "dd401775b1eb79d0efbe98934850675cfe6423953b7399882875056793d75248",
        "session.fit": "69a1af182719bfd9a710851e9e8312b2c883177def399345d01007aa0f7be96d",
        "session.csv": "ee3e0f0146aa4216b6f7e25583945270b251f0a99c922dfa6146b0db91b1006e",
        "session-rowingdata.csv": "a62dba9a264d8c2ca435b2f4bb9b1befbbcfd1b2baed3d6f64284e2e9764c506",
        "session.geojson": "637f255c8e18668c17e900eaf8a8bb0a5bf8dbaa5cdba65664e3644483910cf7",
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
