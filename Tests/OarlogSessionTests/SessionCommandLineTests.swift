import Foundation
import OarlogSession
import OarlogTestSupport
import XCTest

/// End to end through the `oarlog` binary (built beside the test bundle): replay --save,
/// sessions, show, note, play, export, delete, with `OARLOG_DATA_DIR` in a temporary directory.
/// The ground truth for `show` is `oarlog replay --json` of the same trace.
final class SessionCommandLineTests: XCTestCase {
    var directory = ""
    override func setUpWithError() throws { directory = try makeTemporaryDirectory("oarlog-cli") }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    @discardableResult
    func oarlog(_ arguments: [String], expect status: Int32 = 0, file: StaticString = #filePath, line: UInt = #line) throws -> CommandRun {
        let run = try runOarlog(arguments, dataDirectory: directory + "/data", in: directory, file: file, line: line)
        XCTAssertEqual(run.status, status, "oarlog \(arguments.joined(separator: " ")): \(run.err)", file: file, line: line)
        return run
    }

    func object(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }

    /// Two saves with one title at once, 20 times: each takes the next free name (no "File
    /// exists"), all 40 sessions are kept and each is intact (`recover` exits 0).
    func testConcurrentSavesWithOneTitleAreAllKept() throws {
        let trace = directory + "/short.csv"
        var text = "# oarlog-trace: 1\n# start_utc: 2026-05-02T07:00:00.000Z\nt,kind,values\n"
        for k in 0..<500 { text += "\(Double(k) * 0.02),accel,0.1,0.2,9.8\n" }
        try text.write(toFile: trace, atomically: true, encoding: .utf8)
        let binary = try Binaries.oarlog()
        for round in 0..<20 {
            // Both processes run at once; each is waited for after both have started.
            let errors = (0..<2).map { "\(directory)/save-\(round)-\($0).err" }
            let running = try errors.map {
                try ChildProcess(binary, ["replay", trace, "--save", "--title", "same"], environment: ["OARLOG_DATA_DIR": directory + "/data"],
                                 errors: $0)
            }
            for (p, err) in zip(running, errors) {
                XCTAssertEqual(p.wait(), 0, ChildProcess.text(err))
            }
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory + "/data/sessions").filter { $0.hasSuffix(".oarlog") }
        XCTAssertEqual(files.count, 40)
        XCTAssertTrue(files.contains("2026-05-02T07-00-00Z_same.oarlog"))
        XCTAssertTrue(files.contains("2026-05-02T07-00-00Z_same_40.oarlog"))
        for name in files {
            let report = try SessionRecovery.recover(directory + "/data/sessions/" + name)
            XCTAssertEqual(report.outcome, .intact, name)
        }
    }

    func testSaveListShowNotePlayExportDelete() throws {
        try oarlog(["simulate", "--minutes", "2", "--profile", "50:24,20:rest,50:20", "-o", "trace.csv"])
        let replay = try object(try oarlog(["replay", "trace.csv", "--json", "--strokes"]).out)
        let saved = try oarlog(["replay", "trace.csv", "--save", "--title", "CLI test"])
        XCTAssertTrue(saved.err.contains("saved as session 2026-05-02T07-00-00Z_cli-test"), saved.err)
        XCTAssertTrue(saved.out.contains("Strokes"))

        // sessions: one, with replay's figures.
        let list = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try oarlog(["sessions", "--json"]).out.utf8)) as? [[String: Any]])
        XCTAssertEqual(list.count, 1)
        XCTAssertEqual(list.first?["title"] as? String, "CLI test")
        XCTAssertEqual(list.first?["strokes"] as? Int, replay["strokes"] as? Int)
        XCTAssertTrue(try oarlog(["sessions"]).out.contains("CLI test"))

        // show --json: the same figures as replay --json (from the stored summary, not a replay).
        let shown = try object(try oarlog(["show", "last", "--json", "--strokes"]).out)
        XCTAssertEqual(shown["recomputed"] as? Bool, false)
        for key in ["elapsed_s", "distance_m", "avg_stroke_rate_spm", "avg_split_s_per_500m", "distance_per_stroke_m",
                    "max_stroke_rate_spm", "best_split_s_per_500m", "accel_samples", "gps_fixes"] {
            let a = try XCTUnwrap(shown[key] as? Double, key), b = try XCTUnwrap(replay[key] as? Double, key)
            XCTAssertEqual(a, b, accuracy: 1e-9, key)
        }
        let strokes = try XCTUnwrap(replay["strokes"] as? Int)
        XCTAssertGreaterThan(strokes, 30)
        XCTAssertEqual(shown["strokes"] as? Int, strokes)
        let shownList = try XCTUnwrap(shown["stroke_list"] as? [[String: Any]])
        let replayList = try XCTUnwrap(replay["stroke_list"] as? [[String: Any]])
        XCTAssertEqual(shownList.compactMap { $0["t_s"] as? Double }, replayList.compactMap { $0["t_s"] as? Double })
        XCTAssertEqual(shownList.count, strokes)
        let table = try oarlog(["show", "last"]).out
        XCTAssertTrue(table.contains("Oarlog session — CLI test"), table)
        XCTAssertTrue(table.contains("Strokes          \(strokes)"), table)

        // note: added at 1:00, listed by show, counted.
        XCTAssertTrue(try oarlog(["note", "last", "seat 3 cramp", "--at", "1:00"]).out.contains("1:00.0"))
        let noted = try object(try oarlog(["show", "last", "--json"]).out)
        XCTAssertEqual(noted["notes"] as? Int, 1)
        let notes = try XCTUnwrap(noted["note_list"] as? [[String: Any]])
        XCTAssertEqual(notes.first?["t_s"] as? Double, 60)
        XCTAssertEqual(notes.first?["text"] as? String, "seat 3 cramp")
        XCTAssertEqual(noted["strokes"] as? Int, strokes)
        try oarlog(["note", "last", "x", "--at", "1:75"], expect: 64)

        // play: the live display, paced (fast), then the summary of what was played.
        let played = try oarlog(["play", "last", "--speed", "2000"])
        XCTAssertTrue(played.out.contains("remaining"), played.out)
        XCTAssertTrue(played.out.contains("Strokes          \(strokes)"), played.out)
        let from = try oarlog(["play", "last", "--speed", "2000", "--from", "1:10"])
        XCTAssertTrue(from.err.contains("from 1:10.0"), from.err)
        XCTAssertTrue(from.out.contains("Notes            0"), from.out)  // the note at 1:00 is before

        // export: the session's strokes and fixes.
        try oarlog(["export", "last", "--format", "gpx", "-o", "out.gpx"])
        let gpx = try String(contentsOfFile: directory + "/out.gpx", encoding: .utf8)
        XCTAssertEqual(gpx.components(separatedBy: "<trkpt").count - 1, replay["gps_fixes"] as? Int)
        try oarlog(["export", "last", "--format", "csv"])
        let csvName = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: directory).first { $0.hasSuffix(".strokes.csv") })
        XCTAssertTrue(csvName.hasPrefix("2026-05-02T07-00-00Z_cli-test"))
        let csv = try String(contentsOfFile: directory + "/" + csvName, encoding: .utf8)
        XCTAssertEqual(csv.split(separator: "\n").count, strokes + 1)

        // A session cut short (no tail): show recomputes and says so.
        let path = try XCTUnwrap(list.first?["path"] as? String)
        let cut = directory + "/data/sessions/2026-05-02T08-00-00Z_cut.oarlog"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count - 3000).write(to: URL(fileURLWithPath: cut))
        let recomputedRun = try oarlog(["show", cut, "--json"])
        XCTAssertTrue(recomputedRun.err.contains("not closed normally"), recomputedRun.err)
        let recomputed = try object(recomputedRun.out)
        XCTAssertEqual(recomputed["recomputed"] as? Bool, true)
        XCTAssertEqual(Double(try XCTUnwrap(recomputed["strokes"] as? Int)), Double(strokes), accuracy: 1)
        try oarlog(["note", cut, "no"], expect: 1)

        // delete: refuses a trace, removes sessions.
        try oarlog(["delete", "trace.csv"], expect: 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory + "/trace.csv"))
        try oarlog(["delete", cut])
        try oarlog(["delete", "last"])
        XCTAssertEqual(try oarlog(["sessions", "--json"]).out, "[]\n")
        try oarlog(["show", "last"], expect: 1)
    }
}
