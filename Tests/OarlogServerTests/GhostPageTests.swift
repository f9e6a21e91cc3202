import Foundation
import OarlogCore
import OarlogTestSupport
import XCTest

/// The ghost on the live screen in headless Chromium at 390×844 (browser/ghost_page.py): two
/// simulated crews on the Tideway (`oarlog simulate`, 26 and 25 spm, same start and heading), the
/// faster one kept with a 2 km course laid 400 m down its water (`oarlog fences make-course`,
/// `oarlog courses add`), and `oarlog serve --replay` of the slower one with `--course NAME
/// --ghost best`, recording from the first seconds. The page shows the gap to the ghost large,
/// the gates as crossed, the gap in metres, the ghost's ring on the map, and the chooser after
/// Stop — each against `oarlog replay --course --ghost --json` of the same outing. Screenshots
/// in `.build/screenshots/ghost-*.png`.
final class GhostPageTests: XCTestCase {
    func testTheLiveScreenShowsTheGapToTheGhost() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-ghost-page-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        func cli(_ arguments: [String]) throws -> String {
            let run = try oarlogCLI(arguments, dataDirectory: data)
            XCTAssertEqual(run.status, 0, "\(arguments): \(run.err)")
            return run.out
        }
        let fast = data.appendingPathComponent("fast.csv").path, slow = data.appendingPathComponent("slow.csv").path
        for (rate, seed, path) in [("26", "1", fast), ("25", "2", slow)] {
            _ = try cli(["simulate", "--minutes", "12", "--rate", rate, "--accel-hz", "50", "--gps-dropouts", "0", "--seed", seed, "-o", path])
        }
        // The simulator's start (the Tideway at Putney, heading 92.5°), the course 400 m on.
        let start = Geodesy.destination(from: GeoPoint(latitude: 51.4873, longitude: -0.2241), distance: 400, bearing: 92.5)
        let course = data.appendingPathComponent("tideway.geojson").path
        _ = try cli(["fences", "make-course", "--start", "\(start.latitude),\(start.longitude)", "--heading", "92.5", "--length", "2000",
                     "--markers", "500", "--name", "Tideway 2k", "-o", course])
        _ = try cli(["replay", fast, "--save", "--title", "Fast crew", "--boat", "Eight"])
        _ = try cli(["courses", "add", course, "--name", "Tideway 2k"])
        let report = try XCTUnwrap(try jsonObject(try cli(["replay", slow, "--course", "Tideway 2k", "--ghost", "best", "--json"])) as? [String: Any])
        let ghost = try XCTUnwrap(report["ghost"] as? [String: Any])
        let truthGates = try XCTUnwrap(ghost["gates"] as? [[String: Any]])
        XCTAssertEqual(truthGates.count, 4)

        let server = try ServerProcess(arguments: ["--replay", slow, "--speed", "10", "--course", "Tideway 2k", "--ghost", "best"], dataDirectory: data)
        defer { server.stop() }
        let shots = try BrowserScript.screenshots()
        let result = try BrowserScript.run("ghost_page.py", [server.base, server.token, shots.path], detail: "\n" + server.log.suffix(2000))

        // During the race: the gap large, in seconds and metres, behind (orange) — the slower crew.
        let racing = try XCTUnwrap(result["racing"] as? [String: Any])
        XCTAssertEqual(racing["live_shown"] as? Bool, true)
        XCTAssertEqual(racing["chooser_shown"] as? Bool, false, "nothing invites a change during the race")
        XCTAssertEqual(racing["side"] as? String, "behind")
        XCTAssertTrue((racing["gap_s"] as? String ?? "").hasPrefix("+") && (racing["gap_s"] as? String ?? "").hasSuffix(" s"), "\(racing)")
        XCTAssertTrue((racing["gap_m"] as? String ?? "").hasSuffix(" m"), "\(racing)")
        XCTAssertGreaterThanOrEqual(racing["gap_font_px"] as? Double ?? 0, 60, "the gap is the largest figure on the screen")
        XCTAssertNotNil(racing["ghost_dot"] as? [Double], "the ghost on the map")
        XCTAssertGreaterThan(racing["ghost_path_points"] as? Int ?? 0, 50)
        XCTAssertEqual(racing["outside"] as? [String], [], "nothing cut off at 390 px")
        // The gate rows: the replay's own gaps (same outing, same code), to the tenth.
        let rows = try XCTUnwrap(racing["gates"] as? [[String]])
        XCTAssertGreaterThanOrEqual(rows.count, 2)
        for (row, truth) in zip(rows, truthGates) {
            XCTAssertEqual(row.first, truth["gate"] as? String)
            let gap = truth["gap_s"] as? Double ?? 0
            XCTAssertEqual(row.last, (gap > 0 ? "+" : "−") + String(format: "%.1f", abs(gap)), "\(row) against \(truth)")
        }
        // After Stop: the chooser, the course and its attempt, the ghost still chosen.
        let after = try XCTUnwrap(result["after"] as? [String: Any])
        XCTAssertEqual(after["chooser_shown"] as? Bool, true)
        XCTAssertEqual(after["courses"] as? [String], ["Course…", "Tideway 2k (2000 m)"])
        let attempts = after["attempts"] as? [[String]] ?? []
        XCTAssertEqual(attempts.first?.first, "best")
        XCTAssertEqual(attempts.count, 2, "best, and the one attempt kept")
        XCTAssertTrue((after["chosen"] as? String ?? "").hasPrefix("Tideway 2k · best"), "\(after["chosen"] ?? "")")
        XCTAssertEqual(after["outside"] as? [String], [])
        XCTAssertEqual(result["console"] as? [String], [], "no errors in the browser console")
        BrowserScript.checkScreenshots(result, minimumBytes: 10_000)
    }
}
