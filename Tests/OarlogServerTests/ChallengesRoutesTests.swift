import Foundation
import Hummingbird
import HummingbirdTesting
import OarlogApp
import OarlogCore
import OarlogTestSupport
import XCTest
@testable import OarlogServer

/// `/api/challenges` in process (`app.test(.router)`) over the NK logbook sample kept as a session
/// of boat "M8+ Alpha" on the sample course (10:08.3): the list with the attempt linked and
/// waiting; accept (200) and a second answer refused (409); reject with a note; setting one
/// (201, linked at once when already met, which a challenge set now cannot be: the sample is
/// older); refusals with the reason — a bad target (400), a course not kept (404), no token (401),
/// a body over 16 KiB (413), an unknown id (404). The errors are `{"error": {"message"}}`.
final class ChallengesRoutesTests: XCTestCase {
    private var dataDirectory: URL!
    private var sessions: SessionStore!
    private static let token = String(repeating: "cd", count: 16)

    override func setUpWithError() throws {
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-challenges-routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        sessions = SessionStore(sessionsPath: dataDirectory.appendingPathComponent("sessions").path)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dataDirectory) }

    private func withApp(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let station = try LiveStation(source: .replay(path: "samples/none.csv", speed: 1), sessions: sessions, log: { _ in })
        let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, webRoot: ServerConfiguration.defaultWebRoot, sessions: sessions)
        let router = WebServer.makeRouter(configuration, station: station, access: ServerAccess(token: Self.token, pairingCode: "424242"))
        try await Application(router: router).test(.router, body)
    }

    private static var authorized: HTTPFields { [.authorization: "Bearer \(token)", .contentType: "application/json"] }

    private static func json(_ response: TestResponse) throws -> Any { try JSONSerialization.jsonObject(with: Data(buffer: response.body)) }

    private static func message(_ response: TestResponse) throws -> String {
        let object = try XCTUnwrap(try json(response) as? [String: Any], String(buffer: response.body))
        return try XCTUnwrap((object["error"] as? [String: Any])?["message"] as? String, String(buffer: response.body))
    }

    /// The sample kept as a session of "M8+ Alpha" on the kept course; its attempt's session and UTC start.
    static func keepSample(in sessions: SessionStore) throws -> (session: String, date: Double) {
        _ = try sessions.addCourse(name: "NK course", file: try samplePath("nk-course.geojson"))
        var replay = try TraceReplay(path: try samplePath("rowingdata/nk_logbook.csv"))
        let kept = try sessions.keeping(replay, title: "NK", boat: "M8+ Alpha")
        _ = try replay.run(sinks: [], keeping: kept)
        let attempt = try XCTUnwrap(try sessions.attempts(course: "NK course").first)
        return (attempt.session, try XCTUnwrap(attempt.startUTC) + attempt.start)
    }

    func testChallengesAreListedSetAndAnswered() async throws {
        let sample = try Self.keepSample(in: sessions)
        let request = { (under: String) in SessionStore.ChallengeRequest(course: "NK course", target: under, boat: "m8+ alpha", setBy: "Coach") }
        let met = try sessions.setChallenge(request("10:30"), now: sample.date - 3600)
        let other = try sessions.setChallenge(request("10:20"), now: sample.date - 7200)
        let sessions = self.sessions!
        try await withApp { client in
            let list = try await client.execute(uri: "/api/challenges", method: .get)
            XCTAssertEqual(list.status, .ok)
            let all = try XCTUnwrap(try Self.json(list) as? [[String: Any]])
            XCTAssertEqual(all.map { $0["id"] as? String }, [met.id, other.id], "newest first")
            XCTAssertEqual(all.map { $0["state"] as? String }, ["waiting", "waiting"])
            let attempt = try XCTUnwrap(all[0]["attempt"] as? [String: Any])
            XCTAssertEqual(attempt["session"] as? String, sample.session)
            XCTAssertEqual(attempt["time_s"] as? Double ?? 0, 608.3, accuracy: 0.05)
            XCTAssertEqual(all[0]["target_s"] as? Double, 630)

            let accepted = try await client.execute(uri: "/api/challenges/\(met.id)/accept", method: .post, headers: Self.authorized,
                                                    body: ByteBuffer(string: #"{"note": "well rowed"}"#))
            XCTAssertEqual(accepted.status, .ok, String(buffer: accepted.body))
            let done = try XCTUnwrap(try Self.json(accepted) as? [String: Any])
            XCTAssertEqual(done["state"] as? String, "accepted")
            XCTAssertEqual((done["answer"] as? [String: Any])?["note"] as? String, "well rowed")
            XCTAssertEqual((done["answer"] as? [String: Any])?["by"] as? String, "Coach")
            let again = try await client.execute(uri: "/api/challenges/\(met.id)/reject", method: .post, headers: Self.authorized,
                                                 body: ByteBuffer(string: "{}"))
            XCTAssertEqual(again.status, .conflict)
            let why = try Self.message(again)
            XCTAssertTrue(why.contains("accepted already"), why)

            let rejected = try await client.execute(uri: "/api/challenges/\(other.id)/reject", method: .post, headers: Self.authorized,
                                                    body: ByteBuffer(string: #"{"note": "missed the buoy", "by": "Ann"}"#))
            XCTAssertEqual(rejected.status, .ok, String(buffer: rejected.body))
            let open = try XCTUnwrap(try Self.json(rejected) as? [String: Any])
            XCTAssertEqual(open["state"] as? String, "rejected")
            XCTAssertTrue(open["attempt"] is NSNull)
            XCTAssertEqual((open["answer"] as? [String: Any])?["note"] as? String, "missed the buoy")
            XCTAssertEqual((open["answer"] as? [String: Any])?["by"] as? String, "Ann")

            // Set now: the sample was rowed before, so it is open.
            let body = #"{"course": "nk course", "under": "10:30", "before": "2099-12-20", "boat": "Alpha", "by": "Coach", "note": "again"}"#
            let set = try await client.execute(uri: "/api/challenges", method: .post, headers: Self.authorized, body: ByteBuffer(string: body))
            XCTAssertEqual(set.status, .created, String(buffer: set.body))
            let made = try XCTUnwrap(try Self.json(set) as? [String: Any])
            XCTAssertEqual(made["state"] as? String, "open")
            XCTAssertEqual(made["course"] as? String, "NK course")
            XCTAssertEqual(made["deadline"] as? String, "2099-12-20T00:00:00.000Z")
            XCTAssertEqual(try sessions.challenges.list().count, 3, "kept in challenges.json")

            for (body, status, words) in [(#"{"course": "NK course", "under": "ten"}"#, HTTPResponse.Status.badRequest, "target"),
                                          (#"{"course": "Nowhere", "under": "9:30"}"#, .notFound, "no course"),
                                          (#"{"under": "9:30"}"#, .badRequest, "course"),
                                          (#"{"course": "NK course", "under": "9:30", "before": "2001-01-01"}"#, .badRequest, "past"),
                                          (#"{"course": "NK course", "under": "9:30", "handicap": "yes"}"#, .badRequest, "handicap")] {
                let r = try await client.execute(uri: "/api/challenges", method: .post, headers: Self.authorized, body: ByteBuffer(string: body))
                XCTAssertEqual(r.status, status, body)
                let why = try Self.message(r)
                XCTAssertTrue(why.contains(words), "\(body): \(why)")
            }
            let anonymous = try await client.execute(uri: "/api/challenges", method: .post, headers: [.contentType: "application/json"],
                                                     body: ByteBuffer(string: #"{"course": "NK course", "under": "9:30"}"#))
            XCTAssertEqual(anonymous.status, .unauthorized)
            let large = try await client.execute(uri: "/api/challenges", method: .post, headers: Self.authorized,
                                                 body: ByteBuffer(string: #"{"course": "NK course", "under": "9:30", "note": ""# + String(repeating: "x", count: 20_000) + "\"}"))
            XCTAssertEqual(large.status, .contentTooLarge)
            let unknown = try await client.execute(uri: "/api/challenges/c-1-ffff/accept", method: .post, headers: Self.authorized,
                                                   body: ByteBuffer(string: "{}"))
            XCTAssertEqual(unknown.status, .notFound)
            XCTAssertEqual(try sessions.challenges.list().count, 3, "nothing refused was kept")
        }
    }
}
