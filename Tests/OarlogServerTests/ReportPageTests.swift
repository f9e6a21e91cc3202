import Foundation
import OarlogTestSupport
import XCTest

/// The single-file HTML report as a crew member opens it: `oarlog export last --format html` of
/// the bundled workout rowed to a plan, opened from disk in headless Chromium (Debian's chromium
/// and chromedriver, driven by python3-selenium; one browser start) with the network switched off,
/// at 390×844 and 1280×800: it shows `oarlog show --json`'s figures, a drawn track, both plots
/// and the intervals, fits the phone's width, and asks for nothing. Screenshots in
/// `.build/screenshots/report-390.png` and `report-1280.png`.
final class ReportPageTests: XCTestCase {
    func testTheReportOpensOfflineAtPhoneAndLaptopSize() throws {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver", "/usr/bin/python3"] {
            XCTAssertTrue(FileManager.default.isExecutableFile(atPath: tool), "\(tool) is needed (scripts/setup.sh installs it)")
        }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-report-page-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let saved = try oarlogCLI(["replay", "samples/sim-workout.csv", "--save", "--title", "Head race <i>practice</i>",
                                   "--workout", "3x4:00/2:00r"], dataDirectory: data)
        XCTAssertEqual(saved.status, 0, saved.err)
        let noted = try oarlogCLI(["note", "last", "Bow side rushing <script>alert(1)</script>", "--at", "5:00"], dataDirectory: data)
        XCTAssertEqual(noted.status, 0, noted.err)
        let file = data.appendingPathComponent("report.html").path
        let exported = try oarlogCLI(["export", "last", "--format", "html", "-o", file], dataDirectory: data)
        XCTAssertEqual(exported.status, 0, exported.err)
        let bytes = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        XCTAssertLessThan(bytes, 300_000, "a 20-minute outing's report")
        let show = try XCTUnwrap(try jsonObject(try oarlogCLI(["show", "last", "--json"], dataDirectory: data).out) as? [String: Any])

        let shots = try BrowserScript.screenshots()
        let result = try BrowserScript.run("report_page.py", [file, shots.path])
        for size in ["390", "1280"] {
            let page = try XCTUnwrap(result[size] as? [String: Any], size)
            XCTAssertEqual(page["title"] as? String, "Head race <i>practice</i>", "the title is text, not markup")
            let figures = try XCTUnwrap(page["figures"] as? [String: [String: Any]])
            XCTAssertEqual(figures.count, 8, size)
            for (key, figure) in figures {
                XCTAssertEqual(figure["on_screen"] as? Bool, true, "\(size): \(key) is on the screen")
                XCTAssertEqual(figure["cut"] as? Bool, false, "\(size): \(key) fits its tile: \(figure["text"] ?? "")")
            }
            XCTAssertEqual(figures["strokes"]?["text"] as? String, "\(try XCTUnwrap(show["strokes"] as? Int))")
            let distance = try XCTUnwrap(show["distance_m"] as? Double)
            let shownDistance = (figures["distance_m"]?["text"] as? String ?? "").filter(\.isNumber)
            XCTAssertEqual(Double(shownDistance) ?? -1, distance, accuracy: 0.5, "\(figures["distance_m"] ?? [:])")
            XCTAssertEqual(figures["heart_rate_bpm"]?["text"] as? String, "—", "no heart-rate strap in the simulation")
            // The track: a path of every fix the map uses (fewer than the limit here), both pins.
            XCTAssertGreaterThan(page["track_points"] as? Int ?? 0, 500, size)
            XCTAssertGreaterThan(page["route_length"] as? Double ?? 0, 200, "\(size): a drawn line, not a dot")
            XCTAssertEqual(page["pins"] as? [String], ["finish", "start"])
            let track = try XCTUnwrap(page["track_rect"] as? [String: Double])
            XCTAssertLessThanOrEqual(track["right"] ?? .infinity, page["inner_width"] as? Double ?? 0, size)
            let plots = try XCTUnwrap(page["plots"] as? [[String: Any]])
            XCTAssertEqual(plots.compactMap { $0["plot"] as? String }, ["split", "rate"])
            for plot in plots { XCTAssertGreaterThan(plot["line"] as? Int ?? 0, 100, "\(size): \(plot)") }
            // The plan's intervals (3 pieces, 2 rests), the note as text.
            XCTAssertEqual(page["piece_rows"] as? Int, 5, size)
            XCTAssertEqual(page["notes"] as? [String], ["5:00.0 Bow side rushing <script>alert(1)</script>"])
            XCTAssertEqual(page["scripts"] as? Int, 0)
            // Nothing sideways; nothing asked for but the file itself.
            XCTAssertEqual(page["overflow_px"] as? Int, 0, size)
            XCTAssertEqual(page["body_overflow_px"] as? Int, 0, size)
            XCTAssertEqual(page["wide"] as? [String], [], size)
            XCTAssertEqual(page["requests"] as? [String], [], size)
            XCTAssertEqual(page["resources"] as? [String], [], size)
            XCTAssertEqual(page["console"] as? [String], [], size)
        }
        BrowserScript.checkScreenshots(result, minimumBytes: 10_000)
    }
}
