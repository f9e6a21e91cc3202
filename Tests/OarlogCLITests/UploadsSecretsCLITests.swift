#if canImport(Glibc)
import Glibc
#endif
import Foundation
import OarlogTestSupport
import XCTest

/// The queue at scale and the secrets (docs/UPLOADS.md): 100 sessions queued are each
/// delivered once; and no key or token is in any output, API answer or file wider than 0600.
final class UploadsSecretsCLITests: XCTestCase {
    var root: URL!
    var data: URL { root.appendingPathComponent("data") }

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-uploads-secrets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: root) }

    func oarlog(_ arguments: [String]) throws -> CommandRun { try runOarlog(arguments, dataDirectory: data.path) }

    func write(_ text: String, _ name: String) throws -> String {
        let url = root.appendingPathComponent(name)
        try Data((text + "\n").utf8).write(to: url)
        return url.path
    }

    /// 100 short outings (the NK sample's first 40 rows, each an hour later than the last: 100
    /// different files, so the site's own duplicate check cannot hide a double send) imported,
    /// uploaded with one command: the site has 100 activities, one per session's external id, and
    /// every upload is done with its id.
    func testHundredSessionsEachDeliveredOnce() throws {
        let traces = root.appendingPathComponent("traces")
        try FileManager.default.createDirectory(at: traces, withIntermediateDirectories: true)
        let lines = try String(contentsOf: TestPaths.samples.appendingPathComponent("rowingdata/nk_logbook.csv"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        for k in 0..<100 {
            var out = [String(lines[0])]
            for line in lines[1...40] {
                var fields = line.split(separator: ",", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
                fields[2] = String(Int64(fields[2])! + Int64(k) * 3_600_000)
                out.append(fields.joined(separator: ","))
            }
            try Data((out.joined(separator: "\n") + "\n").utf8).write(to: traces.appendingPathComponent("outing-\(k).csv"))
        }
        let imported = try oarlog(["import", traces.path, "--json"])
        XCTAssertEqual(imported.status, 0, imported.err)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(imported.out.utf8)) as? [String: Any])
        let ids = try XCTUnwrap(object["imported"] as? [[String: Any]]).compactMap { $0["session"] as? String }
        XCTAssertEqual(ids.count, 100)

        let key = "k-\(UUID().uuidString)"
        let site = try TrainingSiteStandIn(service: "intervals", store: root.appendingPathComponent("site"), arguments: ["--api-key", key])
        defer { site.stop() }
        XCTAssertEqual(try oarlog(["accounts", "add", "intervals", "--athlete", "i9", "--api-key-file", try write(key, "key"), "--url", site.url]).status, 0)
        let started = Date()
        let upload = try oarlog(["upload"] + ids + ["--to", "intervals"])
        XCTAssertEqual(upload.status, 0, upload.err)
        print("100 uploads in \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        let received = site.received()
        XCTAssertEqual(received.count, 100)
        XCTAssertEqual(Set(received.compactMap { $0["external_id"] as? String }), Set(ids.map { "oarlog-" + $0 }))
        let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try oarlog(["uploads", "--json"]).out.utf8)) as? [[String: Any]])
        XCTAssertEqual(entries.count, 100)
        XCTAssertEqual(Set(entries.compactMap { $0["state"] as? String }), ["done"])
        XCTAssertEqual(Set(entries.compactMap { $0["remote_id"] as? String }), Set(received.map { "\($0["id"]!)" }))
        XCTAssertEqual(try oarlog(["upload", "--pending"]).status, 0)
        XCTAssertEqual(site.received().count, 100, "nothing sent again")
    }

    /// Accounts added (Intervals.icu's key; Strava's client secret and refresh token, which its
    /// stand-in turns into access tokens), listed, sessions uploaded, the uploads listed, and
    /// `serve`'s /api/accounts and /api/uploads asked (and an upload asked for on the page,
    /// delivered by serve in the background): no key or token is in any output or answer, and
    /// every file under the data directory holding one has mode 0600 (its directory 0700).
    func testSecretsNeverShownAndKeptInFilesOfMode0600() throws {
        let key = "k-\(UUID().uuidString)", secret = "s-\(UUID().uuidString)", refresh = "r-\(UUID().uuidString)"
        let intervals = try TrainingSiteStandIn(service: "intervals", store: root.appendingPathComponent("intervals"), arguments: ["--api-key", key])
        let strava = try TrainingSiteStandIn(service: "strava", store: root.appendingPathComponent("strava"),
                                             arguments: ["--client-id", "4242", "--client-secret", secret, "--refresh-token", refresh])
        defer { intervals.stop(); strava.stop() }
        var outputs: [String] = []
        func run(_ arguments: [String], status: Int32 = 0) throws {
            let r = try oarlog(arguments)
            XCTAssertEqual(r.status, status, arguments.joined(separator: " ") + ": " + r.err)
            outputs += [r.out, r.err]
        }
        try run(["replay", "samples/rowingdata/nk_logbook.csv", "--save"])
        try run(["accounts", "add", "intervals", "--athlete", "i5", "--api-key-file", try write(key, "key"), "--url", intervals.url])
        try run(["accounts", "add", "strava", "--client-id", "4242", "--client-secret-file", try write(secret, "secret"),
                 "--refresh-token-file", try write(refresh, "refresh"), "--url", strava.url])
        try run(["accounts", "list"])
        try run(["accounts", "list", "--json"])
        try run(["upload", "last", "--to", "intervals"])
        try run(["upload", "last", "--to", "strava"])
        try run(["uploads"])
        try run(["uploads", "--json"])
        try run(["upload", "--pending"])
        XCTAssertEqual(intervals.received().count, 1)
        XCTAssertEqual(strava.received().count, 1)
        let id = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(try oarlog(["uploads", "--json"]).out.utf8)) as? [[String: Any]]).first?["session"] as? String
        outputs += try serveAnswers(session: try XCTUnwrap(id), strava: strava)

        // Every secret: those given and those the sites gave (the access tokens, a new refresh token).
        var secrets: Set<String> = [key, secret, refresh]
        let accounts = data.appendingPathComponent("accounts")
        for file in (try? FileManager.default.subpathsOfDirectory(atPath: accounts.path)) ?? [] {
            let text = ChildProcess.text(accounts.path + "/" + file)
            for word in text.split(whereSeparator: \.isWhitespace) where word.count >= 12 { secrets.insert(String(word)) }
        }
        XCTAssertGreaterThan(secrets.count, 3, "the access token Strava's stand-in gave is kept too")
        for output in outputs {
            for s in secrets { XCTAssertFalse(output.contains(s), "a secret in: \(output.prefix(300))") }
        }
        var checked = 0
        for file in FileManager.default.enumerator(atPath: data.path)?.compactMap({ $0 as? String }) ?? [] {
            let path = data.path + "/" + file
            var st = stat()
            guard lstat(path, &st) == 0 else { continue }
            if (st.st_mode & S_IFMT) == S_IFDIR {
                if file.hasSuffix("accounts/intervals") || file.hasSuffix("accounts/strava") { XCTAssertEqual(st.st_mode & 0o777, 0o700, file) }
                continue
            }
            let text = String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
            if secrets.contains(where: { text.contains($0) }) {
                XCTAssertEqual(st.st_mode & 0o777, 0o600, "\(file) holds a secret")
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 3, "the key, the client secret and the refresh token are kept")
    }

    /// `oarlog serve`'s /api/accounts and /api/uploads, and an upload asked for with the token,
    /// delivered in the background: every answer and serve's log.
    func serveAnswers(session: String, strava: TrainingSiteStandIn) throws -> [String] {
        let port = freeLoopbackPort()
        let log = root.appendingPathComponent("serve.log").path
        let serve = try ChildProcess(try Binaries.oarlog(), ["serve", "--listen", "127.0.0.1:\(port)", "--replay", "samples/sim-workout.csv", "--speed", "20"],
                                     in: TestPaths.packageRoot.path, environment: ["OARLOG_DATA_DIR": data.path], output: log, errors: log)
        defer { serve.stop(SIGINT, grace: 10) }
        var token: String?
        let deadline = Date().addingTimeInterval(60)
        while token == nil && Date() < deadline && serve.isRunning {
            let text = ChildProcess.text(log)
            if let r = text.range(of: "control token: "), let end = text[r.upperBound...].firstIndex(of: "\n") { token = String(text[r.upperBound..<end]) }
            else { usleep(50_000) }
        }
        let t = try XCTUnwrap(token, ChildProcess.text(log))
        func curl(_ arguments: [String]) throws -> String {
            let r = try ChildProcess.run("/usr/bin/env", ["curl", "-s", "-w", "\n%{http_code}"] + arguments)
            return r.out
        }
        let accounts = try curl(["http://127.0.0.1:\(port)/api/accounts"])
        XCTAssertTrue(accounts.hasSuffix("\n200") && accounts.contains("\"client_id\":\"4242\""), accounts)
        let posted = try curl(["-X", "POST", "-H", "Authorization: Bearer \(t)", "-H", "Content-Type: application/json",
                               "-d", "{\"service\":\"strava\",\"force\":true}", "http://127.0.0.1:\(port)/api/sessions/\(session)/uploads"])
        XCTAssertTrue(posted.hasSuffix("\n202") && posted.contains("\"state\":\"queued\""), posted)
        var answers = [accounts, posted]
        // Forced: sent again by serve in the background; Strava's stand-in knows the file (a duplicate).
        var list = ""
        let until = Date().addingTimeInterval(30)
        repeat {
            usleep(200_000)
            list = try curl(["http://127.0.0.1:\(port)/api/uploads"])
        } while !list.contains("\"service\":\"strava\",\"state\":\"duplicate\"") && Date() < until
        XCTAssertTrue(list.hasSuffix("\n200") && list.contains("\"service\":\"strava\",\"state\":\"duplicate\""), list)
        XCTAssertEqual(strava.received().count, 1)
        answers += [list, ChildProcess.text(log)]
        return answers
    }
}
