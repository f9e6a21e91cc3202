import Foundation
import Hummingbird
import HummingbirdTesting
import OarlogApp
import OarlogTestSupport
import XCTest
@testable import OarlogServer

/// `POST /api/import` in process (`app.test(.router)`): a file's bytes kept as a session through
/// the same `SessionStore.importing` as `oarlog import`, answered with the same JSON; a second
/// upload of the file is a duplicate; 401 without the token, 400 without a name, 413 over 64 MiB.
final class ImportRoutesTests: XCTestCase {
    private var dataDirectory: URL!
    private var sessions: SessionStore!
    private static let token = String(repeating: "cd", count: 16)

    override func setUpWithError() throws {
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-import-routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        sessions = SessionStore(sessionsPath: dataDirectory.appendingPathComponent("sessions").path)
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

    private static var authorized: HTTPFields { [.authorization: "Bearer \(token)"] }

    private static func object(_ response: TestResponse) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any], String(buffer: response.body))
    }

    func testAFileIsImportedOnceAndAnsweredAsTheCommandLineDoes() async throws {
        let sessions = self.sessions!
        // The interval workout's own header: "Start Time:,11/14/16 07:38am", "Name:,5x1:00".
        let bytes = try Data(contentsOf: URL(fileURLWithPath: try samplePath("rowingdata/SpeedCoach2Link_interval.csv")))
        try await withApp { client in
            let first = try await client.execute(uri: "/api/import?name=SpeedCoach2Link_interval.csv", method: .post,
                                                 headers: Self.authorized, body: ByteBuffer(bytes: bytes))
            XCTAssertEqual(first.status, .ok, String(buffer: first.body))
            let answer = try Self.object(first)
            let imported = try XCTUnwrap(answer["imported"] as? [[String: Any]])
            XCTAssertEqual(imported.count, 1)
            XCTAssertEqual(imported.first?["file"] as? String, "SpeedCoach2Link_interval.csv")
            XCTAssertEqual(imported.first?["start_utc"] as? String, "2016-11-14T07:38:00.000Z")
            let id = try XCTUnwrap(imported.first?["session"] as? String)
            let listed = try sessions.list()
            XCTAssertEqual(listed.sessions.map(\.id), [id], "the new session is in the index at once")
            XCTAssertEqual(listed.sessions.first?.title, "5x1:00", "titled by the file's session name")

            // The same bytes again: a duplicate of that session, nothing added.
            let again = try await client.execute(uri: "/api/import?name=copy.csv", method: .post,
                                                 headers: Self.authorized, body: ByteBuffer(bytes: bytes))
            XCTAssertEqual(again.status, .ok)
            let second = try Self.object(again)
            XCTAssertEqual((second["imported"] as? [Any])?.count, 0)
            XCTAssertEqual((second["duplicates"] as? [[String: Any]])?.first?["session"] as? String, id)
            XCTAssertEqual(try sessions.sessionFileCount(), 1)

            // A file no reader takes: refused with why, in the same answer's shape.
            let junk = try await client.execute(uri: "/api/import?name=..%2Fnotes.csv", method: .post,
                                                headers: Self.authorized, body: ByteBuffer(string: "hello, rowers\n"))
            XCTAssertEqual(junk.status, .ok)
            let refused = try XCTUnwrap(try Self.object(junk)["refused"] as? [[String: Any]])
            XCTAssertEqual(refused.first?["file"] as? String, "notes.csv", "only the name's last part is kept")
            XCTAssertTrue((refused.first?["error"] as? String ?? "").contains("unrecognised trace format"), "\(refused)")
        }
    }

    func testTheImportNeedsTheTokenANameAndABoundedBody() async throws {
        let sessions = self.sessions!
        try await withApp { client in
            let anonymous = try await client.execute(uri: "/api/import?name=a.csv", method: .post, body: ByteBuffer(string: "t,kind\n"))
            XCTAssertEqual(anonymous.status, .unauthorized)
            let nameless = try await client.execute(uri: "/api/import", method: .post, headers: Self.authorized,
                                                    body: ByteBuffer(string: "t,kind\n"))
            XCTAssertEqual(nameless.status, .badRequest)
            let empty = try await client.execute(uri: "/api/import?name=a.csv", method: .post, headers: Self.authorized, body: ByteBuffer())
            XCTAssertEqual(empty.status, .badRequest)
            let huge = ByteBuffer(repeating: UInt8(ascii: "x"), count: SessionStore.maximumImportBytes + 1)
            let tooLarge = try await client.execute(uri: "/api/import?name=big.csv", method: .post, headers: Self.authorized, body: huge)
            XCTAssertEqual(tooLarge.status, .contentTooLarge)
            XCTAssertTrue(String(buffer: tooLarge.body).contains("64 MiB"), String(buffer: tooLarge.body))
        }
        XCTAssertEqual(try sessions.sessionFileCount(), 0, "nothing was kept")
    }
}
