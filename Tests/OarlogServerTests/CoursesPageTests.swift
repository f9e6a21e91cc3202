import Foundation
import OarlogTestSupport
import XCTest

/// The courses in the web app, in headless Chromium at phone (390×844) and laptop size, against
/// `oarlog serve` over a data directory holding the NK LiNK Logbook outing saved twice (one for
/// boat Eight) with the NK course kept, and two simulated outings on the same straight water at
/// 22 and 30 spm: the list (#courses) shows the course with its two attempts and the best time;
/// the course page (#course/NAME) draws its five gates (start green, finish chequered), the
/// leaderboard at `oarlog course`'s 10:08.3, an attempt's legs as `oarlog course` times them, and
/// two attempts compared (level at every gate: the same outing); a course is made on a
/// simulated outing's map by two taps on its track (a taken name refused in words first) and
/// finds both outings, whose comparison shows the gaps `GET /api/courses/{name}/compare` gives;
/// the NK file added again from the list's form under another name is refused in words.
/// Screenshots in `.build/screenshots/course*.png`, `courses-*.png`, `session-make-course-*.png`.
final class CoursesPageTests: XCTestCase {
    func testTheCoursesPagesInTheBrowser() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-courses-page-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let nk = try samplePath("rowingdata/nk_logbook.csv")
        var nkSessions: [String] = []
        for boat in [[], ["--boat", "Eight"]] {
            let saved = try oarlogCLI(["replay", nk, "--save", "--title", boat.isEmpty ? "NK" : "NK Eight"] + boat, dataDirectory: data)
            XCTAssertEqual(saved.status, 0, saved.err)
        }
        var outings: [String] = []
        for (rate, day) in [("22", "02"), ("30", "09")] {
            let trace = data.appendingPathComponent("c\(rate).csv")
            let simulated = try oarlogCLI(["simulate", "--minutes", "6", "--rate", rate, "--noise", "none", "--gps-dropouts", "0", "--accel-hz", "25",
                                           "--seed", rate, "--start-utc", "2026-05-\(day)T07:00:00Z", "-o", trace.path], dataDirectory: data)
            XCTAssertEqual(simulated.status, 0, simulated.err)
            XCTAssertEqual(try oarlogCLI(["replay", trace.path, "--save", "--title", "At \(rate)"], dataDirectory: data).status, 0)
            outings.append("2026-05-\(day)T07-00-00Z_at-\(rate)")
        }
        let listed = try XCTUnwrap(try jsonObject(try oarlogCLI(["sessions", "--json"], dataDirectory: data).out) as? [[String: Any]])
        nkSessions = listed.compactMap { $0["id"] as? String }.filter { !outings.contains($0) }
        XCTAssertEqual(nkSessions.count, 2)
        let nkCourse = TestPaths.packageRoot.appendingPathComponent("samples/nk-course.geojson").path
        let kept = try oarlogCLI(["courses", "add", nkCourse, "--name", "NK 2k"], dataDirectory: data)
        XCTAssertEqual(kept.status, 0, kept.err)
        let truth = try CoursesRoutesTests.courseCommandTruth()

        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "5"], dataDirectory: data)
        let shots = try BrowserScript.screenshots()
        let result = try BrowserScript.run("courses_page.py", [server.base, shots.path, server.pairingCode, "NK 2k", outings[0], nkCourse],
                                           detail: "\n" + server.log.suffix(2000))
        func clock(_ s: Double) -> String {
            let tenths = Int((s * 10).rounded())
            return String(format: "%d:%02d.%d", tenths / 600, tenths / 10 % 60, tenths % 10)
        }
        for size in ["phone", "laptop"] {
            let seen = try XCTUnwrap(result[size] as? [String: Any], size)
            let list = try XCTUnwrap(seen["list"] as? [String: Any])
            XCTAssertEqual(list["rows"] as? [[String]], [["NK 2k", "2000 m", "2", clock(truth.time)]], size)
            XCTAssertEqual(clock(truth.time), "10:08.3")
            XCTAssertEqual(list["links"] as? [String], ["#course/NK%202k"])
            let page = try XCTUnwrap(seen["course"] as? [String: Any])
            let loaded = try XCTUnwrap(page["loaded"] as? [String: Any])
            XCTAssertEqual(loaded["title"] as? String, "NK 2k")
            XCTAssertEqual((loaded["gates"] as? [[String: String]])?.map { "\($0["name"]!) \($0["role"]!) \($0["colour"]!)" },
                           ["Start start #2ecc40", "500 m marker #ffffff", "1000 m marker #ffffff", "1500 m marker #ffffff", "Finish finish chequered"])
            let board = try XCTUnwrap(loaded["board"] as? [[String: Any]])
            XCTAssertEqual(board.map { ($0["cells"] as? [String])?.prefix(3).joined(separator: " ") }, ["1 10:08.3 2:32.1", "2 10:08.3 2:32.1"], size)
            XCTAssertEqual(Set(board.compactMap { $0["session"] as? String }), Set(nkSessions.map { "#session/" + $0 }))
            XCTAssertEqual(Set(board.compactMap { ($0["cells"] as? [String])?[3] }), ["Eight", "—"])
            // The first attempt's legs: as `oarlog course` times them.
            let legs = try XCTUnwrap((page["legs"] as? [String: Any])?["legs"] as? [[String]])
            XCTAssertEqual(legs.map { $0[0] }, ["Start → 500 m", "500 m → 1000 m", "1000 m → 1500 m", "1500 m → Finish"])
            XCTAssertEqual(legs.map { $0[1] }, truth.legs.map(clock))
            // The same outing twice: level at every gate, both tracks drawn.
            let compared = try XCTUnwrap(page["compared"] as? [String: Any])
            let gaps = try XCTUnwrap(compared["gaps"] as? [[String: Any]])
            XCTAssertEqual(gaps.compactMap { $0["gate"] as? String }, ["Start", "500 m", "1000 m", "1500 m", "Finish"])
            XCTAssertEqual(gaps.compactMap { ($0["cells"] as? [String])?[3] }, Array(repeating: "level", count: 5))
            XCTAssertEqual((compared["tracks"] as? [String: [String: Any]])?.keys.sorted(), ["a", "b"])
            for layout in ["list_layout"] { try checkLayout(seen[layout], size) }
            for layout in ["layout", "legs_layout", "compared_layout"] { try checkLayout(page[layout], size) }
        }

        // The course made on the 22-spm outing's map: its start and finish where tapped.
        let made = try XCTUnwrap(result["made"] as? [String: Any])
        XCTAssertEqual(made["prompts"] as? [String], ["Tap the start on the map, near the track.", "Now tap the finish.", "Name the course and keep it."])
        XCTAssertEqual((made["taps"] as? [Any])?.count, 2)
        XCTAssertEqual(made["refused"] as? String, "Not kept: a course named \"NK 2k\" is kept already")
        let attempts = try XCTUnwrap(try jsonObject(try oarlogCLI(["attempts", "--course", "Putney 1k", "--json"], dataDirectory: data).out) as? [[String: Any]])
        XCTAssertEqual(Set(attempts.compactMap { $0["session"] as? String }), Set(outings), "both outings rowed it")
        XCTAssertEqual(attempts.first?["session"] as? String, outings[1], "30 spm is faster")
        let shown = try XCTUnwrap(try jsonObject(try oarlogCLI(["courses", "show", "Putney 1k", "--json"], dataDirectory: data).out) as? [String: Any])
        let length = try XCTUnwrap(shown["length_m"] as? Double)
        XCTAssertTrue((made["kept"] as? String ?? "").hasPrefix("Kept “Putney 1k”: \(Int(length.rounded())) m"), "\(made["kept"] ?? "")")
        XCTAssertTrue((made["kept"] as? String ?? "").contains("2 attempts found"), "\(made["kept"] ?? "")")
        XCTAssertEqual(made["link"] as? String, "#course/Putney%201k")
        try checkLayout(made["layout"], "make a course", tab: "nav-races")
        XCTAssertEqual(made["file_refused"] as? String, "Not kept: the course \"NK 2k\" has the same gates")
        XCTAssertEqual((made["console"] as? [String])?.count, 2)
        XCTAssertTrue((made["console"] as? [String])?.allSatisfy { $0.contains("409") } ?? false, "the two refusals: \(made["console"] ?? "")")
        // Its two attempts compared on its page: each gap as the API gives it (A the 22-spm outing, ticked first as the second row).
        let api = try XCTUnwrap(try jsonObject(try server.request("GET", "/api/courses/Putney%201k/compare?a=2&b=1").body) as? [String: Any])
        let apiGates = try XCTUnwrap(api["gates"] as? [[String: Any]])
        let page = try XCTUnwrap((result["made_course"] as? [String: Any])?["compared"] as? [String: Any])
        let rows = try XCTUnwrap(page["gaps"] as? [[String: Any]])
        XCTAssertEqual(rows.count, apiGates.count)
        XCTAssertGreaterThan(apiGates.count, 2)
        for (row, gate) in zip(rows, apiGates) {
            let cells = try XCTUnwrap(row["cells"] as? [String])
            let gap = try XCTUnwrap(gate["gap_s"] as? Double)
            let tenths = (abs(gap) * 10).rounded() / 10
            XCTAssertEqual(cells[3], tenths == 0 ? "level" : String(format: "%@ by %.1f s", gap > 0 ? "A" : "B", tenths))
            XCTAssertEqual(cells[1], clock(gate["a_s"] as? Double ?? -1))
            XCTAssertEqual(cells[2], clock(gate["b_s"] as? Double ?? -1))
        }
        XCTAssertLessThan(apiGates.last?["gap_s"] as? Double ?? 0, -5, "B (30 spm) well ahead at the finish")
        let tracks = try XCTUnwrap(page["tracks"] as? [String: [String: Any]])
        for key in ["a", "b"] {
            XCTAssertEqual(tracks[key]?["points"] as? Int, ((api["trails"] as? [String: [String: Any]])?[key])?["points"] as? Int, key)
        }
        XCTAssertNotEqual(tracks["a"]?["colour"] as? String, tracks["b"]?["colour"] as? String)
        XCTAssertEqual(result["console"] as? [String], [], "no errors in the browser console")
        XCTAssertEqual(result["unknown"] as? String, "No course named “Henley” is kept.")
        BrowserScript.checkScreenshots(result, minimumBytes: 10_000)
    }

    /// Nothing wider than the screen; the tabs end before the sensors begin, the sensors within
    /// the screen, and the page's own tab shown (the tabs scroll sideways on a phone).
    private func checkLayout(_ value: Any?, _ what: String, tab: String = "nav-courses", file: StaticString = #filePath, line: UInt = #line) throws {
        let layout = try XCTUnwrap(value as? [String: Any], what, file: file, line: line)
        XCTAssertEqual(layout["overflow_x"] as? Bool, false, "\(what): \(layout["wide"] ?? "")", file: file, line: line)
        XCTAssertEqual(layout["wide"] as? [String], [], what, file: file, line: line)
        XCTAssertLessThanOrEqual(layout["nav_right"] as? Double ?? 1e9, layout["sensors_left"] as? Double ?? 0, "\(what): the tabs run into the sensors",
                                 file: file, line: line)
        XCTAssertLessThanOrEqual(layout["sensors_right"] as? Double ?? 1e9, layout["width"] as? Double ?? 0, "\(what): the sensors run off the screen",
                                 file: file, line: line)
        XCTAssertEqual(layout["nav_active"] as? [String], [tab], what, file: file, line: line)
        XCTAssertEqual(layout["active_tab_shown"] as? Bool, true, "\(what): the page's tab is in view", file: file, line: line)
    }
}
