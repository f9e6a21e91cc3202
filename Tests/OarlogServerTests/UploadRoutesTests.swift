import Foundation
import Hummingbird
import HummingbirdTesting
import OarlogApp
import OarlogTestSupport
import XCTest
@testable import OarlogServer

/// The upload routes in process (docs/API.md): `POST /api/sessions/{id}/uploads` queues a kept
/// session for an account's service (the token needed; a bad body, an unknown service or one
/// without an account 400, no such session 404), and `GET /api/uploads` and `GET /api/accounts`
/// answer as `oarlog uploads --json` and `oarlog accounts list --json` — without the key.
final class UploadRoutesTests: XCTestCase {
    private var dataDirectory: URL!
    private var sessions: SessionStore!
    private var id = ""
    private static let token = String(repeating: "ab", count: 16)
    private static let key = "key-\(UUID().uuidString)"

    override func setUpWithError() throws {
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-upload-routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        sessions = SessionStore(sessionsPath: dataDirectory.appendingPathComponent("sessions").path)
        var replay = try TraceReplay(path: try samplePath("rowingdata/nk_logbook.csv"))
        let kept = try sessions.keeping(replay, title: "Upload", boat: "Eight")
        _ = try replay.run(sinks: [], keeping: kept)
        id = kept.id
        let keyFile = dataDirectory.appendingPathComponent("key").path
        try Data(Self.key.utf8).write(to: URL(fileURLWithPath: keyFile))
        // Nothing listens on port 9 (discard): a send would be queued; no pump runs in process.
        try sessions.addUploadAccount(UploadAccountRequest(service: .intervals, url: "http://127.0.0.1:9", athlete: "i42", apiKeyFile: keyFile))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    private func withApp(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let station = try LiveStation(source: .replay(path: "samples/none.csv", speed: 1), sessions: sessions, log: { _ in })
        let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, webRoot: ServerConfiguration.defaultWebRoot, sessions: sessions)
        let router = WebServer.makeRouter(configuration, station: station, access: ServerAccess(token: Self.token, pairingCode: "424242"))
        try await Application(router: router).test(.router, body)
    }

    func testQueueListAndRefusals() async throws {
        let id = self.id
        try await withApp { client in
            let owner: HTTPFields = [.authorization: "Bearer \(Self.token)"]
            func post(_ path: String, _ body: String, headers: HTTPFields = owner) async throws -> TestResponse {
                try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: body))
            }
            let path = "/api/sessions/\(id)/uploads"
            let noToken = try await post(path, #"{"service":"intervals"}"#, headers: [:])
            XCTAssertEqual(noToken.status, .unauthorized)
            for (body, words) in [(#"{"service":"garmin"}"#, "not intervals"), ("not json", "malformed JSON"), (#"{"service":"strava"}"#, "no Strava account")] {
                let bad = try await post(path, body)
                XCTAssertEqual(bad.status, .badRequest, body)
                XCTAssertTrue(String(buffer: bad.body).contains(words), String(buffer: bad.body))
            }
            let missing = try await post("/api/sessions/2020-01-01T00-00-00Z_none/uploads", #"{"service":"intervals"}"#)
            XCTAssertEqual(missing.status, .notFound)

            let queued = try await post(path, #"{"service":"intervals","force":false}"#)
            XCTAssertEqual(queued.status, .accepted, String(buffer: queued.body))
            let one = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: queued.body)) as? [String: Any])
            XCTAssertEqual(one["session"] as? String, id)
            XCTAssertEqual(one["state"] as? String, "queued")

            let list = try await client.execute(uri: "/api/uploads", method: .get)
            XCTAssertEqual(list.status, .ok)
            let all = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: list.body)) as? [[String: Any]])
            XCTAssertEqual(all.count, 1, "asked for once: one entry")
            XCTAssertEqual(all.first?["service"] as? String, "intervals")
            let accounts = try await client.execute(uri: "/api/accounts", method: .get)
            let text = String(buffer: accounts.body)
            XCTAssertTrue(text.contains(#""athlete":"i42""#), text)
            XCTAssertFalse(text.contains(Self.key))
            XCTAssertFalse(String(buffer: list.body).contains(Self.key))
        }
    }
}
