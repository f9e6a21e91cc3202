#if canImport(Glibc)
import Glibc
#endif
import Foundation
import OarlogTestSupport
import XCTest

/// Store and forward as a person meets it (docs/UPLOADS.md): the built `oarlog` against
/// Intervals.icu's stand-in (Tests/Standins/training_site.py, from Intervals.icu's API v1 document:
/// `POST /api/v1/athlete/{id}/activities`). Offline → queued; back → delivered exactly once; a
/// kill -9 mid-send → delivered exactly once after; 100 sessions → each once; a 401 → failed,
/// said, the account stopped until added again. One replayed NK outing (1 600 strokes' worth of
/// rows) is the session.
final class UploadsCLITests: XCTestCase {
    var data: URL!
    var keys: URL!
    static let apiKey = "k3y-\(UUID().uuidString)"

    override func setUpWithError() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-uploads-cli-\(UUID().uuidString)")
        data = root.appendingPathComponent("data")
        keys = root.appendingPathComponent("keys")
        for d in [data!, keys!] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
        try Data((Self.apiKey + "\n").utf8).write(to: keys.appendingPathComponent("intervals.key"))
    }

    override func tearDown() { try? FileManager.default.removeItem(at: data.deletingLastPathComponent()) }

    @discardableResult
    func oarlog(_ arguments: String...) throws -> CommandRun { try runOarlog(arguments, dataDirectory: data.path) }

    /// Replays the NK outing and keeps it: its session id.
    func keptSession() throws -> String {
        let run = try oarlog("replay", "samples/rowingdata/nk_logbook.csv", "--save", "--boat", "W8+ Blue")
        XCTAssertEqual(run.status, 0, run.err)
        let line = try XCTUnwrap(run.err.split(separator: "\n").first { $0.hasPrefix("saved as session ") })
        return String(line.dropFirst("saved as session ".count).split(separator: " ")[0])
    }

    func addIntervals(url: String, keyFile: String = "intervals.key") throws {
        let run = try oarlog("accounts", "add", "intervals", "--athlete", "i77", "--api-key-file", keys.appendingPathComponent(keyFile).path, "--url", url)
        XCTAssertEqual(run.status, 0, run.err)
    }

    func uploads() throws -> [[String: Any]] {
        let run = try oarlog("uploads", "--json")
        XCTAssertEqual(run.status, 0, run.err)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [[String: Any]])
    }

    func standIn(port: Int? = nil, _ arguments: [String] = []) throws -> TrainingSiteStandIn {
        try TrainingSiteStandIn(service: "intervals", store: data.deletingLastPathComponent().appendingPathComponent("site"), port: port,
                                arguments: ["--api-key", Self.apiKey] + arguments)
    }

    /// The site down (nothing listens): the upload is queued with the reason; the site back at
    /// the same address: `upload --pending` delivers it once, with the site's id kept; asked
    /// again, it is already there and nothing is sent. The FIT the site received is the one
    /// `oarlog export` makes, and Garmin's FIT SDK reads the session's distance and time in it.
    func testOfflineThenBackDeliveredExactlyOnce() throws {
        let id = try keptSession()
        let port = freeLoopbackPort()
        try addIntervals(url: "http://127.0.0.1:\(port)")
        let first = try oarlog("upload", id, "--to", "intervals")
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertTrue(first.out.contains("queued"), first.out)
        var entry = try XCTUnwrap(try uploads().first)
        XCTAssertEqual(entry["session"] as? String, id)
        XCTAssertEqual(entry["service"] as? String, "intervals")
        XCTAssertEqual(entry["state"] as? String, "queued")
        XCTAssertEqual(entry["attempts"] as? Int, 1)
        XCTAssertFalse((entry["last_error"] as? String ?? "").isEmpty, "the reason it is queued")

        let site = try standIn(port: port)
        defer { site.stop() }
        let pending = try oarlog("upload", "--pending")
        XCTAssertEqual(pending.status, 0, pending.err)
        let received = site.received()
        XCTAssertEqual(received.count, 1, "delivered exactly once")
        entry = try XCTUnwrap(try uploads().first)
        XCTAssertEqual(entry["state"] as? String, "done")
        XCTAssertEqual(entry["remote_id"] as? String, "\(received[0]["id"]!)")
        XCTAssertEqual(received[0]["external_id"] as? String, "oarlog-" + id)

        let again = try oarlog("upload", "last", "--to", "intervals")
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertTrue(again.out.contains("already on Intervals.icu"), again.out)
        XCTAssertEqual(try oarlog("upload", "--pending").status, 0)
        XCTAssertEqual(site.received().count, 1, "never sent twice")

        // The file the site has: exactly `oarlog export ID --format fit`, read by Garmin's SDK.
        let sent = try Data(contentsOf: site.file(of: received[0]))
        let exported = data.appendingPathComponent("export.fit").path
        XCTAssertEqual(try oarlog("export", id, "--format", "fit", "-o", exported).status, 0)
        XCTAssertEqual(sent, try Data(contentsOf: URL(fileURLWithPath: exported)))
        try assertFITMatchesSession(site.file(of: received[0]).path, id: id)
    }

    /// Garmin's FIT SDK (Tests/OarlogExportTests/Fixtures/fit_decode.py) reads the file's session
    /// distance (1 cm, FIT's resolution), its time (1 s) and its laps (their distances sum to the
    /// session's, within 1 m) as `oarlog show ID --json` gives them.
    func assertFITMatchesSession(_ path: String, id: String) throws {
        let show = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try oarlog("show", id, "--json").out.utf8)) as? [String: Any])
        try Self.assertFIT(path, distance: try XCTUnwrap(show["distance_m"] as? Double), elapsed: try XCTUnwrap(show["elapsed_s"] as? Double))
    }

    static func assertFIT(_ path: String, distance: Double, elapsed: Double, file: StaticString = #filePath, line: UInt = #line) throws {
        let decoder = TestPaths.packageRoot.appendingPathComponent("Tests/OarlogExportTests/Fixtures/fit_decode.py").path
        let run = try ChildProcess.run("/usr/bin/env", ["python3", decoder, path])
        XCTAssertEqual(run.status, 0, "Garmin FIT SDK: \(run.err.prefix(500))", file: file, line: line)
        let decoded = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        XCTAssertEqual(decoded["errors"] as? [String], [], file: file, line: line)
        let messages = try XCTUnwrap(decoded["messages"] as? [String: Any])
        let session = try XCTUnwrap((messages["session"] as? [[String: Any]])?.first)
        let laps = try XCTUnwrap(messages["lap"] as? [[String: Any]])
        XCTAssertEqual(try XCTUnwrap(session["total_distance"] as? Double), distance, accuracy: 0.0100001, file: file, line: line)
        XCTAssertEqual(try XCTUnwrap(session["total_elapsed_time"] as? Double), elapsed, accuracy: 1.0, file: file, line: line)
        XCTAssertFalse(laps.isEmpty, file: file, line: line)
        XCTAssertEqual(laps.compactMap { $0["total_distance"] as? Double }.reduce(0, +), distance, accuracy: 1.0, file: file, line: line)
    }

    /// `oarlog upload` killed (-9) while the site holds its answer (it has kept the file): the
    /// entry is left `sending`; `upload --pending` finds the activity at the site by its external
    /// id and keeps its id — the site has it once, and the upload is done.
    func testKillMidUploadDeliveredExactlyOnce() throws {
        let id = try keptSession()
        let site = try standIn(["--upload-delay-s", "5"])
        defer { site.stop() }
        try addIntervals(url: site.url)
        let child = try ChildProcess(try Binaries.oarlog(), ["upload", id, "--to", "intervals"], in: TestPaths.packageRoot.path,
                                     environment: ["OARLOG_DATA_DIR": data.path])
        let deadline = Date().addingTimeInterval(30)
        while site.received().isEmpty && Date() < deadline && child.isRunning { usleep(20_000) }
        XCTAssertEqual(site.received().count, 1, "the site kept the file before answering")
        XCTAssertTrue(child.isRunning, "still waiting for the site's answer")
        child.send(SIGKILL)
        child.wait(timeout: 10)
        XCTAssertEqual(try uploads().first?["state"] as? String, "sending", "cut off mid-send")

        let pending = try oarlog("upload", "--pending")
        XCTAssertEqual(pending.status, 0, pending.err)
        let received = site.received()
        XCTAssertEqual(received.count, 1, "not sent twice")
        let entry = try XCTUnwrap(try uploads().first)
        XCTAssertEqual(entry["state"] as? String, "done")
        XCTAssertEqual(entry["remote_id"] as? String, "\(received[0]["id"]!)")
    }

    /// A wrong key: the site answers 401; the upload fails and says so (exit 1), `uploads` says the
    /// account is stopped, `--pending` sends nothing; the account added again with the right key
    /// queues it again and it is delivered.
    func testUnauthorizedFailsAndSaysSo() throws {
        let id = try keptSession()
        let site = try standIn()
        defer { site.stop() }
        try Data("not-the-key\n".utf8).write(to: keys.appendingPathComponent("wrong.key"))
        try addIntervals(url: site.url, keyFile: "wrong.key")
        let run = try oarlog("upload", id, "--to", "intervals")
        XCTAssertEqual(run.status, 1, run.out + run.err)
        XCTAssertTrue(run.out.contains("failed"), run.out)
        let entry = try XCTUnwrap(try uploads().first)
        XCTAssertEqual(entry["state"] as? String, "failed")
        XCTAssertNotNil(entry["account_stopped"] as? String)
        XCTAssertFalse((entry["last_error"] as? String ?? "").isEmpty)
        let table = try oarlog("uploads")
        XCTAssertTrue(table.out.contains("account stopped") && table.out.contains("added again"), table.out)
        XCTAssertEqual(try oarlog("upload", "--pending").status, 0)
        XCTAssertTrue(site.received().isEmpty)

        try addIntervals(url: site.url)
        XCTAssertEqual(try oarlog("upload", "--pending").status, 0)
        XCTAssertEqual(site.received().count, 1)
        XCTAssertEqual(try uploads().first?["state"] as? String, "done")
    }

    /// An account marked `--auto`: `replay --save` queues the saved session to it and sends it at
    /// once (said on standard error); the site has it once.
    func testAutoAccountGetsTheSavedSession() throws {
        let site = try standIn()
        defer { site.stop() }
        let add = try oarlog("accounts", "add", "intervals", "--athlete", "i77", "--api-key-file", keys.appendingPathComponent("intervals.key").path,
                             "--url", site.url, "--auto")
        XCTAssertEqual(add.status, 0, add.err)
        let saved = try oarlog("replay", "samples/rowingdata/nk_logbook.csv", "--save")
        XCTAssertEqual(saved.status, 0, saved.err)
        XCTAssertTrue(saved.err.contains("→ Intervals.icu: done"), saved.err)
        let received = site.received()
        XCTAssertEqual(received.count, 1)
        let entry = try XCTUnwrap(try uploads().first)
        XCTAssertEqual(entry["state"] as? String, "done")
        XCTAssertEqual(entry["remote_id"] as? String, "\(received[0]["id"]!)")
    }
}
