import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import OarlogApp
import OarlogTestSupport
import Synchronization
import XCTest
@testable import OarlogServer

/// Share links in process (`app.test(.router)`) over two real kept sessions (the NK logbook
/// sample, kept twice as A and B): a link made for A opens A's reads under `/api/shared/TOKEN`
/// with the very answers the owner's `/api/sessions/A/…` give, and the page at `/share/TOKEN`;
/// carried to anything else — B, the list, A's own owner paths, any control — it is 403; an
/// unknown or revoked token, or one of a deleted session, is 403; no log line holds the token.
final class ShareRoutesTests: XCTestCase {
    private var dataDirectory: URL!
    private var sessions: SessionStore!
    private var a = "", b = ""
    private static let token = String(repeating: "cd", count: 16)
    private static let logs = LogLines()

    override func setUpWithError() throws {
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-share-routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        sessions = SessionStore(sessionsPath: dataDirectory.appendingPathComponent("sessions").path)
        for title in ["A", "B"] {
            var replay = try TraceReplay(path: try samplePath("rowingdata/nk_logbook.csv"))
            let kept = try sessions.keeping(replay, title: "Share \(title)", boat: "Eight")
            _ = try replay.run(sinks: [], keeping: kept)
            if title == "A" { a = kept.id } else { b = kept.id }
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    private func withApp(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let station = try LiveStation(source: .replay(path: "samples/none.csv", speed: 1), sessions: sessions, log: { _ in })
        let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, webRoot: ServerConfiguration.defaultWebRoot, sessions: sessions)
        let router = WebServer.makeRouter(configuration, station: station, access: ServerAccess(token: Self.token, pairingCode: "424242"))
        var logger = Logger(label: "oarlog-share-test") { _ in CapturingLog(lines: ShareRoutesTests.logs) }
        logger.logLevel = .trace
        try await Application(router: router, logger: logger).test(.router, body)
    }

    private static var owner: HTTPFields { [.authorization: "Bearer \(token)"] }

    private static func object(_ response: TestResponse) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any], String(buffer: response.body))
    }

    private static func makeLink(_ client: any TestClientProtocol, _ id: String) async throws -> SharesController.Link {
        let made = try await client.execute(uri: "/api/sessions/\(id)/shares", method: .post, headers: owner)
        XCTAssertEqual(made.status, .created, String(buffer: made.body))
        return try JSONDecoder().decode(SharesController.Link.self, from: Data(buffer: made.body))
    }

    func testTheLinkReadsItsSessionAsTheOwnerSeesIt() async throws {
        let a = self.a
        try await withApp { client in
            let refused = try await client.execute(uri: "/api/sessions/\(a)/shares", method: .post)
            XCTAssertEqual(refused.status, .unauthorized, "making a link needs the control token")
            let link = try await Self.makeLink(client, a)
            XCTAssertEqual(link.session, a)
            XCTAssertEqual(link.path, "/share/" + link.token)
            XCTAssertTrue(ShareBook.isPlausibleToken(link.token), link.token)
            // Every read the page makes: the same bytes as the owner's.
            for read in ["", "/trail", "/course", "/pieces", "/series?fields=split,rate,distance&points=600", "/curve?piece=1&points=40", "/track"] {
                let mine = try await client.execute(uri: "/api/sessions/\(a)" + read, method: .get)
                let shared = try await client.execute(uri: "/api/shared/\(link.token)" + read, method: .get)
                XCTAssertEqual(shared.status, mine.status, read)
                XCTAssertEqual(Array(buffer: shared.body), Array(buffer: mine.body), read)
                XCTAssertEqual(shared.headers[.contentType], mine.headers[.contentType], read)
            }
            // The figures are the session's: its title and distance as the store reads them.
            let shownAnswer = try await client.execute(uri: "/api/shared/\(link.token)", method: .get)
            let shown = try Self.object(shownAnswer)
            XCTAssertEqual(shown["title"] as? String, "Share A")
            XCTAssertGreaterThan(shown["distance_m"] as? Double ?? 0, 1000)
            let page = try await client.execute(uri: link.path, method: .get)
            XCTAssertEqual(page.status, .ok)
            XCTAssertTrue(String(buffer: page.body).contains("/js/shared-session.js"))
            let listed = try await client.execute(uri: "/api/sessions/\(a)/shares", method: .get, headers: Self.owner)
            XCTAssertEqual(try JSONDecoder().decode([SharesController.Link].self, from: Data(buffer: listed.body)), [link])
            let unlisted = try await client.execute(uri: "/api/sessions/\(a)/shares", method: .get)
            XCTAssertEqual(unlisted.status, .unauthorized, "the links are the owner's to see")
        }
    }

    func testTheLinkReachesNothingElse() async throws {
        let a = self.a, b = self.b, sessions = self.sessions!
        let notesBefore = try sessions.reportJSON(id: b)
        try await withApp { client in
            let link = try await Self.makeLink(client, a)
            let t = link.token
            let carriers: [(String, HTTPFields)] = [("", [.authorization: "Bearer \(t)"]), ("", [HTTPFields.Element.Name("X-Oarlog-Share")!: t]), ("?share=\(t)", [:])]
            let elsewhere: [(HTTPRequest.Method, String)] = [
                (.get, "/api/sessions"), (.get, "/api/sessions/\(b)"), (.get, "/api/sessions/\(b)/trail"), (.get, "/api/sessions/\(b)/export/gpx"),
                (.get, "/api/sessions/\(a)"), (.get, "/api/sessions/\(a)/export/fit"), (.post, "/api/sessions/\(b)/notes"),
                (.patch, "/api/sessions/\(b)/notes/0"), (.delete, "/api/sessions/\(b)"), (.patch, "/api/sessions/\(a)"),
                (.post, "/api/sessions/\(a)/shares"), (.get, "/api/sessions/\(a)/shares"), (.delete, "/api/shares/\(t)"),
                (.post, "/api/recording/start"), (.get, "/api/bests"), (.get, "/index.html"),
            ]
            for (query, headers) in carriers {
                for (method, path) in elsewhere {
                    let r = try await client.execute(uri: path + query, method: method, headers: headers, body: ByteBuffer(string: "{\"text\":\"x\"}"))
                    XCTAssertEqual(r.status, .forbidden, "\(method) \(path)\(query) \(headers)")
                }
            }
            // The shared paths take GET only, and only their own token.
            for method: HTTPRequest.Method in [.post, .put, .patch, .delete] {
                let r = try await client.execute(uri: "/api/shared/\(t)", method: method)
                XCTAssertEqual(r.status, .forbidden, "\(method)")
            }
            let other = try await Self.makeLink(client, b)
            let mixed = try await client.execute(uri: "/api/shared/\(t)", method: .get, headers: [.authorization: "Bearer \(other.token)"])
            XCTAssertEqual(mixed.status, .forbidden)
            // Without any token, reads stay open as before: the gate adds nothing for the owner.
            let open = try await client.execute(uri: "/api/sessions/\(b)", method: .get)
            XCTAssertEqual(open.status, .ok)
        }
        XCTAssertEqual(try sessions.reportJSON(id: b), notesBefore, "B is unchanged")
        XCTAssertEqual(try sessions.list(SessionQuery()).sessions.count, 2, "nothing deleted")
    }

    func testRevokedUnknownAndDeletedAre403Alike() async throws {
        let a = self.a, b = self.b
        let logs = Self.logs
        logs.lines.withLock { $0.removeAll() }
        let kept = LogLines()
        try await withApp { client in
            let link = try await Self.makeLink(client, a)
            let unknown = String(repeating: "A", count: 22)
            let answers = try await [unknown, "short", unknown + "A", "%41%41"].asyncMap { try await client.execute(uri: "/api/shared/\($0)", method: .get) }
            for r in answers { XCTAssertEqual(r.status, .forbidden) }
            let unknownMessage = String(buffer: answers[0].body)
            let r1 = try await client.execute(uri: "/share/\(unknown)", method: .get)
            XCTAssertEqual(r1.status, .forbidden)

            let r2 = try await client.execute(uri: "/api/shares/\(link.token)", method: .delete)
            XCTAssertEqual(r2.status, .unauthorized)
            let r3 = try await client.execute(uri: "/api/shares/\(link.token)", method: .delete, headers: Self.owner)
            XCTAssertEqual(r3.status, .noContent)
            let revoked = try await client.execute(uri: "/api/shared/\(link.token)/trail", method: .get)
            XCTAssertEqual(revoked.status, .forbidden)
            let r4 = try await client.execute(uri: "/api/shared/\(link.token)", method: .get)
            XCTAssertEqual(String(buffer: r4.body), unknownMessage,
                           "a revoked token answers as an unknown one")
            let r5 = try await client.execute(uri: "/share/\(link.token)", method: .get)
            XCTAssertEqual(r5.status, .forbidden)
            let r6 = try await client.execute(uri: "/api/shares/\(link.token)", method: .delete, headers: Self.owner)
            XCTAssertEqual(r6.status, .notFound)

            // All of a session's links at once; and a deleted session's link.
            let b1 = try await Self.makeLink(client, b), b2 = try await Self.makeLink(client, b)
            let allAnswer = try await client.execute(uri: "/api/sessions/\(b)/shares", method: .delete, headers: Self.owner)
            let all = try Self.object(allAnswer)
            XCTAssertEqual(all["revoked"] as? Int, 2)
            for l in [b1, b2] {
                let r = try await client.execute(uri: "/api/shared/\(l.token)", method: .get)
                XCTAssertEqual(r.status, .forbidden)
            }
            let a2 = try await Self.makeLink(client, a)
            let r7 = try await client.execute(uri: "/api/shared/\(a2.token)", method: .get)
            XCTAssertEqual(r7.status, .ok)
            let r8 = try await client.execute(uri: "/api/sessions/\(a)", method: .delete, headers: Self.owner)
            XCTAssertEqual(r8.status, .noContent)
            let gone = try await client.execute(uri: "/api/shared/\(a2.token)", method: .get)
            XCTAssertEqual(gone.status, .forbidden)
            XCTAssertEqual(String(buffer: gone.body), unknownMessage)
            kept.lines.withLock { $0 = [link.token, b1.token, b2.token, a2.token] }
        }
        // The server logs no request line; this catches one that would (the real process: SharePageTests).
        let lines = logs.lines.withLock { $0 }
        let tokens = kept.lines.withLock { $0 }
        XCTAssertEqual(tokens.count, 4)
        for t in tokens { XCTAssertFalse(lines.contains { $0.contains(t) }, "a log line holds a token: \(lines)") }
        XCTAssertEqual(ShareGate<BasicRequestContext>.redacted("/api/shared/\(tokens[0])/trail"), "/api/shared/…/trail")
        XCTAssertEqual(ShareGate<BasicRequestContext>.redacted("/share/\(tokens[0])"), "/share/…")
    }
}

final class LogLines: Sendable {
    let lines = Mutex<[String]>([])
}

/// Every log line (message and metadata), kept for the test to search.
private struct CapturingLog: LogHandler {
    let lines: LogLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(level: Logger.Level, message: Logger.Message, metadata extra: Logger.Metadata?, source: String, file: String, function: String, line: UInt) {
        let all = self.metadata.merging(extra ?? [:]) { $1 }
        lines.lines.withLock { $0.append("\(level) \(message) \(all)") }
    }
}

private extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for e in self { out.append(try await transform(e)) }
        return out
    }
}
