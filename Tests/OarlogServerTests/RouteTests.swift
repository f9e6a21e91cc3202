import Foundation
import Hummingbird
import HummingbirdTesting
import OarlogApp
import OarlogSession
import XCTest
@testable import OarlogServer

/// The routes in process (`app.test(.router)`, no socket): every 4xx says why in JSON, the
/// filters and compare references are checked, and pairing is slowed per phone, not for all.
final class RouteTests: XCTestCase {
    private var dataDirectory: URL!

    override func setUpWithError() throws {
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    private func withApp(_ access: ServerAccess = ServerAccess(token: String(repeating: "ab", count: 16), pairingCode: "424242"),
                         _ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let sessions = SessionStore(sessionsPath: dataDirectory.path)
        let station = try LiveStation(source: .replay(path: "samples/none.csv", speed: 1), sessions: sessions, log: { _ in })
        let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, webRoot: ServerConfiguration.defaultWebRoot, sessions: sessions)
        let router = WebServer.makeRouter(configuration, station: station, access: access)
        try await Application(router: router).test(.router, body)
    }

    /// The error object of an answer: its message, after checking the body is `{"error": {"message": …}}`.
    private static func message(_ response: TestResponse, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        XCTAssertEqual(response.headers[.contentType], "application/json; charset=utf-8", file: file, line: line)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any],
                                   String(buffer: response.body), file: file, line: line)
        let error = try XCTUnwrap(object["error"] as? [String: Any], file: file, line: line)
        let text = try XCTUnwrap(error["message"] as? String, file: file, line: line)
        XCTAssertFalse(text.isEmpty, file: file, line: line)
        return text
    }

    /// Every answer — a page, an API read, an error — carries the script policy: only the
    /// server's own script files run (a title that slipped through as markup still could not).
    func testEveryAnswerAllowsOnlyTheServersOwnScripts() async throws {
        try await withApp { client in
            for uri in ["/", "/js/app.js", "/api/sessions", "/api/nothing-here", "/api/sessions/none"] {
                let response = try await client.execute(uri: uri, method: .get)
                let policy = try XCTUnwrap(response.headers[.contentSecurityPolicy], uri)
                XCTAssertTrue(policy.contains("script-src 'self'"), "\(uri): \(policy)")
                XCTAssertFalse(policy.contains("unsafe-inline") || policy.contains("unsafe-eval"), "\(uri): \(policy)")
                XCTAssertEqual(response.headers[.xContentTypeOptions], "nosniff", uri)
            }
        }
    }

    func testEveryClientErrorSaysWhyInJSON() async throws {
        try await withApp { client in
            let unknownAPI = try await client.execute(uri: "/api/nothing-here", method: .get)
            XCTAssertEqual(unknownAPI.status, .notFound)
            XCTAssertEqual(try Self.message(unknownAPI), "no such page or API path")
            let unknownPage = try await client.execute(uri: "/no-such-page.html", method: .get)
            XCTAssertEqual(unknownPage.status, .notFound)
            _ = try Self.message(unknownPage)
            // A body over 16 KiB: Hummingbird's own 413 had no body.
            let big = try await client.execute(uri: "/api/pair", method: .post, body: ByteBuffer(repeating: UInt8(ascii: " "), count: 20_000))
            XCTAssertEqual(big.status, .contentTooLarge)
            XCTAssertTrue(try Self.message(big).contains("16 KiB"))
            let malformed = try await client.execute(uri: "/api/pair", method: .post, body: ByteBuffer(string: "{\"code\": "))
            XCTAssertEqual(malformed.status, .badRequest)
            XCTAssertTrue(try Self.message(malformed).contains("malformed JSON"))
            let noToken = try await client.execute(uri: "/api/record/stop", method: .post)
            XCTAssertEqual(noToken.status, .unauthorized)
            XCTAssertTrue(try Self.message(noToken).contains("token"))
        }
    }

    func testImpossibleDatesAndCompareReferencesAre400() async throws {
        try await withApp { client in
            let february = try await client.execute(uri: "/api/sessions?from=2026-02-30", method: .get)
            XCTAssertEqual(february.status, .badRequest)
            let text = try Self.message(february)
            XCTAssertTrue(text.contains("from") && text.contains("28 days"), text)
            let time = try await client.execute(uri: "/api/sessions?to=2025-04-31T10:00Z", method: .get)
            XCTAssertEqual(time.status, .badRequest)
            XCTAssertTrue(try Self.message(time).contains("to"))
            let leap = try await client.execute(uri: "/api/sessions?from=2028-02-29", method: .get)
            XCTAssertEqual(leap.status, .ok, String(buffer: leap.body))
            let colons = try await client.execute(uri: "/api/compare?a=ID:1:2&b=ID", method: .get)
            XCTAssertEqual(colons.status, .badRequest)
            XCTAssertTrue(try Self.message(colons).contains("ID:1:2"))
            let unknown = try await client.execute(uri: "/api/compare?a=nothing&b=nothing:2", method: .get)
            XCTAssertEqual(unknown.status, .notFound)
        }
    }

    func testWrongCodesOfOnePhoneDoNotStopAnother() async throws {
        let access = ServerAccess(token: String(repeating: "cd", count: 16), pairingCode: "424242")
        try await withApp(access) { client in
            func pair(_ code: String, from peer: String) async throws -> TestResponse {
                try await client.execute(uri: "/api/pair", method: .post, headers: [FrontDoor.peerHeader: peer],
                                         body: ByteBuffer(string: "{\"code\": \"\(code)\"}"))
            }
            for guess in 0..<5 {
                let wrong = try await pair(String(format: "%06d", guess), from: "10.0.0.66")
                XCTAssertEqual(wrong.status, .unauthorized)
            }
            let locked = try await pair("424242", from: "10.0.0.66")
            XCTAssertEqual(locked.status, .tooManyRequests, "the attacker's address waits, even with the right code")
            XCTAssertEqual(locked.headers[.retryAfter], "60")
            _ = try Self.message(locked)
            let cox = try await pair("424242", from: "10.0.0.7")
            XCTAssertEqual(cox.status, .ok, "another phone pairs at once")
            XCTAssertTrue(String(buffer: cox.body).contains(access.token))
        }
    }

    func testPairingWaitsDoubleAndTheCodeIsReplacedAfter20WrongCodes() {
        let shown = ShownCodes()
        let access = ServerAccess(token: String(repeating: "ef", count: 16), pairingCode: "111111") { shown.add($0) }
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for k in 0..<5 { XCTAssertEqual(access.pair(code: "00000\(k)", client: "a", now: start), .wrongCode) }
        XCTAssertEqual(access.pair(code: "000009", client: "a", now: start), .tooManyAttempts(retryAfter: 60))
        XCTAssertEqual(access.pair(code: "000009", client: "a", now: start + 61), .wrongCode)
        XCTAssertEqual(access.pair(code: "000009", client: "a", now: start + 62), .tooManyAttempts(retryAfter: 119), "the wait doubles")
        // 20 wrong codes from many addresses: a new code, shown; the old one no longer pairs.
        for k in 0..<14 { XCTAssertEqual(access.pair(code: "999999", client: "b\(k)", now: start), .wrongCode) }
        XCTAssertEqual(shown.codes.count, 1)
        XCTAssertEqual(access.pairingCode, shown.codes.first)
        XCTAssertNotEqual(access.pair(code: "111111", client: "cox", now: start), .token(access.token))
        XCTAssertEqual(access.pair(code: access.pairingCode, client: "cox", now: start), .token(access.token))
    }

    func testHostAndOriginRules() {
        let hosts = HostAllowance(listenHost: "0.0.0.0", extra: ["boat.example.org"], hostName: "oarlog-board")
        for host in ["localhost:8080", "127.0.0.1:8080", "[::1]:8080", "192.168.4.1", "oarlog-board:8080", "oarlog-board.local",
                     "BOAT.example.org.", nil] {
            XCTAssertNil(hosts.refusal(host: host, origin: nil, isWebSocket: false), host ?? "no Host")
        }
        XCTAssertEqual(hosts.refusal(host: "evil.example:8080", origin: nil, isWebSocket: false)?.status, 421)
        XCTAssertEqual(hosts.refusal(host: "localhost.evil.example", origin: nil, isWebSocket: false)?.status, 421)
        XCTAssertNil(hosts.refusal(host: "192.168.4.1:8080", origin: "http://192.168.4.1:8080", isWebSocket: true))
        XCTAssertEqual(hosts.refusal(host: "192.168.4.1:8080", origin: "https://evil.example", isWebSocket: true)?.status, 403)
        XCTAssertEqual(hosts.refusal(host: "192.168.4.1:8080", origin: "null", isWebSocket: true)?.status, 403)
        XCTAssertNil(hosts.refusal(host: "192.168.4.1:8080", origin: nil, isWebSocket: true), "a client that is no browser")
        XCTAssertNil(hosts.refusal(host: "127.0.0.1:8080", origin: "ws://127.0.0.1", isWebSocket: true), "HummingbirdWSClient's Origin")
        XCTAssertEqual(hosts.refusal(host: "192.168.4.1:8080", origin: "http://192.168.4.1.evil.example:8080", isWebSocket: true)?.status, 403)
    }
}

private final class ShownCodes: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ code: String) { lock.withLock { list.append(code) } }
    var codes: [String] { lock.withLock { list } }
}
