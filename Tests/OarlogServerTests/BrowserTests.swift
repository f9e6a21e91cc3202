import Foundation
import OarlogApp
import OarlogCore
import OarlogTestSupport
import XCTest

/// The web app in a real browser (headless Chromium from Debian, driven through chromedriver by
/// Debian's python3-selenium) against `oarlog serve --replay samples/sim-workout.csv --speed 30`,
/// as a cox uses it on a phone (390×844), and the workout on the live screen (WorkoutOnThePage).
/// The screenshots are written to
/// `.build/screenshots/` for a person to look at.
final class BrowserTests: XCTestCase {
    func testTheCoxsRaceThroughThePage() throws {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver", "/usr/bin/python3"] {
            XCTAssertTrue(FileManager.default.isExecutableFile(atPath: tool), "\(tool) is needed (scripts/setup.sh installs it)")
        }
        // A session already on the boat (an NK logbook outing), which the cox deletes from the race list.
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-browser-\(UUID().uuidString)")
        let warmupSave = try oarlogCLI(["replay", "samples/rowingdata/nk_logbook.csv", "--save", "--title", "Warm-up"], dataDirectory: data)
        XCTAssertEqual(warmupSave.status, 0, warmupSave.err)
        let listed = try XCTUnwrap(try jsonObject(try oarlogCLI(["sessions", "--json"], dataDirectory: data).out) as? [[String: Any]])
        let warmup = try XCTUnwrap(listed.first?["id"] as? String)
        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "30"], dataDirectory: data)
        // The workout on the live screen (live_workout.py, in the same browser): a second server, in
        // process, so that a coach's plan can be offered to its station, replaying a crew that rows
        // on at 23 spm (whenever the page starts, it rows: the bundled workout stops for minutes).
        let steady = data.appendingPathComponent("steady.csv").path
        let simulated = try oarlogCLI(["simulate", "--minutes", "30", "--rate", "23", "--accel-hz", "50", "--gps-dropouts", "0", "-o", steady],
                                      dataDirectory: data)
        XCTAssertEqual(simulated.status, 0, simulated.err)
        let workout = try InProcessServer(replay: steady, speed: WorkoutOnThePage.replaySpeed,
                                          offer: WorkoutOffer(id: "coach-1", from: "Launch", plan: try WorkoutSpec.parse(WorkoutOnThePage.spec)))
        defer { workout.stop() }
        let pyramid = try workout.library.add(name: "Pyramid", .spec("4:00,3:00,2:00,1:00/1:00r")).saved
        let shots = try BrowserScript.screenshots()
        let result = try BrowserScript.run("live_page.py", [server.base, server.pairingCode, shots.path, warmup, workout.base, workout.token],
                                           detail: "\n" + server.log.suffix(2000))

        // Before the start: sensors shown, the acceleration trace running.
        let before = try XCTUnwrap(result["before_start"] as? [String: Any])
        XCTAssertEqual(before["gps"] as? String, "ok")
        XCTAssertEqual(before["accel"] as? String, "ok")
        XCTAssertGreaterThan(before["plot_points"] as? Int ?? 0, 20, "the acceleration trace runs before the start")
        // Tiles: Elapsed hidden and Strokes moved to the top survive a reload; cleared, the default returns.
        let defaultTiles = ["stroke_rate_spm", "split_s_per_500m", "strokes", "elapsed_s", "distance_m", "distance_per_stroke_m", "last_note"]
        XCTAssertEqual(result["tiles_default"] as? [String], defaultTiles)
        let changedTiles = ["strokes", "stroke_rate_spm", "split_s_per_500m", "distance_m", "distance_per_stroke_m", "last_note"]
        XCTAssertEqual(result["tiles_changed"] as? [String], changedTiles)
        XCTAssertEqual(result["tiles_after_reload"] as? [String], changedTiles)
        XCTAssertEqual(result["tiles_reset"] as? [String], defaultTiles)
        // Ready only shows Start; Start counts down 3, 2, 1, Go!, then records.
        XCTAssertEqual(result["start_visible_after_ready"] as? Bool, true)
        XCTAssertTrue(result["recording_after_ready"] is NSNull, "Ready must not start anything")
        XCTAssertEqual(result["countdown"] as? [String], ["3", "2", "1", "Go!"])
        let session = try XCTUnwrap(result["session"] as? String)

        // The session is saved, with the note typed on the page; the summary table says so.
        XCTAssertEqual(result["summary_title"] as? String, "Saved: untitled (\(session))")
        let summary = try XCTUnwrap(result["summary"] as? [String: String])
        let show = try oarlogCLI(["show", session, "--json"], dataDirectory: server.dataDirectory)
        XCTAssertEqual(show.status, 0, show.err)
        let shown = try XCTUnwrap(try jsonObject(show.out) as? [String: Any])
        XCTAssertEqual(summary["strokes"], "\(shown["strokes"] as? Int ?? -1)")
        XCTAssertEqual((shown["note_list"] as? [[String: Any]])?.compactMap { $0["text"] as? String }, ["Catch together"])
        XCTAssertEqual(result["portrait_overflow"] as? [String], [], "every figure fits its tile at 390×844")
        XCTAssertEqual(result["final_overflow"] as? [String], [], "20:00.0 and the final distance fit their tiles at 390×844")
        let scrolled = try XCTUnwrap(result["scrolled_bar"] as? [String: Double])
        XCTAssertGreaterThan(scrolled["scroll_y"] ?? 0, 20, "the racing page is taller than the phone")
        XCTAssertEqual(scrolled["bar_top"] ?? -1, 0, accuracy: 0.5, "the sensors' bar stays at the top when the page is scrolled")

        // The final figures on the live page equal `oarlog replay --json`'s.
        let replay = try XCTUnwrap(try jsonObject(try oarlogCLI(["replay", "samples/sim-workout.csv", "--json"],
                                                                 dataDirectory: server.dataDirectory).out) as? [String: Any])
        let final = try XCTUnwrap(result["final"] as? [String: String])
        XCTAssertEqual(Int(final["strokes"] ?? ""), replay["strokes"] as? Int)
        XCTAssertEqual(Double(final["distance_m"] ?? "") ?? -1, replay["distance_m"] as? Double ?? 0, accuracy: 0.006)
        XCTAssertEqual(Double(final["elapsed_s"] ?? "") ?? -1, replay["elapsed_s"] as? Double ?? 0, accuracy: 0.0006)
        XCTAssertEqual(Double(final["distance_per_stroke_m"] ?? "") ?? -1, replay["distance_per_stroke_m"] as? Double ?? 0, accuracy: 0.006)
        XCTAssertGreaterThan(result["trail_points"] as? Int ?? 0, 100)

        // The race list has both sessions, newest first; the search finds the race by its note
        // and not by other words.
        XCTAssertEqual(result["races"] as? [String], [session, warmup])
        XCTAssertEqual(result["search_hits"] as? [String], [session])
        XCTAssertEqual(result["search_misses"] as? [String], [])
        // Each race offers FIT, TCX, GPX and the per-stroke CSV; the FIT link gives the file.
        XCTAssertEqual(result["downloads"] as? [String], ["fit", "tcx", "gpx", "csv"].map { "/api/sessions/\(session)/export/\($0)" })
        let fit = try XCTUnwrap(result["fit_download"] as? [String: Any])
        XCTAssertEqual(fit["status"] as? Int, 200, "\(fit)")
        XCTAssertEqual(fit["type"] as? String, "application/vnd.ant.fit")
        XCTAssertEqual(fit["disposition"] as? String, "attachment; filename=\"\(session).fit\"")
        XCTAssertGreaterThan(fit["bytes"] as? Int ?? 0, 500)
        // Renamed on the page: `oarlog show` has the new title. Delete asked first: Cancel kept
        // the warm-up, OK deleted it (file gone, no longer listed).
        XCTAssertEqual(result["renamed_title"] as? String, "Head race, second crew")
        XCTAssertEqual(shown["title"] as? String, "Head race, second crew")
        XCTAssertTrue((result["delete_question"] as? String ?? "").contains("Warm-up"), "\(result["delete_question"] ?? "")")
        XCTAssertEqual(result["races_after_cancel"] as? [String], [session, warmup])
        XCTAssertEqual(result["races_after_delete"] as? [String], [session])
        let after = try XCTUnwrap(try jsonObject(try oarlogCLI(["sessions", "--json"], dataDirectory: data).out) as? [[String: Any]])
        XCTAssertEqual(after.compactMap { $0["id"] as? String }, [session])
        XCTAssertFalse(FileManager.default.fileExists(atPath: data.appendingPathComponent("sessions/\(warmup).oarlog").path))
        // Landscape: three columns of tiles, every figure fits.
        XCTAssertEqual(result["landscape_columns"] as? Int, 3)
        XCTAssertEqual(result["landscape_overflow"] as? [String], [], "every figure fits its tile at 844×390")
        XCTAssertEqual(result["console"] as? [String], [], "no errors in the browser console")
        try WorkoutOnThePage.check(try XCTUnwrap(result["workout"] as? [String: Any]), answers: workout.answers.all, plan: workout.station.workout,
                                   saved: ["Pyramid": pyramid.summary])
        BrowserScript.checkScreenshots(result, minimumBytes: 10_000)
    }
}
