import Foundation
import Hummingbird
import HummingbirdTesting
import OarlogApp
@testable import OarlogServer
import XCTest

/// `POST /api/fleet/workout` in process: the token needed, a bad spec answered 400 with its
/// column, a good one sent (the coach then shows it as waiting for the boat's answer).
final class FleetWorkoutRouteTests: XCTestCase {
    static let token = "fleet-workout-token"

    func testTheCoachSendsAPlanWithTheToken() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-fleet-route-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let sessions = SessionStore(sessionsPath: work.appendingPathComponent("sessions").path)
        let station = try LiveStation(source: .replay(path: "samples/none.csv", speed: 1), sessions: sessions, log: { _ in })
        // A broker nobody listens at: the plan waits in the coach's outbox, as it would out of reach.
        let coach = try FleetCoach(try FleetConnection(url: "mqtt://127.0.0.1:9"), clientID: "route-test")
        let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, webRoot: ServerConfiguration.defaultWebRoot, sessions: sessions)
        let router = WebServer.makeRouter(configuration, station: station, access: ServerAccess(token: Self.token, pairingCode: "424242"),
                                          coach: coach)
        try await Application(router: router).test(.router) { client in
            let body = ByteBuffer(string: #"{"spec": "3x4:00/2:00r", "boat": "Alpha"}"#)
            let refused = try await client.execute(uri: "/api/fleet/workout", method: .post, body: body)
            XCTAssertEqual(refused.status, .unauthorized)
            let auth: HTTPFields = [.authorization: "Bearer \(Self.token)"]
            let bad = try await client.execute(uri: "/api/fleet/workout", method: .post, headers: auth,
                                               body: ByteBuffer(string: #"{"spec": "3x4:00/2:00", "boat": null}"#))
            XCTAssertEqual(bad.status, .badRequest)
            let error = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(buffer: bad.body)) as? [String: Any])?["error"] as? [String: Any])
            XCTAssertEqual(error["column"] as? Int, 11)
            XCTAssertEqual(error["message"] as? String, "rest needs a trailing r at column 11")
            let sent = try await client.execute(uri: "/api/fleet/workout", method: .post, headers: auth, body: body)
            XCTAssertEqual(sent.status, .accepted, String(buffer: sent.body))
            let offer = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: sent.body)) as? [String: Any])
            XCTAssertEqual(offer["boat"] as? String, "alpha")
            XCTAssertEqual((offer["plan"] as? [String: Any])?["pieces"] as? Int, 3)
            XCTAssertEqual(coach.plan(for: "alpha")?.offer.id, offer["id"] as? String)
            XCTAssertEqual(coach.plan(for: "alpha")?.answer, .waiting)
            XCTAssertNil(coach.plan(for: "bravo"), "sent to alpha only")
        }
    }
}
