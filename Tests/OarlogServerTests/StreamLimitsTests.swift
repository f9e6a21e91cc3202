#if canImport(Glibc)
import Glibc
#endif
import Foundation
import OarlogTestSupport
import XCTest

/// The server's streams and exports, bounded (issue 23, findings 4, 6, 8, 11): a playback needs
/// the token or a share link and runs on a pool of at most 8 without a thread each; a phone that
/// cannot keep up never makes the server hold more than 1 MiB for it; exports run two at a time
/// on their own threads, so a session page stays quick while a phone asks for thirty.
final class StreamLimitsTests: XCTestCase {
    /// A data directory with sim-workout saved under each title; their ids.
    static func sessions(_ titles: [String], trace: String = "samples/sim-workout.csv") throws -> (URL, [String]) {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-streams-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let ids = try titles.map { try session($0, trace: trace, into: data) }
        return (data, ids)
    }

    /// The names of the server's threads (`/proc/PID/task/*/comm`).
    static func threadNames(_ server: ServerProcess) -> [String] {
        let tasks = "/proc/\(server.process.processIdentifier)/task"
        return ((try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []).compactMap {
            (try? String(contentsOfFile: "\(tasks)/\($0)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// Seconds a request took, and its status.
    static func timed(_ server: ServerProcess, _ path: String) throws -> (seconds: Double, status: Int) {
        let start = Date()
        let status = try server.request("GET", path).status
        return (Date().timeIntervalSince(start), status)
    }

    func testPlaybackNeedsTheTokenOrTheSessionsShareLink() throws {
        let (data, ids) = try Self.sessions(["Head race", "Second piece"])
        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "5"], dataDirectory: data)
        let path = "/api/sessions/\(ids[0])/playback"
        // Refused at the upgrade (the socket never opens) with 401 and why: no token, a wrong
        // one, a wrong key, another session's key.
        let otherKey = try XCTUnwrap(try jsonObject(try server.request("POST", "/api/sessions/\(ids[1])/share", token: server.token).body)
            as? [String: String])["share"]!
        for (target, headers) in [(path, []), (path, ["Authorization: Bearer " + String(repeating: "0", count: 32)]),
                                  (path, ["Sec-WebSocket-Protocol: oarlog, oarlog-token.nope"]), (path + "?share=" + otherKey, [])] {
            let refused = try RawWebSocket(port: server.port, path: target, headers: headers)
            XCTAssertFalse(refused.upgraded, "\(headers): \(refused.response)")
            XCTAssertTrue(refused.response.hasPrefix("HTTP/1.1 401"), "\(target) \(headers): \(refused.response)")
            XCTAssertTrue(refused.response.lowercased().contains("content-type: application/json"), refused.response)
        }
        // The reason, as curl sees the same refusal.
        let plain = try server.request("GET", path, headers: ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Version: 13",
                                                              "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="])
        XCTAssertEqual(plain.status, 401, plain.body)
        XCTAssertTrue(plain.body.contains("a playback needs the token"), plain.body)
        // The token as a header, and as a subprotocol (what a browser can send): the playback
        // opens and says where it stands; the server answers with the `oarlog` subprotocol.
        let bearer = try RawWebSocket(port: server.port, path: path, headers: ["Authorization: Bearer \(server.token)"])
        XCTAssertTrue(bearer.upgraded, bearer.response)
        XCTAssertTrue(String(decoding: try bearer.frame().payload, as: UTF8.self).contains("\"type\":\"playback\""))
        let browser = try RawWebSocket(port: server.port, path: path, headers: ["Sec-WebSocket-Protocol: oarlog, oarlog-token.\(server.token)"])
        XCTAssertTrue(browser.upgraded, browser.response)
        XCTAssertTrue(browser.response.lowercased().contains("sec-websocket-protocol: oarlog\r\n"), browser.response)

        // A share link: only with the token; its key is HMAC-SHA256 of the session id keyed with
        // the token (checked against Python's hmac), and opens that session only.
        XCTAssertEqual(try server.request("POST", "/api/sessions/\(ids[0])/share").status, 401)
        XCTAssertEqual(try server.request("POST", "/api/sessions/nosuch/share", token: server.token).status, 404)
        let shared = try server.request("POST", "/api/sessions/\(ids[0])/share", token: server.token)
        XCTAssertEqual(shared.status, 200, shared.body)
        let answer = try XCTUnwrap(try jsonObject(shared.body) as? [String: String])
        let python = try ChildProcess.run("/usr/bin/python3", ["-c", "import hmac,hashlib,sys; "
            + "print(hmac.new(sys.argv[1].encode(), b'oarlog-playback:' + sys.argv[2].encode(), hashlib.sha256).hexdigest()[:32])",
            server.token, ids[0]], in: TestPaths.packageRoot.path)
        let key = try XCTUnwrap(answer["share"])
        XCTAssertEqual(key, python.out.trimmingCharacters(in: .whitespacesAndNewlines))
        XCTAssertEqual(answer["link"], "/#play/\(ids[0])?share=\(key)")
        XCTAssertTrue(try RawWebSocket(port: server.port, path: path + "?share=\(key)").upgraded)
        XCTAssertFalse(try RawWebSocket(port: server.port, path: "/api/sessions/\(ids[1])/playback?share=\(key)").upgraded,
                       "one session's key does not open another")
    }

    /// Twelve phones ask for a playback at 60×: eight play (each gets its strokes), four are told
    /// to try again later (1013) — and the server has not a thread more per playback.
    func testPlaybacksRunOnABoundedPoolWithoutAThreadEach() throws {
        let (data, ids) = try Self.sessions(["Head race"])
        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "1"], dataDirectory: data)
        let path = "/api/sessions/\(ids[0])/playback"
        let auth = ["Authorization: Bearer \(server.token)"]
        usleep(500_000)
        let threadsBefore = server.procStatus("Threads")
        var playing: [RawWebSocket] = []
        for _ in 0..<8 {
            let phone = try RawWebSocket(port: server.port, path: path, headers: auth)
            XCTAssertTrue(phone.upgraded, phone.response)
            try phone.send("{\"speed\":60,\"pause\":false}")
            playing.append(phone)
        }
        for _ in 0..<4 {
            let late = try RawWebSocket(port: server.port, path: path, headers: auth)
            let told = try late.readUntilClose()
            XCTAssertEqual(told.code, 1013, "try again later")
            XCTAssertTrue(told.texts.first?.contains("too many playbacks") ?? false, "\(told.texts)")
        }
        // Every one of the eight plays: strokes arrive on each.
        let strokes = playing.map { phone -> Int in
            var n = 0
            for _ in 0..<400 where n < 3 {
                guard let f = try? phone.frame() else { break }
                if String(decoding: f.payload, as: UTF8.self).contains("\"type\":\"stroke\"") { n += 1 }
            }
            return n
        }
        XCTAssertEqual(strokes, Array(repeating: 3, count: 8))
        let threadsDuring = server.procStatus("Threads")
        let names = Self.threadNames(server)
        print("8 playbacks at 60x: threads \(threadsBefore) -> \(threadsDuring): \(names.sorted())")
        XCTAssertLessThan(threadsDuring - threadsBefore, 6, "a thread per playback")
        XCTAssertFalse(names.contains("oarlog-playback"))
        let read = try Self.timed(server, "/api/sessions/\(ids[0])")
        XCTAssertEqual(read.status, 200)
        XCTAssertLessThan(read.seconds, 2, "a read while eight playbacks run")
        // One goes: its place is free again.
        playing.removeLast()
        var reopened = false
        for _ in 0..<50 where !reopened {
            usleep(100_000)
            let phone = try RawWebSocket(port: server.port, path: path, headers: auth)
            reopened = (try? phone.frame()).map { String(decoding: $0.payload, as: UTF8.self).contains("\"type\":\"playback\"") } ?? false
        }
        XCTAssertTrue(reopened, "a place freed by a phone that went")
    }

    /// A live phone and a playback phone that never read, on a 90-minute replay at 600×: the
    /// live one is closed with 1008 once 1 MiB waits for it, the playback waits for its phone
    /// (nothing dropped, not closed), and the server's memory stays where it was.
    func testPhonesThatNeverReadCannotGrowTheServer() throws {
        let (data, ids) = try Self.sessions(["Head race"])
        let trace = data.appendingPathComponent("ninety.csv").path
        XCTAssertEqual(try oarlogCLI(["simulate", "--minutes", "90", "--seed", "4", "-o", trace], dataDirectory: data).status, 0)
        let server = try ServerProcess(arguments: ["--replay", trace, "--speed", "600"], dataDirectory: data)
        let rssBefore = server.procStatus("VmRSS")
        let live = try RawWebSocket(port: server.port, path: "/api/live", receiveBuffer: 4096)
        XCTAssertTrue(live.upgraded)
        let playback = try RawWebSocket(port: server.port, path: "/api/sessions/\(ids[0])/playback",
                                        headers: ["Authorization: Bearer \(server.token)"], receiveBuffer: 4096)
        try playback.send("{\"speed\":60,\"pause\":false}")
        var rssPeak = rssBefore
        let deadline = Date().addingTimeInterval(30)
        while !server.log.contains("a live phone was too slow") && Date() < deadline {
            rssPeak = max(rssPeak, server.procStatus("VmRSS"))
            usleep(100_000)
        }
        print("phones that never read: RSS \(rssBefore / 1024) MB -> peak \(rssPeak / 1024) MB")
        XCTAssertTrue(server.log.contains("a live phone was too slow"), server.log.suffix(500) + "")
        XCTAssertLessThan(rssPeak - rssBefore, 24 << 10, "RSS grew by \(rssPeak - rssBefore) kB")
        XCTAssertLessThan(try Self.timed(server, "/api/status").seconds, 2)
        // The live phone reads at last: what the kernel held, then the close and why.
        let closed = try live.readUntilClose()
        XCTAssertEqual(closed.code, 1008)
        XCTAssertTrue(closed.reason.contains("too slow"), closed.reason)
        // The playback phone was held, not dropped: its strokes come in order from the first.
        var indices: [Int] = []
        while indices.count < 20 {
            let f = try playback.frame()
            XCTAssertEqual(f.opcode, 1, "still open")
            guard let m = try? JSONSerialization.jsonObject(with: Data(f.payload)) as? [String: Any],
                  m["type"] as? String == "stroke", let i = m["index"] as? Int else { continue }
            indices.append(i)
        }
        XCTAssertEqual(indices, Array(1...20))
        XCTAssertFalse(server.log.contains("a playback's phone was too slow"))
    }

    /// Twelve FIT exports of a 60-minute session at once: at most two run (on the exports' own
    /// threads), four wait, the rest are told 503 with Retry-After; every export given is whole;
    /// a session read meanwhile takes about what it takes alone.
    func testSessionReadsStayQuickWhileExportsRun() throws {
        let (data, _) = try Self.sessions([])
        let trace = data.appendingPathComponent("sixty.csv").path
        XCTAssertEqual(try oarlogCLI(["simulate", "--minutes", "60", "--seed", "4", "-o", trace], dataDirectory: data).status, 0)
        let id = try Self.session("Sixty", trace: trace, into: data)
        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "1"], dataDirectory: data)
        let exportPath = "/api/sessions/\(id)/export/fit"
        let solo = try server.download(exportPath)
        XCTAssertEqual(solo.status, 200)
        let quiet = try (0..<5).map { _ in try Self.timed(server, "/api/sessions/\(id)").seconds }.sorted()[2]

        let exports = try (0..<12).map { _ in try Download(server, exportPath) }
        var reads: [Double] = [], exportThreads = 0
        while exports.contains(where: { $0.process.isRunning }) {
            let read = try Self.timed(server, "/api/sessions/\(id)")
            XCTAssertEqual(read.status, 200)
            reads.append(read.seconds)
            exportThreads = max(exportThreads, Self.threadNames(server).filter { $0 == "oarlog-exports" }.count)
            usleep(100_000)
        }
        let answers = exports.map { $0.finish() }
        let given = answers.filter { $0.status == 200 }, refused = answers.filter { $0.status == 503 }
        reads.sort()
        print("12 exports: \(given.count) given, \(refused.count) refused; read alone \(Int(quiet * 1000)) ms, "
              + "meanwhile median \(Int(reads[reads.count / 2] * 1000)) ms, max \(Int(reads.last! * 1000)) ms over \(reads.count) reads")
        XCTAssertEqual(given.count + refused.count, 12)
        XCTAssertGreaterThanOrEqual(given.count, 2)
        XCTAssertLessThanOrEqual(given.count, 12 - 1, "some refused")
        for g in given { XCTAssertEqual(g.body, solo.body, "every export given is whole") }
        for r in refused { XCTAssertEqual(r.retryAfter, "5") }
        XCTAssertEqual(exportThreads, 2, "two export threads, no more")
        XCTAssertFalse(reads.isEmpty)
        XCTAssertLessThan(reads[reads.count / 2], 5 * quiet + 0.5, "a read while exports run (alone: \(quiet) s)")
    }

    /// A download under way with curl: its status, body and Retry-After once it ends.
    final class Download {
        let process: ChildProcess
        let body: URL, head: URL
        init(_ server: ServerProcess, _ path: String) throws {
            body = server.dataDirectory.appendingPathComponent("export-\(UUID().uuidString)")
            head = server.dataDirectory.appendingPathComponent("head-\(UUID().uuidString)")
            process = try ChildProcess("/usr/bin/curl", ["-s", "-o", body.path, "-D", head.path, server.base + path])
        }
        func finish() -> (status: Int, body: Data, retryAfter: String?) {
            process.wait()
            let headers = (try? String(contentsOf: head, encoding: .utf8)) ?? ""
            let status = Int(headers.split(separator: " ").dropFirst().first ?? "") ?? 0
            let retry = headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix("retry-after:") }
                .map { $0.dropFirst("retry-after:".count).trimmingCharacters(in: .whitespaces) }
            defer { try? FileManager.default.removeItem(at: body); try? FileManager.default.removeItem(at: head) }
            return (status, (try? Data(contentsOf: body)) ?? Data(), retry)
        }
    }

    static func session(_ title: String, trace: String, into data: URL) throws -> String {
        let saved = try oarlogCLI(["replay", trace, "--save", "--title", title], dataDirectory: data)
        XCTAssertEqual(saved.status, 0, saved.err)
        let line = try XCTUnwrap((saved.out + "\n" + saved.err).split(separator: "\n").first { $0.hasPrefix("saved as session ") })
        return String(line.dropFirst("saved as session ".count).split(separator: " ")[0])
    }

    /// A share link opened in a browser never paired, on a server whose replay has ended: the
    /// playback stands paused without the live stream's "replay has ended" banner, and plays;
    /// a wrong key is refused and the screen says so.
    func testAShareLinkPlaysBackInTheBrowserWithoutTheLiveBanner() throws {
        let (data, ids) = try Self.sessions(["Head race"])
        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "200"], dataDirectory: data)
        try server.waitUntilEnded()
        let key = try XCTUnwrap((try jsonObject(try server.request("POST", "/api/sessions/\(ids[0])/share", token: server.token).body)
            as? [String: String])?["share"])
        let result = try BrowserScript.run("playback_share.py", [server.base, ids[0], key, try BrowserScript.screenshots().path])
        let live = try XCTUnwrap(result["live"] as? [String: Any])
        XCTAssertEqual(live["banner"] as? String, "The replay has ended: final figures", "the live screen's banner, for contrast")
        let before = try XCTUnwrap(result["before_play"] as? [String: Any])
        XCTAssertEqual(before["banner_shown"] as? Bool, false, "\(before["banner"] ?? "")")
        XCTAssertEqual(before["playback"] as? String, "paused")
        XCTAssertEqual(before["pair_dialog"] as? Bool, false, "a share link needs no pairing")
        XCTAssertTrue(before["token"] is NSNull)
        let playing = try XCTUnwrap(result["playing"] as? [String: Any])
        XCTAssertEqual(playing["playback"] as? String, "playing")
        XCTAssertGreaterThanOrEqual(playing["strokes"] as? Int ?? 0, 5)
        XCTAssertEqual(playing["banner_shown"] as? Bool, false)
        XCTAssertEqual(result["console"] as? [String], [])
        let wrong = try XCTUnwrap(result["wrong_key"] as? [String: Any])
        XCTAssertTrue((wrong["banner"] as? String ?? "").hasPrefix("Playback closed"), "\(wrong)")
        BrowserScript.checkScreenshots(result, minimumBytes: 10_000)
    }
}
