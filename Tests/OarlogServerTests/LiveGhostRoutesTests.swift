import Foundation
import Hummingbird
import HummingbirdTesting
import OarlogApp
import OarlogCore
import OarlogTestSupport
import Synchronization
import XCTest
@testable import OarlogServer

/// The ghost routes in process (`app.test(.router)`), over the real NK logbook outing kept as a
/// session and its 2 km course saved as "NK 2k" (`oarlog course` times the piece at 10:08.3):
/// the choices list the course's attempt; a ghost chosen by `best` or `ID:1` reaches the station
/// and the live stream, and is cleared; no such course, session or attempt is 404, a body that
/// is not a choice 400, no token 401, a change while recording 409; and a recording of the same
/// outing races its own attempt level at every gate.
final class LiveGhostRoutesTests: XCTestCase {
    private var dataDirectory: URL!
    private var sessions: SessionStore!
    private var saved = ""
    private var best: CourseAttempt!
    private static let token = String(repeating: "ef", count: 16)
    private static var authorized: HTTPFields { [.authorization: "Bearer \(token)"] }

    override func setUpWithError() throws {
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-ghost-routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        sessions = SessionStore(sessionsPath: dataDirectory.appendingPathComponent("sessions").path)
        var replay = try TraceReplay(path: try samplePath("rowingdata/nk_logbook.csv"))
        let kept = try sessions.keeping(replay, title: "NK", boat: "Eight")
        _ = try replay.run(sinks: [], keeping: kept)
        saved = kept.id
        _ = try sessions.addCourse(name: "NK 2k", file: TestPaths.packageRoot.appendingPathComponent("samples/nk-course.geojson").path)
        best = try XCTUnwrap(try sessions.attempts(course: "NK 2k").first)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    private func withApp(_ station: LiveStation, _ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, webRoot: ServerConfiguration.defaultWebRoot, sessions: sessions)
        let router = WebServer.makeRouter(configuration, station: station, access: ServerAccess(token: Self.token, pairingCode: "424242"))
        try await Application(router: router).test(.router, body)
    }

    private static func object(_ response: TestResponse) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any], String(buffer: response.body))
    }

    private static func message(_ response: TestResponse) throws -> String {
        (try object(response)["error"] as? [String: Any])?["message"] as? String ?? ""
    }

    private static func put(_ client: any TestClientProtocol, _ body: String, headers: HTTPFields = authorized) async throws -> TestResponse {
        try await client.execute(uri: "/api/live/ghost", method: .put, headers: headers, body: ByteBuffer(string: body))
    }

    func testAGhostIsChosenByCourseAndAttemptAndCleared() async throws {
        let station = try LiveStation(source: .replay(path: "samples/none.csv", speed: 1), sessions: sessions, log: { _ in })
        let heard = Mutex<[String]>([])
        _ = station.subscribe { message in heard.withLock { $0.append(message) } }
        let (id, best) = (saved, best!)
        try await withApp(station) { client in
            let none = try Self.object(try await client.execute(uri: "/api/live/ghost", method: .get))
            XCTAssertTrue(none["ghost"] is NSNull && none["status"] is NSNull && none["final_gap_s"] is NSNull, "\(none)")
            XCTAssertEqual(none["recording"] as? Bool, false)

            // The choices: the course, and its one attempt named as PUT takes it.
            let choices = try await client.execute(uri: "/api/live/ghost/choices", method: .get)
            XCTAssertEqual(choices.status, .ok)
            let courses = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: choices.body)) as? [[String: Any]])
            XCTAssertEqual(courses.compactMap { $0["name"] as? String }, ["NK 2k"])
            let attempts = try XCTUnwrap(courses.first?["attempts"] as? [[String: Any]])
            XCTAssertEqual(attempts.compactMap { $0["ghost"] as? String }, ["\(id):1"])
            XCTAssertEqual(attempts.first?["boat"] as? String, "Eight")
            XCTAssertEqual(attempts.first?["time_s"] as? Double ?? 0, best.time, accuracy: 0.005)

            let unauthorized = try await Self.put(client, #"{"course": "NK 2k", "ghost": "best"}"#, headers: [:])
            XCTAssertEqual(unauthorized.status, .unauthorized)
            XCTAssertNil(station.ghost)

            for body in [#"{"course": "nk 2K", "ghost": "best"}"#, "{\"course\": \"NK 2k\", \"ghost\": \"\(id):1\"}"] {
                let chosen = try await Self.put(client, body)
                XCTAssertEqual(chosen.status, .ok, String(buffer: chosen.body))
                let ghost = try XCTUnwrap(try Self.object(chosen)["ghost"] as? [String: Any], body)
                XCTAssertEqual(ghost["session"] as? String, id)
                XCTAssertEqual(ghost["time_s"] as? Double ?? 0, best.time, accuracy: 0.005, "10:08.3, as oarlog course times it")
                XCTAssertEqual(ghost["start_s"] as? Double ?? 0, best.start, accuracy: 0.005)
                XCTAssertEqual((ghost["gates"] as? [[String: Any]])?.compactMap { $0["name"] as? String },
                               ["Start", "500 m", "1000 m", "1500 m", "Finish"])
                XCTAssertGreaterThan((ghost["track"] as? [Any])?.count ?? 0, 100, "the attempt's path for the map")
                XCTAssertEqual(station.ghost?.session, id)
            }
            let read = try Self.object(try await client.execute(uri: "/api/live/ghost", method: .get))
            XCTAssertEqual((read["ghost"] as? [String: Any])?["choice"] as? String, id, "as chosen (the first attempt by its id)")

            // Not there: 404, and the ghost chosen stays.
            for (body, words) in [("{\"course\": \"NK 2k\", \"ghost\": \"\(id):2\"}", "1 attempt"),
                                  (#"{"course": "Head", "ghost": "best"}"#, "Head"),
                                  (#"{"course": "NK 2k", "ghost": "2020-01-01T00-00-00Z_nothing"}"#, "no such session")] {
                let missing = try await Self.put(client, body)
                XCTAssertEqual(missing.status, .notFound, body)
                let text = try Self.message(missing)
                XCTAssertTrue(text.contains(words), "\(body): \(text)")
            }
            // Not a choice: 400 with what is expected.
            for body in [#"{"ghost": 5}"#, #"{"ghost": "best"}"#, #"{"course": "NK 2k", "ghost": "../../etc/passwd"}"#,
                         "{\"course\": \"NK 2k\", \"ghost\": \"\(id):0\"}", "{}", "[]"] {
                let refused = try await Self.put(client, body)
                XCTAssertEqual(refused.status, .badRequest, body)
                XCTAssertFalse(try Self.message(refused).isEmpty, body)
            }
            XCTAssertEqual(station.ghost?.session, id)

            let cleared = try await Self.put(client, #"{"ghost": null}"#)
            XCTAssertEqual(cleared.status, .ok)
            XCTAssertTrue(try Self.object(cleared)["ghost"] is NSNull)
            XCTAssertNil(station.ghost)
        }
        // The phones heard each choice: two ghosts, then none.
        let choices = heard.withLock { $0 }.filter { $0.contains("\"ghost_choice\"") }
        XCTAssertEqual(choices.count, 3, "\(choices.map { $0.prefix(80) })")
        XCTAssertTrue(choices.last?.contains("\"ghost\":null") ?? false)
    }

    /// A recording of the outing races its own attempt: 409 for a change meanwhile; the phones
    /// hear the gap at the catches and every gate; the gaps are 0.0 s (±0.1 s).
    func testARecordingRacesItsGhostLevel() async throws {
        let station = try LiveStation(source: .replay(path: try samplePath("rowingdata/nk_logbook.csv"), speed: 100), sessions: sessions, log: { _ in })
        try station.chooseGhost(try sessions.ghostReference(savedCourse: "NK 2k", choice: .best, boat: nil), course: "NK 2k", choice: "best")
        let heard = Mutex<[String]>([])
        _ = station.subscribe { message in heard.withLock { $0.append(message) } }
        try station.start()
        defer { station.stop() }
        let recording = try station.startRecording(title: "Against the ghost")
        try await withApp(station) { client in
            let refused = try await Self.put(client, #"{"ghost": null}"#)
            XCTAssertEqual(refused.status, .conflict)
            let text = try Self.message(refused)
            XCTAssertTrue(text.contains("stop it before"), text)
            // 652 s to the start and 608 s of race at 100×: about 13 s.
            var race: [String: Any] = [:]
            for _ in 0..<300 {
                race = try Self.object(try await client.execute(uri: "/api/live/ghost", method: .get))
                if !(race["final_gap_s"] is NSNull) { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            XCTAssertEqual(race["final_gap_s"] as? Double ?? 99, 0, accuracy: 0.1, "\(race)")
            let gates = try XCTUnwrap(race["gates"] as? [[String: Any]])
            XCTAssertEqual(gates.compactMap { $0["gate"] as? String }, ["500 m", "1000 m", "1500 m", "Finish"])
            for gate in gates { XCTAssertEqual(gate["gap_s"] as? Double ?? 99, 0, accuracy: 0.1, "\(gate)") }
            XCTAssertEqual(race["recording"] as? Bool, true)
        }
        XCTAssertEqual(try station.stopRecording(), recording)
        let messages = heard.withLock { $0 }
        let statuses = messages.filter { $0.hasPrefix("{\"type\":\"ghost\",") }
        let strokes = best.strokes
        XCTAssertEqual(Double(statuses.count), Double(strokes), accuracy: 2, "a gap at every catch of the piece's \(strokes) strokes")
        XCTAssertEqual(messages.filter { $0.contains("\"type\":\"ghost_gate\"") }.count, 4)
        XCTAssertEqual(messages.filter { $0.contains("\"type\":\"ghost_race\"") }.count, 2, "started and finished")
        // Every gap at a catch is small: the crew is its own ghost (a few metres of GPS between
        // the fix a catch follows and the ghost's interpolated place).
        for status in statuses {
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(status.utf8)) as? [String: Any])
            XCTAssertEqual(object["gap_s"] as? Double ?? 99, 0, accuracy: 0.5, status)
        }
    }
}
