import Foundation
import OarlogTestSupport
import XCTest

/// Notes, renames and deletes sent at the same moment to `oarlog serve` (issue 23, findings 1
/// and 2), by many connections at once (one curl running them in parallel), with reads and
/// exports of the same session among them and `oarlog note` from the command line too: every
/// 2xx is true afterwards (a 201 note is in the file, a 204 delete stays deleted), the server
/// stays up, and `oarlog recover` finds the file intact.
final class ConcurrentWritesTests: XCTestCase {
    var server: ServerProcess!
    var id = ""
    var data: URL!

    override func setUpWithError() throws {
        data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-writes-\(UUID().uuidString)")
        let saved = try oarlogCLI(["replay", "samples/sim-workout.csv", "--save", "--title", "Head race"], dataDirectory: data)
        XCTAssertEqual(saved.status, 0, saved.err)
        // A short live source that ends at once: the server is idle but for the requests.
        let trace = data.appendingPathComponent("short.csv")
        let lines = try String(contentsOfFile: TestPaths.packageRoot.appendingPathComponent("samples/sim-workout.csv").path, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).prefix(500)
        try lines.joined(separator: "\n").write(to: trace, atomically: true, encoding: .utf8)
        server = try ServerProcess(arguments: ["--replay", trace.path, "--speed", "50"], dataDirectory: data)
        id = try XCTUnwrap((try jsonObject(try server.request("GET", "/api/sessions").body) as? [[String: Any]])?.first?["id"] as? String)
    }

    override func tearDown() {
        server?.stop()
        server = nil
        try? FileManager.default.removeItem(at: data)
    }

    /// One request of a batch sent at once.
    struct Call {
        var method: String
        var path: String
        var body: String?
        var authorized = true
    }

    /// Sends `calls` all at once (curl --parallel, one connection each); the status of each, in
    /// order (0: no answer).
    func atOnce(_ calls: [Call]) throws -> [Int] {
        var config = ""
        for (i, call) in calls.enumerated() {
            let separator = call.path.contains("?") ? "&" : "?"
            config += "url = \"\(server.base)\(call.path)\(separator)call=\(i)\"\nrequest = \"\(call.method)\"\n"
            if call.authorized { config += "header = \"Authorization: Bearer \(server.token)\"\n" }
            if let body = call.body {
                let quoted = body.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                config += "header = \"Content-Type: application/json\"\ndata-binary = \"\(quoted)\"\n"
            }
            config += "output = \"/dev/null\"\nwrite-out = \"%{http_code} %{url}\\\\n\"\n"
            if i < calls.count - 1 { config += "next\n" }
        }
        let file = data.appendingPathComponent("calls-\(UUID().uuidString).curl")
        try config.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try ChildProcess.run("/usr/bin/curl", ["-s", "-Z", "--parallel-immediate", "--parallel-max", "300", "-K", file.path],
                                       in: TestPaths.packageRoot.path)
        var statuses = [Int](repeating: 0, count: calls.count)
        for line in run.out.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let status = Int(parts[0]), let range = parts[1].range(of: "call="),
                  let i = Int(parts[1][range.upperBound...]), i < calls.count else { continue }
            statuses[i] = status
        }
        return statuses
    }

    func shown(_ id: String) throws -> [String: Any] {
        let show = try oarlogCLI(["show", id, "--json"], dataDirectory: data)
        XCTAssertEqual(show.status, 0, show.err)
        return try XCTUnwrap(try jsonObject(show.out) as? [String: Any])
    }

    func noteTexts(_ id: String) throws -> [String] {
        (try shown(id)["note_list"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
    }

    func assertIntactAndUp(_ id: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertTrue(server.process.isRunning, "the server died: \(server.log.suffix(2000))", file: file, line: line)
        XCTAssertEqual(try server.request("GET", "/api/sessions/\(id)").status, 200, file: file, line: line)
        let recover = try oarlogCLI(["recover", id], dataDirectory: data)
        XCTAssertEqual(recover.status, 0, recover.out + recover.err, file: file, line: line)
        XCTAssertTrue(recover.out.contains("intact"), recover.out, file: file, line: line)
    }

    /// Two notes at once, 25 times, then 60 at once with 4 reads of the session among them:
    /// each note is answered 201 and is in the file; every read is 200.
    func testNotesAtOnceAreAllStored() throws {
        var expected: [String] = []
        for round in 0..<25 {
            let texts = ["pair \(round) a", "pair \(round) b"]
            let statuses = try atOnce(texts.map { Call(method: "POST", path: "/api/sessions/\(id)/notes", body: "{\"text\":\"\($0)\"}") })
            XCTAssertEqual(statuses, [201, 201], "round \(round)")
            expected += texts
        }
        let texts = (0..<60).map { "crowd \($0)" }
        var calls = texts.map { Call(method: "POST", path: "/api/sessions/\(id)/notes", body: "{\"text\":\"\($0)\",\"t_s\":\(Double($0.dropFirst(6))! * 5)}") }
        // Four reads among them: 64 connections, the most the server holds from one address.
        for k in 0..<4 { calls.insert(Call(method: "GET", path: "/api/sessions/\(id)", authorized: false), at: k * 15) }
        let statuses = try atOnce(calls)
        XCTAssertEqual(statuses.filter { $0 == 201 }.count, 60, "\(statuses)")
        XCTAssertEqual(statuses.filter { $0 == 200 }.count, 4, "\(statuses)")
        expected += texts
        let stored = try noteTexts(id)
        XCTAssertEqual(stored.count, 110)
        XCTAssertEqual(Set(stored), Set(expected))
        XCTAssertEqual(try shown(id)["notes"] as? Int, 110)
        try assertIntactAndUp(id)
        print("60 notes at once: server RSS \(server.procStatus("VmRSS")) kB, \(server.procStatus("Threads")) threads")
    }

    /// 20 renames at once: all 200, the title is one of them. Then two renames, two notes and a
    /// delete at once, 12 times on copies of the session: the delete is 204 and the copy stays
    /// deleted; a rename or note is 200/201 (before the delete) or 404 (after it), never anything else.
    func testRenamesAtOnceAndRenamesRacingADelete() throws {
        let titles = (0..<20).map { "Title \($0)" }
        let statuses = try atOnce(titles.map { Call(method: "PATCH", path: "/api/sessions/\(id)", body: "{\"title\":\"\($0)\"}") })
        XCTAssertEqual(statuses, [Int](repeating: 200, count: 20))
        XCTAssertTrue(titles.contains(try shown(id)["title"] as? String ?? ""))
        try assertIntactAndUp(id)

        let sessions = data.appendingPathComponent("sessions")
        let original = sessions.appendingPathComponent(id + ".oarlog")
        var refused = 0
        for round in 0..<12 {
            let copy = "\(id)-copy-\(round)"
            try FileManager.default.copyItem(at: original, to: sessions.appendingPathComponent(copy + ".oarlog"))
            let rename = Call(method: "PATCH", path: "/api/sessions/\(copy)", body: "{\"title\":\"Back \(round)\"}")
            let note = Call(method: "POST", path: "/api/sessions/\(copy)/notes", body: "{\"text\":\"late\"}")
            // The delete in the middle: some changes reach the session before it, some after.
            let raced = try atOnce([rename, note, Call(method: "DELETE", path: "/api/sessions/\(copy)"), rename, note])
            XCTAssertEqual(raced[2], 204, "round \(round): \(raced)")
            XCTAssertTrue([200, 404].contains(raced[0]) && [200, 404].contains(raced[3]), "round \(round): \(raced)")
            XCTAssertTrue([201, 404].contains(raced[1]) && [201, 404].contains(raced[4]), "round \(round): \(raced)")
            refused += raced.filter { $0 == 404 }.count
            XCTAssertEqual(try server.request("GET", "/api/sessions/\(copy)").status, 404, "round \(round): \(raced)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: sessions.appendingPathComponent(copy + ".oarlog").path))
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: sessions.path).filter { !$0.hasPrefix(".oarlog-index") }
        XCTAssertEqual(left, [id + ".oarlog"], "no copy, no temporary file left")
        print("renames and notes after the delete, refused 404: \(refused) of 48")
    }

    /// Notes while the session is exported (FIT, GPX) and read: every export 200 and every
    /// note 201 and stored; `oarlog note` from the command line at the same moment as the API's
    /// notes is kept too (the lock holds across processes).
    func testNotesRacingExportsAndTheCommandLine() throws {
        // Six exports: as many as the server runs or queues at once (two running, four waiting).
        var calls: [Call] = []
        for k in 0..<10 {
            if k < 6 { calls.append(Call(method: "GET", path: "/api/sessions/\(id)/export/\(k % 2 == 0 ? "fit" : "gpx")", authorized: false)) }
            calls.append(Call(method: "POST", path: "/api/sessions/\(id)/notes", body: "{\"text\":\"export \(k)\"}"))
        }
        let cli = DispatchGroup()
        let cliStatuses = CLIStatuses()
        let (id, data) = (self.id, self.data!)
        for k in 0..<8 {
            cli.enter()
            Thread {
                let run = try? oarlogCLI(["note", id, "cli \(k)", "--at", "\(k * 30)"], dataDirectory: data)
                cliStatuses.add(run?.status ?? -1)
                cli.leave()
            }.start()
        }
        let statuses = try atOnce(calls)
        cli.wait()
        let exports = calls.indices.filter { calls[$0].method == "GET" }
        XCTAssertEqual(exports.map { statuses[$0] }, [Int](repeating: 200, count: 6))
        XCTAssertEqual(calls.indices.filter { calls[$0].method == "POST" }.map { statuses[$0] }, [Int](repeating: 201, count: 10))
        XCTAssertEqual(cliStatuses.all, [Int32](repeating: 0, count: 8))
        XCTAssertEqual(Set(try noteTexts(id)), Set((0..<10).map { "export \($0)" } + (0..<8).map { "cli \($0)" }))
        try assertIntactAndUp(id)
    }

    /// Control characters from a phone are not stored: a note with ESC, BEL, NUL and a
    /// right-to-left override, and a title with an escape sequence, read back clean.
    func testControlCharactersAreNotStored() throws {
        let note = try server.request("POST", "/api/sessions/\(id)/notes",
                                      body: "{\"text\":\"Rate\\u001b[2J up\\u0007\\u0000 \\u202etsal\\tnow\"}", token: server.token)
        XCTAssertEqual(note.status, 201, note.body)
        XCTAssertEqual((try jsonObject(note.body) as? [String: Any])?["text"] as? String, "Rate[2J up tsal now")
        let renamed = try server.request("PATCH", "/api/sessions/\(id)", body: "{\"title\":\"\\u001b]0;owned\\u0007Eights\"}", token: server.token)
        XCTAssertEqual(renamed.status, 200, renamed.body)
        XCTAssertEqual(try noteTexts(id), ["Rate[2J up tsal now"])
        XCTAssertEqual(try shown(id)["title"] as? String, "]0;ownedEights")
        XCTAssertEqual(try server.request("POST", "/api/sessions/\(id)/notes", body: "{\"text\":\"\\u001b\\u0007\"}", token: server.token).status, 400,
                       "a note of control characters only is empty")
    }
}

/// Exit statuses gathered from threads.
final class CLIStatuses: @unchecked Sendable {
    private let lock = NSLock()
    private var statuses: [Int32] = []
    func add(_ status: Int32) { lock.withLock { statuses.append(status) } }
    var all: [Int32] { lock.withLock { statuses } }
}
