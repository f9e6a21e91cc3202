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
/// the heart rate.) With issue 29 a stroke's rate is its own period, this catch to the next (it was
/// the previous catch to this one): the rate, smoothed rate and cadence of each stroke and point
/// move one stroke earlier (this fixture's stroke times are whole seconds, so 30 spm or none), and
/// the averages with them (checked in the new CSV: each stroke's rate is 60 / (next time − its
/// time), or none for the first of a piece and a period under 1.2 s). Also with issue 29 the
/// distance counts the device's first record (3.5 m), and the
/// export breaks its track at the FIT's lap gaps as the analyzer does: 97 GPX points (was 93: four
/// fixes after the rests, rejected as jumps before), the positions of the three strokes at a
/// rest's edge interpolated towards them; checked by hand against main's `oarlog export` of the
/// same file (which also smooths the track, see docs/DISTANCE.md; this test's pipeline does not).
/// After merging both, the GeoJSON is the branch's byte for byte and the CSV's rates follow the
/// own-period rule on all 94 strokes (`OARLOG_KEEP_EXPORTS=dir` copies the files for checking).
/// Then the track filter's tuning for fixes with a speed and the device's distance across a lap gap
/// booked after the lap's last fixes (docs/DISTANCE.md): only the distances
/// move (the CSV's distance, split and distance per stroke columns; positions and every other
/// column byte for byte), the session's 751.43 m now 750.74 m.
final class NoPlanExportTests: XCTestCase {
    static let expected: [String: String] = [
        "session.gpx": "e44de083122826218c3029b26549847b39e5f905ca80c13b302225009f45d784",
        "session.tcx": "f46c7cb3a124e61600f6335cf233b723aff3546d893b22789ba723fb2caceb2f",
        "session.fit": "159d332d3fbbf447ab9bbc63cbe281674974a2b9ab73be34cebbd5900ff745dd",
        "session.csv": "6a6b1c7179d41a734bdeccc1e79c46353d956611123455c6f3ab385d4b6cdd91",
        "session-rowingdata.csv": "8f9e259d3829cacb039e969068bf11c9e52c07d2a3d8991173d379b11d08c33e",
        "session.geojson": "6ec1a7e32be238b895266df8f93ae7d7b3333c16758d6b7e5404f0125fa5349c",
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
            if let keep = ProcessInfo.processInfo.environment["OARLOG_KEEP_EXPORTS"] {
                _ = try OarlogExportTests.run(["cp", "-r", run.directory.path, keep])
            }
        }
        for (name, hash) in Self.expected.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(hashes[name], hash, "\(name) changed")
        }
    }
}
