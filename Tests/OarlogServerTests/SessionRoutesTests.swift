import Foundation
import Hummingbird
import HummingbirdTesting
import OarlogApp
import OarlogTestSupport
import XCTest
@testable import OarlogServer

/// The session controllers in process (`app.test(.router)`) over a real session file kept from
/// the bundled workout through `SessionStore`: each read answers what the store says, each change
/// lands in the file, and each kind of `SessionStoreError` comes out as its one status — 404 for
/// a session, note, piece or stroke that is not there, 409 for the session being recorded, 400 for
/// a time outside the session, 401 without the token.
final class SessionRoutesTests: XCTestCase {
    private var dataDirectory: URL!
    private var sessions: SessionStore!
    private var id = ""
    private static let token = String(repeating: "ef", count: 16)

    override func setUpWithError() throws {
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-session-routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        sessions = SessionStore(sessionsPath: dataDirectory.appendingPathComponent("sessions").path)
        var replay = try TraceReplay(path: try samplePath("sim-workout.csv"))
        let kept = try sessions.keeping(replay, title: "Route test", boat: "Eight")
        _ = try replay.run(sinks: [], keeping: kept)
        id = kept.id
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    private func withApp(station: LiveStation? = nil, _ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let station = try station ?? LiveStation(source: .replay(path: "samples/none.csv", speed: 1), sessions: sessions, log: { _ in })
        let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, webRoot: ServerConfiguration.defaultWebRoot, sessions: sessions)
        let router = WebServer.makeRouter(configuration, station: station, access: ServerAccess(token: Self.token, pairingCode: "424242"))
        try await Application(router: router).test(.router, body)
    }

    private static var authorized: HTTPFields { [.authorization: "Bearer \(token)"] }

    private static func object(_ response: TestResponse) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any], String(buffer: response.body))
    }

    private static func message(_ response: TestResponse) throws -> String {
        let error = try XCTUnwrap(try object(response)["error"] as? [String: Any])
        return try XCTUnwrap(error["message"] as? String)
    }

    func testReadsAnswerWhatTheStoreSays() async throws {
        let id = self.id, sessions = self.sessions!
        try await withApp { client in
            let list = try await client.execute(uri: "/api/sessions?boat=Eight", method: .get)
            XCTAssertEqual(list.status, .ok)
            let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: list.body)) as? [[String: Any]])
            XCTAssertEqual(rows.map { $0["id"] as? String }, [id])
            XCTAssertEqual(rows.first?["strokes"] as? Int, 310)
            XCTAssertEqual(String(buffer: list.body), try sessions.list(SessionQuery(boat: "Eight")).json(fileNamesOnly: true))

            let show = try await client.execute(uri: "/api/sessions/\(id)", method: .get)
            XCTAssertEqual(show.status, .ok)
            XCTAssertEqual(String(buffer: show.body), try sessions.reportJSON(id: id))
            XCTAssertEqual((try Self.object(show)["stroke_list"] as? [Any])?.count, 310)

            let pieces = try await client.execute(uri: "/api/sessions/\(id)/pieces", method: .get)
            XCTAssertEqual(try (Self.object(pieces)["pieces"] as? [Any])?.count, 6)
            let curve = try await client.execute(uri: "/api/sessions/\(id)/curve?piece=1&points=40", method: .get)
            XCTAssertEqual(curve.status, .ok)
            XCTAssertEqual(try Self.object(curve)["piece"] as? Int, 1)
            let noStroke = try await client.execute(uri: "/api/sessions/\(id)/curve?stroke=310", method: .get)
            XCTAssertEqual(noStroke.status, .notFound)
            XCTAssertEqual(try Self.message(noStroke), "no such piece or stroke in this session")

            let gpx = try await client.execute(uri: "/api/sessions/\(id)/export/gpx", method: .get)
            XCTAssertEqual(gpx.headers[.contentDisposition], "attachment; filename=\"\(id).gpx\"")
            XCTAssertEqual(Array(buffer: gpx.body), try sessions.exportBytes(id: id, format: .gpx))
            let nothing = try await client.execute(uri: "/api/sessions/\(id)x/trail", method: .get)
            XCTAssertEqual(nothing.status, .notFound)
            XCTAssertEqual(try Self.message(nothing), "no such session")
        }
    }

    func testChangesLandInTheFileAndSayWhyWhenTheyCannot() async throws {
        let id = self.id, sessions = self.sessions!
        try await withApp { client in
            let body = ByteBuffer(string: #"{"text": "bow side late", "t_s": 60}"#)
            let unauthorized = try await client.execute(uri: "/api/sessions/\(id)/notes", method: .post, body: body)
            XCTAssertEqual(unauthorized.status, .unauthorized)
            let added = try await client.execute(uri: "/api/sessions/\(id)/notes", method: .post, headers: Self.authorized, body: body)
            XCTAssertEqual(added.status, .created, String(buffer: added.body))
            XCTAssertEqual(try Self.object(added)["t_s"] as? Double, 60)
            let late = try await client.execute(uri: "/api/sessions/\(id)/notes", method: .post, headers: Self.authorized,
                                                body: ByteBuffer(string: #"{"text": "x", "t_s": 99999}"#))
            XCTAssertEqual(late.status, .badRequest)
            XCTAssertTrue(try Self.message(late).contains("t_s must be a time within the session"))
            let noNote = try await client.execute(uri: "/api/sessions/\(id)/notes/5", method: .patch, headers: Self.authorized,
                                                  body: ByteBuffer(string: #"{"text": "y"}"#))
            XCTAssertEqual(noNote.status, .notFound)
            XCTAssertEqual(try Self.message(noNote), "no such note: the session has 1")

            let renamed = try await client.execute(uri: "/api/sessions/\(id)", method: .patch, headers: Self.authorized,
                                                   body: ByteBuffer(string: #"{"title": "Head race"}"#))
            XCTAssertEqual(renamed.status, .ok)
            XCTAssertEqual(try Self.object(renamed)["title"] as? String, "Head race")
            XCTAssertEqual(try sessions.list().sessions.first?.title, "Head race")

            let deleted = try await client.execute(uri: "/api/sessions/\(id)", method: .delete, headers: Self.authorized)
            XCTAssertEqual(deleted.status, .noContent)
            XCTAssertThrowsError(try sessions.checkExists(id: id)) { XCTAssertEqual($0 as? SessionStoreError, .notFound("no such session")) }
            let again = try await client.execute(uri: "/api/sessions/\(id)", method: .get)
            XCTAssertEqual(again.status, .notFound)
        }
    }

    /// The session being recorded is refused every change and download (409), in one place
    /// (`SessionStore.checkNotRecording`), while a note goes into the recording.
    func testTheSessionBeingRecordedIsNotChanged() async throws {
        let station = try LiveStation(source: .replay(path: try samplePath("sim-workout.csv"), speed: 50), sessions: sessions, log: { _ in })
        try station.start()
        defer { station.stop() }
        let recording = try station.startRecording(title: "Live")
        try await withApp(station: station) { client in
            for (uri, method) in [("/api/sessions/\(recording)", HTTPRequest.Method.delete), ("/api/sessions/\(recording)/export/fit", .get)] {
                let refused = try await client.execute(uri: uri, method: method, headers: Self.authorized)
                XCTAssertEqual(refused.status, .conflict, uri)
                XCTAssertEqual(try Self.message(refused), "the session is being recorded: stop it first")
            }
            let renamed = try await client.execute(uri: "/api/sessions/\(recording)", method: .patch, headers: Self.authorized,
                                                   body: ByteBuffer(string: #"{"title": "x"}"#))
            XCTAssertEqual(renamed.status, .conflict)
            let note = try await client.execute(uri: "/api/sessions/\(recording)/notes", method: .post, headers: Self.authorized,
                                                body: ByteBuffer(string: #"{"text": "start of the piece"}"#))
            XCTAssertEqual(note.status, .created)
            XCTAssertEqual(try Self.object(note)["text"] as? String, "start of the piece")
        }
        XCTAssertEqual(try station.stopRecording(), recording)
        let report = try sessions.report(recording, includeStrokes: false)
        XCTAssertEqual(report.notes.map(\.text), ["start of the piece"])
    }
}
