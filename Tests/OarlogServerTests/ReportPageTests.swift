import Foundation
import OarlogTestSupport
import XCTest

/// The single-file HTML report as a crew member opens it: `oarlog export last --format html` of
/// the NK logbook outing saved with its 2,000 m course (a real track, gates and an area) and of
/// the bundled workout rowed to a plan, each opened from disk in headless Chromium (Debian's
/// chromium and chromedriver, driven by python3-selenium; one browser start for all) with the
/// network switched off, at 390×844 and 1280×800: it shows `oarlog show --json`'s figures, a drawn
/// track with its pins and gates, both plots and the pieces, fits the phone's width, and asks
/// for nothing — while a probe page beside it, which does ask, is seen asking (so "nothing" is
/// measured, not assumed). Screenshots in `.build/screenshots/report-390.png`, `report-1280.png`
/// (the course) and `report-workout-390.png`, `report-workout-1280.png`. Then, in the same
/// browser, the session page's Share report button gives the same file as ID.html
/// (`report-share-390.png`: the Share panel).
final class ReportPageTests: XCTestCase {
    /// Saves `trace` with `extra` arguments, adds `note`, and exports its report to `file`: the
    /// session's `show --json` and the report's size.
    func keep(_ trace: String, _ extra: [String], note: String, to file: String, data: URL) throws -> ([String: Any], Int) {
        let saved = try oarlogCLI(["replay", trace, "--save"] + extra, dataDirectory: data)
        XCTAssertEqual(saved.status, 0, saved.err)
        let noted = try oarlogCLI(["note", "last", note, "--at", "5:00"], dataDirectory: data)
        XCTAssertEqual(noted.status, 0, noted.err)
        let exported = try oarlogCLI(["export", "last", "--format", "html", "-o", file], dataDirectory: data)
        XCTAssertEqual(exported.status, 0, exported.err)
        let show = try XCTUnwrap(try jsonObject(try oarlogCLI(["show", "last", "--json"], dataDirectory: data).out) as? [String: Any])
        return (show, try XCTUnwrap(FileManager.default.attributesOfItem(atPath: file)[.size] as? Int))
    }

    func testTheReportOpensOfflineAtPhoneAndLaptopSize() throws {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver", "/usr/bin/python3"] {
            XCTAssertTrue(FileManager.default.isExecutableFile(atPath: tool), "\(tool) is needed (scripts/setup.sh installs it)")
        }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-report-page-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let course = data.appendingPathComponent("course.html").path, workout = data.appendingPathComponent("workout.html").path
        let (courseShow, courseBytes) = try keep("samples/rowingdata/nk_logbook.csv", ["--title", "Long row <b>NK</b>", "--fences", "samples/nk-course.geojson"],
                                                 note: "Bow side rushing <script>alert(1)</script>", to: course, data: data)
        let (workoutShow, workoutBytes) = try keep("samples/sim-workout.csv", ["--title", "Head race <i>practice</i>", "--workout", "3x4:00/2:00r"],
                                                   note: "Square blades & <em>relax</em>", to: workout, data: data)
        print("report sizes: NK logbook (1:05 h) \(courseBytes) bytes, sim workout (20 min) \(workoutBytes) bytes")
        XCTAssertLessThan(courseBytes, 300_000)
        XCTAssertLessThan(workoutBytes, 300_000)
        // The control: a page that does ask for an image over the network (offline: it fails).
        let probe = data.appendingPathComponent("probe.html")
        try #"<!DOCTYPE html><title>probe</title><img src="http://127.0.0.1:9/probe.png" alt="">"#.write(to: probe, atomically: true, encoding: .utf8)

        // The web app over the same sessions, for the session page's Share report button.
        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "5"], dataDirectory: data)
        defer { server.stop() }
        let workoutID = try XCTUnwrap(workoutShow["id"] as? String)

        let shots = try BrowserScript.screenshots()
        let result = try BrowserScript.run("report_page.py", [shots.path, "--session", server.base, workoutID,
                                                              "course=" + course, "workout=" + workout, "probe=" + probe.path],
                                           detail: "\n" + server.log.suffix(2000))
        // The button sits in the Share panel and gives ID.html, the very bytes `oarlog export` wrote.
        let share = try XCTUnwrap(result["share"] as? [String: Any])
        XCTAssertEqual(share["panel"] as? String, "Share")
        XCTAssertEqual(share["label"] as? String, "Share report")
        XCTAssertEqual(share["name"] as? String, workoutID + ".html")
        XCTAssertEqual(share["text"] as? String, try String(contentsOfFile: workout, encoding: .utf8))
        XCTAssertEqual(share["console"] as? [String], [])
        let probed = try XCTUnwrap((result["probe"] as? [String: Any])?["390"] as? [String: Any])
        XCTAssertEqual(probed["requests"] as? [String], ["http://127.0.0.1:9/probe.png"], "the log sees a request when there is one")
        try check(try XCTUnwrap(result["course"] as? [String: Any]), show: courseShow, title: "Long row <b>NK</b>",
                  note: "5:00.0 Bow side rushing <script>alert(1)</script>", gates: ["Start", "500 m", "1000 m", "1500 m", "Finish"], pieceRows: 4)
        try check(try XCTUnwrap(result["workout"] as? [String: Any]), show: workoutShow, title: "Head race <i>practice</i>",
                  note: "5:00.0 Square blades & <em>relax</em>", gates: [], pieceRows: 5)
        BrowserScript.checkScreenshots(result, minimumBytes: 3_000)  // the Share panel alone is small
    }

    /// One report at both sizes: the figures, the drawing, the tables, no overflow, no request.
    func check(_ report: [String: Any], show: [String: Any], title: String, note: String, gates: [String], pieceRows: Int) throws {
        for size in ["390", "1280"] {
            let page = try XCTUnwrap(report[size] as? [String: Any], size)
            let at = "\(title) at \(size)"
            XCTAssertEqual(page["title"] as? String, title, "the title is text, not markup")
            let figures = try XCTUnwrap(page["figures"] as? [String: [String: Any]])
            XCTAssertEqual(figures.count, 8, at)
            for (key, figure) in figures {
                XCTAssertEqual(figure["on_screen"] as? Bool, true, "\(at): \(key) is on the screen")
                XCTAssertEqual(figure["cut"] as? Bool, false, "\(at): \(key) fits its tile: \(figure["text"] ?? "")")
            }
            XCTAssertEqual(figures["strokes"]?["text"] as? String, "\(try XCTUnwrap(show["strokes"] as? Int))", at)
            let distance = try XCTUnwrap(show["distance_m"] as? Double)
            let shownDistance = (figures["distance_m"]?["text"] as? String ?? "").filter(\.isNumber)
            XCTAssertEqual(Double(shownDistance) ?? -1, distance, accuracy: 0.5, "\(at): \(figures["distance_m"] ?? [:])")
            // NK's export has a heart rate per stroke; the simulated workout none.
            if let bpm = show["avg_heart_rate_bpm"] as? Double {
                XCTAssertEqual(figures["heart_rate_bpm"]?["text"] as? String, String(Int(bpm.rounded())) + " bpm", at)
            } else {
                XCTAssertTrue(show["avg_heart_rate_bpm"] is NSNull, at)
                XCTAssertEqual(figures["heart_rate_bpm"]?["text"] as? String, "—", at)
            }
            // The track: a path of every fix the map uses (fewer than the limit here), both pins, the gates.
            XCTAssertGreaterThan(page["track_points"] as? Int ?? 0, 500, at)
            XCTAssertGreaterThan(page["route_length"] as? Double ?? 0, 200, "\(at): a drawn line, not a dot")
            XCTAssertEqual(page["pins"] as? [String], ["finish", "start"], at)
            XCTAssertEqual(page["gates"] as? [String], gates, at)
            let track = try XCTUnwrap(page["track_rect"] as? [String: Double])
            XCTAssertLessThanOrEqual(track["right"] ?? .infinity, page["inner_width"] as? Double ?? 0, at)
            let plots = try XCTUnwrap(page["plots"] as? [[String: Any]])
            XCTAssertEqual(plots.compactMap { $0["plot"] as? String }, ["split", "rate"], at)
            for plot in plots { XCTAssertGreaterThan(plot["line"] as? Int ?? 0, 100, "\(at): \(plot)") }
            XCTAssertEqual(page["piece_rows"] as? Int, pieceRows, at)
            XCTAssertEqual(page["notes"] as? [String], [note], at)
            XCTAssertEqual(page["scripts"] as? Int, 0, at)
            // Nothing sideways; nothing asked for.
            XCTAssertEqual(page["overflow_px"] as? Int, 0, at)
            XCTAssertEqual(page["body_overflow_px"] as? Int, 0, at)
            XCTAssertEqual(page["wide"] as? [String], [], at)
            XCTAssertEqual(page["requests"] as? [String], [], at)
            XCTAssertEqual(page["resources"] as? [String], [], at)
            XCTAssertEqual(page["console"] as? [String], [], at)
        }
    }
}
