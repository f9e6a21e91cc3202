import Foundation
import OarlogTestSupport
import XCTest

/// A session's page in headless Chromium (Debian's chromium and chromedriver, driven by
/// python3-selenium), at phone and laptop size: the summary equals `oarlog show --json`, the
/// track is the session's, pins at its ends, plots without data shown disabled, a note added on
/// the page is in `oarlog show`. Screenshots in `.build/screenshots/session-*.png`.
final class SessionPageTests: XCTestCase {
    func testSessionPagesShowWhatShowSays() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-session-page-\(UUID().uuidString)")
        // Three sessions: accelerometer and GPS (the simulated workout), GPS with the device's own
        // strokes (the NK logbook), and the accelerometer alone (the workout's first two minutes
        // without its GPS rows).
        let accelOnly = data.appendingPathComponent("accel-only.csv")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let workout = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("samples/sim-workout.csv"), encoding: .utf8)
        let lines = workout.split(separator: "\n", omittingEmptySubsequences: false).prefix(7000).filter { !$0.contains(",gps,") }
        try (lines.joined(separator: "\n") + "\n").write(to: accelOnly, atomically: true, encoding: .utf8)
        // And a 10-hour session (a workout's pieces and rests over and over), for the page's speed.
        let long = data.appendingPathComponent("ten-hours.csv")
        let simulated = try oarlogCLI(["simulate", "--minutes", "600", "--profile", "workout", "--accel-hz", "25", "--seed", "5",
                                       "-o", long.path], dataDirectory: data)
        XCTAssertEqual(simulated.status, 0, simulated.err)
        var ids: [String] = []
        // The NK logbook is timed over its 2,000 m course (the fences are kept in the session).
        for (trace, title, extra) in [("samples/sim-workout.csv", "Head race", []),
                                      ("samples/rowingdata/nk_logbook.csv", "Long row", ["--fences", "samples/nk-course.geojson"]),
                                      (accelOnly.path, "No GPS", []), ("samples/sim-workout.csv", "Plan", ["--workout", Self.plan]),
                                      (long.path, "Ten hours", [])] {
            let saved = try oarlogCLI(["replay", trace, "--save", "--title", title] + extra, dataDirectory: data)
            XCTAssertEqual(saved.status, 0, saved.err)
            let listed = try XCTUnwrap(try jsonObject(try oarlogCLI(["sessions", "--json"], dataDirectory: data).out) as? [[String: Any]])
            ids.append(try XCTUnwrap(listed.first(where: { ($0["title"] as? String) == title })?["id"] as? String))
        }
        let tenHours = ids.removeLast()
        let planned = ids.removeLast()
        // What `oarlog show` says of each, before the page adds a note to the first.
        var shows: [String: [String: Any]] = [:]
        for id in ids {
            shows[id] = try XCTUnwrap(try jsonObject(try oarlogCLI(["show", id, "--json"], dataDirectory: data).out) as? [String: Any])
        }
        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "5"], dataDirectory: data)
        let shots = try BrowserScript.screenshots()
        let result = try BrowserScript.run("session_page.py", [server.base, server.pairingCode, shots.path] + ids
                                           + ["workout:" + planned, "long:" + tenHours])
        let sessions = try XCTUnwrap(result["sessions"] as? [String: [String: Any]])

        for (n, id) in ids.enumerated() {
            let show = try XCTUnwrap(shows[id])
            let seen = try XCTUnwrap(sessions[id])
            for size in ["phone", "laptop"] {
                let page = try XCTUnwrap(seen[size] as? [String: Any], size)
                XCTAssertEqual(page["title"] as? String, show["title"] as? String)
                XCTAssertEqual(page["overflow_x"] as? Bool, false, "\(id) \(size): nothing wider than the screen")
                // Every figure of the summary is `oarlog show --json`'s; "—" exactly where it has none.
                let summary = try XCTUnwrap(page["summary"] as? [String: [String: String]])
                for key in ["elapsed_s", "distance_m", "strokes", "avg_stroke_rate_spm", "max_stroke_rate_spm", "avg_split_s_per_500m",
                            "best_split_s_per_500m", "distance_per_stroke_m", "gps_fixes", "accel_samples", "notes"] {
                    let cell = try XCTUnwrap(summary[key], "\(id): \(key)")
                    if let number = show[key] as? Double {
                        XCTAssertEqual(Double(cell["value"] ?? ""), number, "\(id) \(size): \(key)")
                    } else {
                        XCTAssertEqual(cell["text"], "—", "\(id) \(size): \(key) has no data")
                    }
                }
                XCTAssertEqual(page["downloads"] as? [String], ["fit", "tcx", "gpx", "csv", "geojson"].map { "/api/sessions/\(id)/export/\($0)" })
            }
            let laptop = try XCTUnwrap(seen["laptop"] as? [String: Any])
            let fixes = show["gps_fixes"] as? Int ?? 0
            // The pieces' table is the server's (/pieces): one row each, its label and strokes.
            let pieces = try XCTUnwrap(try jsonObject(try server.request("GET", "/api/sessions/\(id)/pieces").body) as? [String: Any])
            let listed = try XCTUnwrap(pieces["pieces"] as? [[String: Any]])
            let rows = try XCTUnwrap(laptop["pieces"] as? [[String]])
            XCTAssertEqual(rows.map { $0[0] }, listed.map { $0["label"] as? String ?? "?" }, id)
            XCTAssertEqual(rows.map { $0[6] }, listed.map { "\($0["strokes"] as? Int ?? -1)" }, id)
            XCTAssertEqual(rows.map { $0[2] }, listed.map { clockText($0["time_s"] as? Double ?? -1) }, id)
            XCTAssertEqual(laptop["pieces_kind"] as? String, pieces["kind"] as? String)
            // Against distance the x axis is km and runs to the session's distance; back to minutes.
            let byDistance = try XCTUnwrap(seen["against_distance"] as? [String: Any])
            let byTime = try XCTUnwrap(seen["against_time"] as? [String: Any])
            XCTAssertEqual(byDistance["axis"] as? String, "km")
            XCTAssertEqual(byTime["axis"] as? String, "minutes")
            if let distance = show["distance_m"] as? Double {
                XCTAssertEqual(byDistance["last_x"] as? Double ?? 0, distance / 1000, accuracy: distance / 1000 * 0.03, id)
                XCTAssertEqual(byTime["last_x"] as? Double ?? 0, (show["elapsed_s"] as? Double ?? 0) / 60, accuracy: 1, id)
            }
            if fixes > 0 {
                // The track is the session's: the GeoJSON export's points, pins at its first and last.
                let geojson = try XCTUnwrap(try JSONSerialization.jsonObject(with: try server.download("/api/sessions/\(id)/track").body) as? [String: Any])
                let trail = try XCTUnwrap((geojson["features"] as? [[String: Any]])?.first)
                let coordinates = try XCTUnwrap((trail["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
                XCTAssertEqual(laptop["map_shown"] as? Bool, true)
                XCTAssertEqual(laptop["trail_points"] as? Int, coordinates.count)
                XCTAssertGreaterThanOrEqual(coordinates.count, fixes * 95 / 100, "\(id): \(coordinates.count) track points of \(fixes) fixes")
                XCTAssertLessThanOrEqual(coordinates.count, fixes)
                let start = try XCTUnwrap(laptop["start_pin"] as? [Double]), end = try XCTUnwrap(laptop["end_pin"] as? [Double])
                XCTAssertEqual(start[0], coordinates[0][1], accuracy: 1e-9); XCTAssertEqual(start[1], coordinates[0][0], accuracy: 1e-9)
                XCTAssertEqual(end[0], coordinates[coordinates.count - 1][1], accuracy: 1e-9)
                XCTAssertEqual(end[1], coordinates[coordinates.count - 1][0], accuracy: 1e-9)
                XCTAssertEqual(laptop["split_disabled"] as? Bool, false)
                for size in ["phone", "laptop"] {
                    let page = try XCTUnwrap(seen[size] as? [String: Any])
                    XCTAssertGreaterThan(page["map_width"] as? Int ?? 0, (page["panel_width"] as? Int ?? 0) - 20, "\(id) \(size): the map fills its panel")
                }
                XCTAssertTrue((laptop["legend"] as? String ?? "").hasPrefix("Split"), "\(laptop["legend"] ?? "")")
                XCTAssertTrue((seen["legend_by_rate"] as? String ?? "").hasPrefix("Rate"), "\(seen["legend_by_rate"] ?? "")")
                XCTAssertTrue((seen["tap"] as? String ?? "").contains("/500m"), "\(seen["tap"] ?? "")")
            } else {
                // No GPS: no map, no split plot (disabled, not zeros); the rate is there.
                XCTAssertEqual(n, 2)
                XCTAssertEqual(laptop["map_shown"] as? Bool, false)
                XCTAssertEqual(laptop["no_map_note"] as? Bool, true)
                XCTAssertEqual(laptop["split_disabled"] as? Bool, true)
                XCTAssertEqual(laptop["rate_disabled"] as? Bool, false)
                XCTAssertEqual((laptop["plot_points"] as? [String: Int])?["split"], 0)
                XCTAssertGreaterThan((laptop["plot_points"] as? [String: Int])?["rate"] ?? 0, 20)
            }
        }
        // The simulated workout's rests (pauses between its pieces) are shaded on the plots.
        let rests = try XCTUnwrap((sessions[ids[0]]?["laptop"] as? [String: Any])?["rests"] as? [[Double]])
        XCTAssertGreaterThanOrEqual(rests.count, 3, "\(rests)")
        for rest in rests { XCTAssertGreaterThanOrEqual((rest[1] - rest[0]) * 60, 10) }
        // The NK logbook has no accelerometer: its strokes are the device's, its accelerometer row "—".
        let nk = try XCTUnwrap((sessions[ids[1]]?["phone"] as? [String: Any])?["summary"] as? [String: [String: String]])
        XCTAssertEqual(nk["accel_samples"]?["text"], "—")
        XCTAssertNotEqual(nk["strokes"]?["text"], "—")

        // The note added on the page at 5:00 and then edited (new words, at 6:30) is in `oarlog
        // show` as edited, at 390 s, and marked on the plots.
        let shown = try XCTUnwrap(try jsonObject(try oarlogCLI(["show", ids[0], "--json"], dataDirectory: data).out) as? [String: Any])
        let notes = try XCTUnwrap(shown["note_list"] as? [[String: Any]])
        XCTAssertEqual(notes.compactMap { $0["text"] as? String }, ["Rate up after the bridge"])
        XCTAssertEqual(notes.first?["t_s"] as? Double ?? -1, 390, accuracy: 0.001)
        XCTAssertEqual(result["notes_after_add"] as? [String], ["5:00.0 Rate up at the bridge"])
        XCTAssertEqual(result["notes_after_edit"] as? [String], ["6:30.0 Rate up after the bridge"])
        // Share link: a link of this server's own address to /share/TOKEN that the API lists for
        // that session (its token opens that session read-only: ShareRoutesTests).
        let links = try XCTUnwrap(try jsonObject(try server.request("GET", "/api/sessions/\(ids[0])/shares", token: server.token).body) as? [[String: Any]])
        let paths = links.compactMap { $0["path"] as? String }
        XCTAssertEqual(paths.count, 1, "\(links)")
        XCTAssertEqual(result["share_link"] as? String, server.base + (paths.first ?? "?"))
        XCTAssertTrue((result["share_note"] as? String ?? "").contains("this one session"), "\(result["share_note"] ?? "nil")")
        XCTAssertEqual(result["note_marks_after_add"] as? Int, 1)

        try checkPiecesCurvesAndCourse(sessions, ids: ids, server: server, data: data)
        try checkIntervals(try XCTUnwrap(result["workout"] as? [String: Any]), id: planned, data: data)

        // Ten hours, first visit: the whole page drawn (summary, plots, pieces, curve, map); its
        // trail thinned to 10,000 of its fixes; the plots' series under 200 kB. How long it takes
        // is printed here and measured in docs/BENCHMARKS.md ("The session page"), not asserted:
        // a busy CI machine is not a slow page.
        let readyIn = try XCTUnwrap(result["long_ready_s"] as? Double)
        print("10-hour session page ready in \(String(format: "%.2f", readyIn)) s")
        XCTAssertGreaterThan(readyIn, 0)
        let longShow = try XCTUnwrap(try jsonObject(try oarlogCLI(["show", tenHours, "--json"], dataDirectory: data).out) as? [String: Any])
        let longPage = try XCTUnwrap(result["long"] as? [String: Any])
        XCTAssertEqual(longPage["trail_points"] as? Int, min(10_000, longShow["gps_fixes"] as? Int ?? 0))
        XCTAssertGreaterThan(longPage["pieces"].map { ($0 as? [[String]])?.count ?? 0 } ?? 0, 50, "the workout's pieces, repeated for 10 hours")
        let longSeries = try server.download("/api/sessions/\(tenHours)/series?fields=split,rate,distance&points=600")
        print("10-hour session: series \(longSeries.body.count) bytes")
        XCTAssertLessThan(longSeries.body.count, 200_000)
        // Playback: after a seek to 75 % the screen shows the session's elapsed time and strokes
        // there (within one stroke), with the elapsed time and the time remaining over the slider.
        let truthStrokes = try XCTUnwrap((try jsonObject(try oarlogCLI(["show", ids[0], "--json", "--strokes"], dataDirectory: data).out)
            as? [String: Any])?["stroke_list"] as? [[String: Any]])
        let seek = try XCTUnwrap(result["playback_seek"] as? [String: Any])
        let seekTo = try XCTUnwrap(seek["seek"] as? Double), duration = try XCTUnwrap(seek["duration"] as? Double)
        XCTAssertEqual(duration, (shows[ids[0]]?["elapsed_s"] as? Double ?? 0).rounded(.up), accuracy: 1)
        XCTAssertEqual(seek["elapsed"] as? Double ?? -1, seekTo, accuracy: 0.01)
        let strokesThen = truthStrokes.filter { ($0["t_s"] as? Double ?? .infinity) <= seekTo }.count
        XCTAssertEqual(Double(seek["strokes"] as? Int ?? -10), Double(strokesThen), accuracy: 1)
        XCTAssertEqual(seek["slider"] as? Double, seekTo)
        XCTAssertEqual(seek["elapsed_label"] as? String, clockText(seekTo))
        XCTAssertEqual(seek["remaining_label"] as? String, "−" + clockText(duration - seekTo))
        XCTAssertEqual(seek["last_note"] as? String, "Rate up after the bridge", "the note at 6:30 is the last one at 15:00")
        // Playing at 60×: strokes count on from there, the elapsed time and the slider run, the
        // boat moves on its trail, the acceleration trace runs; a pause holds it.
        let play = try XCTUnwrap(result["playback_play"] as? [String: Any])
        XCTAssertEqual(play["state"] as? String, "playing")
        XCTAssertGreaterThanOrEqual(play["strokes"] as? Int ?? 0, strokesThen + 8)
        XCTAssertGreaterThan(play["elapsed"] as? Double ?? 0, seekTo + 10)
        XCTAssertGreaterThan(play["slider"] as? Double ?? 0, seekTo)
        XCTAssertGreaterThan(play["trail_points"] as? Int ?? 0, 5)
        XCTAssertGreaterThan(play["plot_points"] as? Int ?? 0, 20)
        XCTAssertGreaterThanOrEqual(result["playback_paused_at"] as? Double ?? 0, play["elapsed"] as? Double ?? .infinity)
        XCTAssertEqual(result["playback_closed"] as? Bool, true)
        XCTAssertEqual(result["playback_laptop_overflow_x"] as? Bool, false)
        XCTAssertEqual(result["console"] as? [String], [], "no errors in the browser console")
        BrowserScript.checkScreenshots(result, minimumBytes: 10_000)
    }

    /// The pieces and stroke curves of the workout (against the simulator's truth), the NK
    /// logbook's course legs (against `oarlog course`) and its fences and crossings on the map.
    func checkPiecesCurvesAndCourse(_ sessions: [String: [String: Any]], ids: [String], server: ServerProcess, data: URL) throws {
        // The workout: its pieces are the truth's runs of catches between stops of 10 s or more.
        let truth = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("samples/sim-workout.truth.csv"), encoding: .utf8)
        let catches = truth.split(separator: "\n").filter { $0.hasPrefix("stroke,") }.compactMap { Double($0.split(separator: ",")[2]) }
        var runs: [[Double]] = [[]]
        for t in catches {
            if let last = runs[runs.count - 1].last, t - last >= 10 { runs.append([]) }
            runs[runs.count - 1].append(t)
        }
        runs = runs.filter { $0.count >= 5 }
        let workout = try XCTUnwrap(sessions[ids[0]]?["laptop"] as? [String: Any])
        XCTAssertEqual(workout["pieces_kind"] as? String, "rests")
        let rows = try XCTUnwrap(workout["pieces"] as? [[String]])
        XCTAssertEqual(rows.count, runs.count, "\(rows)")
        for (row, run) in zip(rows, runs) {
            XCTAssertEqual(Double(Int(row[6]) ?? 0), Double(run.count), accuracy: 2, "\(row)")
        }
        // Its first piece's average stroke: the piece's strokes, the truth's stroke and drive
        // length, the boat surging in the drive and checked at the catch, no net gain over a
        // stroke at steady speed.
        let average = try XCTUnwrap(workout["curve_average"] as? [String: Any])
        let first = runs[0]
        let truthPeriod = (first[first.count - 1] - first[0]) / Double(first.count - 1)
        XCTAssertGreaterThanOrEqual(average["strokes"] as? Int ?? 0, first.count - 3)
        XCTAssertEqual(average["stroke_s"] as? Double ?? 0, truthPeriod, accuracy: truthPeriod * 0.03)
        let drives = truth.split(separator: "\n").filter { $0.hasPrefix("stroke,") }.prefix(first.count).compactMap { Double($0.split(separator: ",")[4]) }
        XCTAssertEqual(average["drive_s"] as? Double ?? 0, drives.reduce(0, +) / Double(drives.count), accuracy: 0.15)
        let curve = (average["mps2"] as? [Any] ?? []).compactMap { $0 as? Double }
        let phase = (average["phase"] as? [Double]) ?? []
        XCTAssertEqual(curve.count, 100)
        XCTAssertEqual(curve.reduce(0, +) / Double(max(1, curve.count)), 0, accuracy: 0.2, "no net gain over a stroke")
        let peak = curve.indices.max { curve[$0] < curve[$1] } ?? 0
        let driveShare = (average["drive_s"] as? Double ?? 1) / (average["stroke_s"] as? Double ?? 1)
        XCTAssertLessThan(phase[peak], driveShare + 0.05, "the surge peaks in the drive")
        XCTAssertGreaterThan(curve[peak], 0.5)
        XCTAssertEqual(workout["curve_disabled"] as? Bool, false)
        let single = try XCTUnwrap(sessions[ids[0]]?["curve_single"] as? [String: Any])
        // Stroke 1 of the piece is the session's first stroke: its time, rate and drive as `show` has them.
        let firstStroke = try XCTUnwrap((try jsonObject(try oarlogCLI(["show", ids[0], "--json", "--strokes"], dataDirectory: data).out)
            as? [String: Any])?["stroke_list"] as? [[String: Any]]).first ?? [:]
        var expectedTitle = "Piece 1: stroke 1 of \(rows[0][6])\n" + clockText(firstStroke["t_s"] as? Double ?? -1)
        if let rate = firstStroke["rate_spm"] as? Double { expectedTitle += " · " + String(format: "%.1f", rate) + " spm" }
        if let drive = firstStroke["drive_s"] as? Double { expectedTitle += " · drive " + String(format: "%.2f", drive) + " s" }
        XCTAssertEqual(single["title"] as? String, expectedTitle)
        XCTAssertEqual((single["plotted"] as? [String: Int])?["single"], 100)
        // The second piece picked: its curve, and its stretch of the track outlined on the map.
        let second = try XCTUnwrap(sessions[ids[0]]?["second_piece_curve"] as? [String: Any])
        XCTAssertEqual((second["title"] as? String)?.hasPrefix("Piece 2"), true)
        let trail = try XCTUnwrap(try jsonObject(try server.request("GET", "/api/sessions/\(ids[0])/trail").body) as? [String: Any])
        let from = try XCTUnwrap(second["start_s"] as? Double), to = try XCTUnwrap(second["end_s"] as? Double)
        let inPiece = (trail["t_s"] as? [Double] ?? []).filter { $0 >= from && $0 <= to }.count
        XCTAssertGreaterThan(inPiece, 100, "two minutes of 1 Hz fixes")
        XCTAssertEqual(second["highlighted"] as? Int, inPiece)

        // The NK logbook: its pieces are the course's legs, as `oarlog course` timed them.
        let nk = try XCTUnwrap(sessions[ids[1]]?["laptop"] as? [String: Any])
        XCTAssertEqual(nk["pieces_kind"] as? String, "course")
        let course = try oarlogCLI(["course", "samples/rowingdata/nk_logbook.csv", "--fences", "samples/nk-course.geojson"], dataDirectory: data)
        XCTAssertEqual(course.status, 0, course.err)
        let legs = course.out.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
            .filter { $0.count >= 8 && Int($0[0]) != nil }
        let nkRows = try XCTUnwrap(nk["pieces"] as? [[String]])
        XCTAssertEqual(nkRows.map { $0[0] }, ["Start → 500 m", "500 m → 1000 m", "1000 m → 1500 m", "1500 m → Finish"])
        XCTAssertEqual(legs.count, 4, course.out)
        for (row, leg) in zip(nkRows, legs) {
            XCTAssertTrue(leg.contains(Substring(row[2])), "the leg's time \(row[2]) is `oarlog course`'s: \(leg)")
            XCTAssertEqual(leg.last.map(String.init), row[6], "strokes")
        }
        // Its map: the course's five gates, and every crossing recorded.
        let recorded = try XCTUnwrap(try jsonObject(try server.request("GET", "/api/sessions/\(ids[1])/course").body) as? [String: Any])
        let crossings = try XCTUnwrap(recorded["crossings"] as? [[String: Any]])
        XCTAssertGreaterThanOrEqual(crossings.count, 8)
        let shown = try XCTUnwrap(nk["course_shown"] as? [String: Int])
        XCTAssertEqual(shown["gates"], 5)
        XCTAssertEqual(shown["crossings"], crossings.count)
        XCTAssertTrue((nk["legend"] as? String ?? "").contains("NK logbook 2000 m"))
        // Under the workout's curve, its stroke quality as figures a cox can read: the drive :
        // recovery ratio near the truth's (the detector's drive is a few per cent short), the
        // check and the speed swing; nothing of the kind without an accelerometer.
        for size in ["laptop", "phone"] {
            let figures = try XCTUnwrap(sessions[ids[0]]?[size] as? [String: Any])["curve_quality"] as? [[String: Any]] ?? []
            XCTAssertEqual(figures.map { $0["key"] as? String ?? "?" }, ["ratio", "check", "swing"], size)
            for f in figures {
                XCTAssertGreaterThanOrEqual(f["value_px"] as? Double ?? 0, 24, "\(size): \(f)")
                XCTAssertGreaterThanOrEqual(f["width"] as? Double ?? 0, 90, "\(size): \(f)")
            }
            let ratio = figures.first { $0["key"] as? String == "ratio" }?["value"] as? String ?? ""
            let recoveryPerDrive = Double(ratio.replacingOccurrences(of: "1 : ", with: "")) ?? 0
            let strokeRows = truth.split(separator: "\n").filter { $0.hasPrefix("stroke,") }.prefix(first.count).map { $0.split(separator: ",", omittingEmptySubsequences: false) }
            let truthRatios = strokeRows.compactMap { r -> Double? in
                guard r.count > 5, let d = Double(r[4]), let v = Double(r[5]), v > 0 else { return nil }
                return d / v
            }
            let truthRatio = truthRatios.reduce(0, +) / Double(max(1, truthRatios.count))
            XCTAssertEqual(recoveryPerDrive, 1 / truthRatio, accuracy: 0.1 / truthRatio + 0.05, "\(size): 1 : \(recoveryPerDrive) against the truth's 1 : \(1 / truthRatio)")
        }
        XCTAssertEqual((nk["curve_quality"] as? [Any])?.count, 0)
        // No accelerometer: no stroke curve (disabled, not zeros).
        XCTAssertEqual(nk["curve_disabled"] as? Bool, true)
        XCTAssertEqual((nk["curve_plotted"] as? [String: Int])?["average"], 0)
        // The workout has no course: nothing drawn for one.
        XCTAssertEqual((workout["course_shown"] as? [String: Int])?["gates"], 0)
    }

    static let plan = "3x2:00@18-20spm/1:00r"

    /// A session that rowed a plan: the pieces table is its intervals as `oarlog show` lists
    /// them — five rows, pieces and rests, each piece's target 18–20 spm with its share in band,
    /// rests quieter — at phone and laptop size; the first piece's curve is shown first, the third
    /// interval's when its row is tapped.
    func checkIntervals(_ seen: [String: Any], id: String, data: URL) throws {
        let shown = try XCTUnwrap(try jsonObject(try oarlogCLI(["show", id, "--json"], dataDirectory: data).out) as? [String: Any])
        let intervals = try XCTUnwrap(shown["intervals"] as? [[String: Any]])
        XCTAssertEqual(intervals.count, 5)
        for size in ["phone", "laptop"] {
            let page = try XCTUnwrap(seen[size] as? [String: Any], size)
            XCTAssertEqual(page["kind"] as? String, "workout", size)
            XCTAssertEqual(page["workout_class"] as? Bool, true, size)
            XCTAssertEqual(page["title"] as? String, "plan " + Self.plan, size)
            XCTAssertEqual(page["overflow_x"] as? Bool, false, "\(size): nothing wider than the screen")
            XCTAssertLessThanOrEqual(page["table_width"] as? Double ?? .infinity, (page["scroll_width"] as? Double ?? 0) + 0.5,
                                     "\(size): the intervals table fits its panel")
            let rows = try XCTUnwrap(page["rows"] as? [[String: Any]], size)
            XCTAssertEqual(rows.count, 5, size)
            XCTAssertEqual(rows.map { $0["label"] as? String }, ["Piece 1", "Rest", "Piece 2", "Rest", "Piece 3"], size)
            XCTAssertEqual(rows.map { $0["rest"] as? Bool }, [false, true, false, true, false], size)
            XCTAssertEqual(rows.map { $0["selected"] as? Bool }, [true, false, false, false, false], "\(size): the first piece is picked")
            for (row, interval) in zip(rows, intervals) {
                let cells = try XCTUnwrap(row["cells"] as? [String])
                XCTAssertEqual(cells[0], "\(interval["index"] as? Int ?? -1)", size)
                XCTAssertEqual(cells[2], clockText(interval["elapsed_s"] as? Double ?? -1), size)
                XCTAssertEqual(cells[6], "\(interval["strokes"] as? Int ?? -1)", size)
                let targets = try XCTUnwrap(row["target"] as? [[String: Any]])
                if interval["kind"] as? String == "rest" {
                    // A rest's target column says "—"; on a phone it has no target line.
                    XCTAssertEqual(row["target_text"] as? String ?? "—", "—", "\(size): a rest has no target")
                    XCTAssertEqual(row["target_in"] as? String, size == "phone" ? nil : "column", size)
                    continue
                }
                // A column at laptop size; on a phone a line under the interval's figures.
                XCTAssertEqual(row["target_in"] as? String, size == "phone" ? "line" : "column", size)
                // The target cell: the band, the share of the piece in it (show's), where the average stands.
                XCTAssertEqual(targets.count, 1, size)
                XCTAssertEqual(targets.first?["what"] as? String, "rate")
                XCTAssertEqual(targets.first?["band"] as? String, "18–20 spm")
                let share = try XCTUnwrap(interval["stroke_rate_in_band"] as? Double)
                XCTAssertEqual(Double(targets.first?["share"] as? String ?? "") ?? -1, share, accuracy: 0.0005, size)
                XCTAssertTrue((row["target_text"] as? String ?? "").contains("\(Int((share * 100).rounded()))%"), "\(row)")
                let rate = try XCTUnwrap(interval["avg_stroke_rate_spm"] as? Double)
                XCTAssertEqual(targets.first?["marker"] as? String, rate < 17.5 ? "under" : rate > 20.5 ? "over" : "in", "\(size): \(rate) spm")
            }
            let font = rows.map { $0["font_px"] as? Double ?? 0 }
            XCTAssertLessThan(font[1], font[0], "\(size): a rest's figures are smaller than a piece's")
            XCTAssertTrue((page["curve_title"] as? String ?? "").hasPrefix("Piece 1: average of"), "\(page["curve_title"] ?? "")")
        }
        let third = try XCTUnwrap(seen["third"] as? [String: Any])
        XCTAssertEqual(third["label"] as? String, "Piece 2")
        let strokes = try XCTUnwrap(intervals[2]["strokes"] as? Int)
        XCTAssertEqual(third["piece_strokes"] as? Int, strokes)
        XCTAssertGreaterThanOrEqual(third["strokes"] as? Int ?? 0, strokes - 3, "the curve averages (nearly) all its strokes")
        XCTAssertLessThanOrEqual(third["strokes"] as? Int ?? .max, strokes)
    }

    /// The page's clock: m:ss.t under an hour, h:mm:ss from one.
    func clockText(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded())
        let h = tenths / 36000, m = tenths / 600 % 60, s = tenths / 10 % 60, t = tenths % 10
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d.%d", m, s, t)
    }
}
