import Foundation
import Hummingbird
import HummingbirdTesting
import OarlogApp
import OarlogCore
import OarlogTestSupport
import Synchronization
import XCTest
@testable import OarlogServer

/// The cox's workout routes in process (`app.test(.router)`): a plan chosen by its spec reaches
/// the station and the live stream, cleared again; a spec that does not read is 400 with its
/// column; a change while a recording rows the plan is 409; the controls need the token; the
/// coach's offer is accepted or declined, and an offer not waiting is 404. And `oarlog serve
/// --workout` as a person starts it.
final class LiveWorkoutRoutesTests: XCTestCase {
    private var dataDirectory: URL!
    private var sessions: SessionStore!
    private static let token = String(repeating: "cd", count: 16)
    private static var authorized: HTTPFields { [.authorization: "Bearer \(token)"] }

    override func setUpWithError() throws {
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-workout-routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        sessions = SessionStore(sessionsPath: dataDirectory.appendingPathComponent("sessions").path)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    private func idleStation() throws -> LiveStation {
        try LiveStation(source: .replay(path: "samples/none.csv", speed: 1), sessions: sessions, log: { _ in })
    }

    private func withApp(_ station: LiveStation, _ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, webRoot: ServerConfiguration.defaultWebRoot, sessions: sessions)
        let router = WebServer.makeRouter(configuration, station: station, access: ServerAccess(token: Self.token, pairingCode: "424242"))
        try await Application(router: router).test(.router, body)
    }

    private static func object(_ response: TestResponse) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any], String(buffer: response.body))
    }

    private static func error(_ response: TestResponse) throws -> [String: Any] {
        try XCTUnwrap(try object(response)["error"] as? [String: Any], String(buffer: response.body))
    }

    private static func put(_ client: any TestClientProtocol, _ body: String, headers: HTTPFields = authorized) async throws -> TestResponse {
        try await client.execute(uri: "/api/live/workout", method: .put, headers: headers, body: ByteBuffer(string: body))
    }

    /// The steps of a plan's JSON as (kind, time_s or distance_m).
    private static func steps(_ plan: [String: Any]?) -> [String] {
        ((plan?["steps"] as? [[String: Any]]) ?? []).map { step in
            let kind = step["kind"] as? String ?? "?"
            if let t = step["time_s"] as? Double { return "\(kind) \(Int(t)) s" }
            return "\(kind) \(Int(step["distance_m"] as? Double ?? -1)) m"
        }
    }

    func testAPlanIsChosenByItsSpecAndCleared() async throws {
        let station = try idleStation()
        let heard = Mutex<[String]>([])
        _ = station.subscribe { message in heard.withLock { $0.append(message) } }
        try await withApp(station) { client in
            let none = try await client.execute(uri: "/api/live/workout", method: .get)
            XCTAssertEqual(none.status, .ok)
            let empty = try Self.object(none)
            XCTAssertTrue(empty["plan"] is NSNull && empty["offer"] is NSNull && empty["status"] is NSNull, "\(empty)")
            XCTAssertEqual(empty["starts_at_go"] as? Bool, false)

            let chosen = try await Self.put(client, #"{"spec": "3x4:00 / 2:00r", "starts_at_go": true}"#)
            XCTAssertEqual(chosen.status, .ok, String(buffer: chosen.body))
            let answer = try Self.object(chosen)
            let plan = answer["plan"] as? [String: Any]
            XCTAssertEqual(plan?["name"] as? String, "3x4:00/2:00r", "the spec as read, without its spaces")
            XCTAssertEqual(plan?["pieces"] as? Int, 3)
            // Three 4-minute pieces with 2 minutes' rest between them: five steps.
            XCTAssertEqual(Self.steps(plan), ["work 240 s", "rest 120 s", "work 240 s", "rest 120 s", "work 240 s"])
            XCTAssertEqual(answer["starts_at_go"] as? Bool, true)
            XCTAssertEqual(station.workout?.steps.count, 5)
            XCTAssertEqual(station.workout?.pieceCount, 3)
            XCTAssertTrue(station.workoutStartsAtGo)
            let read = try Self.object(try await client.execute(uri: "/api/live/workout", method: .get))
            XCTAssertEqual((read["plan"] as? [String: Any])?["name"] as? String, "3x4:00/2:00r")

            let cleared = try await Self.put(client, #"{"plan": null}"#)
            XCTAssertEqual(cleared.status, .ok)
            XCTAssertTrue(try Self.object(cleared)["plan"] is NSNull)
            XCTAssertNil(station.workout)
            XCTAssertFalse(station.workoutStartsAtGo, "starts_at_go defaults to false")
        }
        // The phones heard each choice as a workout_plan message.
        let plans = heard.withLock { $0 }.filter { $0.contains("\"workout_plan\"") }
        XCTAssertEqual(plans.count, 2, "\(plans)")
        XCTAssertTrue(plans.first?.contains("\"name\":\"3x4:00/2:00r\"") ?? false, plans.first ?? "")
        XCTAssertTrue(plans.last?.contains("\"plan\":null") ?? false, plans.last ?? "")
    }

    /// A spec that does not read is 400 with the message, the column at fault and the spec as
    /// read; nothing is chosen. The examples' columns are counted by hand.
    func testABadSpecIs400WithItsColumn() async throws {
        let station = try idleStation()
        try station.chooseWorkout(try WorkoutSpec.parse("20:00"))
        try await withApp(station) { client in
            // The column counts the spec as given, spaces too.
            for (spec, column, words) in [("3x4:00/2:00", 11, "trailing r"), ("3x4:00 / 2:00", 13, "trailing r"), ("0x500m/1:00r", 1, "0 pieces"),
                                          ("3x4:00/2:00rx", 13, "unexpected")] {
                let refused = try await Self.put(client, "{\"spec\": \"\(spec)\"}")
                XCTAssertEqual(refused.status, .badRequest, spec)
                let error = try Self.error(refused)
                let message = try XCTUnwrap(error["message"] as? String)
                XCTAssertTrue(message.contains(words) && message.hasSuffix("at column \(column)"), "\(spec): \(message)")
                XCTAssertEqual(error["column"] as? Int, column, spec)
                XCTAssertEqual(error["spec"] as? String, spec)
            }
            XCTAssertEqual(station.workout?.name, "20:00", "a refused plan leaves the chosen one")
            // Bodies that are not a choice: 400 with what is expected.
            for body in [#"{"spec": "20:00", "plan": null}"#, #"{"plan": "20:00"}"#, #"{"spec": 20}"#, #"{"spec": "20:00", "starts_at_go": "yes"}"#, "{}", "[]"] {
                let refused = try await Self.put(client, body)
                XCTAssertEqual(refused.status, .badRequest, body)
                XCTAssertFalse((try Self.error(refused)["message"] as? String ?? "").isEmpty, body)
            }
            // A name no plan is saved under: 404, nothing chosen.
            let named = try await Self.put(client, #"{"name": "pyramid"}"#)
            XCTAssertEqual(named.status, .notFound)
            XCTAssertTrue((try Self.error(named)["message"] as? String ?? "").contains("pyramid"))
            XCTAssertEqual(station.workout?.name, "20:00")
        }
    }

    /// A plan saved in the library (`oarlog workouts add`, `POST /api/workouts`) is chosen by its
    /// name, and only by a name: a path to a .json file, which `--workout` would open, is not one.
    func testASavedPlanIsChosenByItsName() async throws {
        let library = WorkoutLibrary(sessions: sessions)
        try library.add(name: "Pyramid", .spec("4:00,3:00,2:00,1:00/1:00r"))
        let file = dataDirectory.appendingPathComponent("plan.json")
        try Data(#"{"name": "Secret", "steps": [{"kind": "work", "time_s": 60}]}"#.utf8).write(to: file)
        let station = try idleStation()
        try await withApp(station) { client in
            let chosen = try await Self.put(client, #"{"name": "Pyramid"}"#)
            XCTAssertEqual(chosen.status, .ok, String(buffer: chosen.body))
            let plan = try Self.object(chosen)["plan"] as? [String: Any]
            XCTAssertEqual(plan?["pieces"] as? Int, 4)
            XCTAssertEqual(Self.steps(plan), ["work 240 s", "rest 60 s", "work 180 s", "rest 60 s", "work 120 s", "rest 60 s", "work 60 s"])
            let path = try await Self.put(client, "{\"name\": \"\(file.path)\"}")
            XCTAssertEqual(path.status, .notFound, String(buffer: path.body))
        }
        XCTAssertEqual(station.workout?.pieceCount, 4)
    }

    func testTheControlsNeedTheToken() async throws {
        let station = try idleStation()
        station.offerWorkout(WorkoutOffer(id: "c1", from: "Launch", plan: try WorkoutSpec.parse("20:00")))
        try await withApp(station) { client in
            for headers in [HTTPFields(), [.authorization: "Bearer " + String(repeating: "00", count: 16)]] {
                let choose = try await Self.put(client, #"{"spec": "20:00"}"#, headers: headers)
                XCTAssertEqual(choose.status, .unauthorized)
                let answer = try await client.execute(uri: "/api/live/workout/offer/c1", method: .post, headers: headers,
                                                      body: ByteBuffer(string: #"{"accept": true}"#))
                XCTAssertEqual(answer.status, .unauthorized)
            }
            // Reading is open, as /api/status.
            let read = try await client.execute(uri: "/api/live/workout", method: .get)
            XCTAssertEqual(read.status, .ok)
            XCTAssertEqual((try Self.object(read)["offer"] as? [String: Any])?["id"] as? String, "c1")
        }
        XCTAssertNil(station.workout)
        XCTAssertEqual(station.workoutOffer?.id, "c1", "the offer still waits")
    }

    /// The coach's plan: declined, the chosen plan stays; accepted, it is the next recording's;
    /// the fleet hears each answer; an offer not waiting (or answered already) is 404.
    func testTheCoachsOfferIsAnswered() async throws {
        let station = try idleStation()
        let answers = Mutex<[String]>([])
        station.workoutAnswers = { offer, accept in answers.withLock { $0.append("\(offer.id) \(accept)") } }
        try station.chooseWorkout(try WorkoutSpec.parse("20:00"))
        station.offerWorkout(WorkoutOffer(id: "coach-1", from: "Launch", plan: try WorkoutSpec.parse("4x1000m/3:00r")))
        try await withApp(station) { client in
            let read = try Self.object(try await client.execute(uri: "/api/live/workout", method: .get))
            let offer = try XCTUnwrap(read["offer"] as? [String: Any])
            XCTAssertEqual(offer["from"] as? String, "Launch")
            XCTAssertEqual(Self.steps(offer["plan"] as? [String: Any]).filter { $0.hasPrefix("work") }, Array(repeating: "work 1000 m", count: 4))

            let declined = try await client.execute(uri: "/api/live/workout/offer/coach-1", method: .post, headers: Self.authorized,
                                                    body: ByteBuffer(string: #"{"accept": false}"#))
            XCTAssertEqual(declined.status, .ok)
            XCTAssertTrue(try Self.object(declined)["offer"] is NSNull)
            XCTAssertEqual(station.workout?.name, "20:00", "declined: the cox's own plan stays")

            station.offerWorkout(WorkoutOffer(id: "coach-2", from: "Launch", plan: try WorkoutSpec.parse("4x1000m/3:00r")))
            let wrongBody = try await client.execute(uri: "/api/live/workout/offer/coach-2", method: .post, headers: Self.authorized,
                                                     body: ByteBuffer(string: #"{"accept": 1}"#))
            XCTAssertEqual(wrongBody.status, .badRequest)
            let accepted = try await client.execute(uri: "/api/live/workout/offer/coach-2", method: .post, headers: Self.authorized,
                                                    body: ByteBuffer(string: #"{"accept": true}"#))
            XCTAssertEqual(accepted.status, .ok)
            XCTAssertEqual((try Self.object(accepted)["plan"] as? [String: Any])?["name"] as? String, "4x1000m/3:00r")
            XCTAssertEqual(station.workout?.pieceCount, 4)

            for id in ["coach-2", "nobody"] {
                let gone = try await client.execute(uri: "/api/live/workout/offer/\(id)", method: .post, headers: Self.authorized,
                                                    body: ByteBuffer(string: #"{"accept": true}"#))
                XCTAssertEqual(gone.status, .notFound, id)
                XCTAssertEqual(try Self.error(gone)["message"] as? String, "no plan \(id) is waiting for an answer")
            }
        }
        XCTAssertEqual(answers.withLock { $0 }, ["coach-1 false", "coach-2 true"])
    }

    /// While a recording rows its plan the plan is not changed (409), nor an offer accepted;
    /// the answer of GET then carries where the crew is in the plan.
    func testNoChangeWhileRecording() async throws {
        let station = try LiveStation(source: .replay(path: try samplePath("sim-workout.csv"), speed: 50), sessions: sessions, log: { _ in })
        try station.chooseWorkout(try WorkoutSpec.parse("3x1:00/0:30r"))
        try station.start()
        defer { station.stop() }
        let recording = try station.startRecording(title: "Pieces")
        station.offerWorkout(WorkoutOffer(id: "late", from: "Launch", plan: try WorkoutSpec.parse("20:00")))
        try await withApp(station) { client in
            for body in [#"{"spec": "20:00"}"#, #"{"plan": null}"#] {
                let refused = try await Self.put(client, body)
                XCTAssertEqual(refused.status, .conflict, body)
                XCTAssertTrue((try Self.error(refused)["message"] as? String ?? "").contains("stop it before"), String(buffer: refused.body))
            }
            let accept = try await client.execute(uri: "/api/live/workout/offer/late", method: .post, headers: Self.authorized,
                                                  body: ByteBuffer(string: #"{"accept": true}"#))
            XCTAssertEqual(accept.status, .conflict)
            var status: [String: Any]?
            for _ in 0..<100 where status == nil {
                status = try Self.object(try await client.execute(uri: "/api/live/workout", method: .get))["status"] as? [String: Any]
                if status == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            let now = try XCTUnwrap(status, "a recording rowing a plan has a status within 10 s")
            XCTAssertEqual(now["pieces"] as? Int, 3)
            XCTAssertTrue(["waiting", "rowing", "finished"].contains(now["phase"] as? String ?? ""), "\(now)")
        }
        XCTAssertEqual(station.workout?.name, "3x1:00/0:30r")
        XCTAssertEqual(station.workoutOffer?.id, "late", "an offer refused while recording still waits")
        XCTAssertEqual(try station.stopRecording(), recording)
    }

    /// `oarlog serve --workout SPEC --workout-at-go` serves with the plan chosen; a plan that
    /// does not read ends the command before it serves, with a caret under the column.
    func testServeTakesAPlan() throws {
        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--workout", "2x0:20/0:15r", "--workout-at-go"])
        defer { server.stop() }
        let read = try server.request("GET", "/api/live/workout")
        XCTAssertEqual(read.status, 200)
        let answer = try XCTUnwrap(try jsonObject(read.body) as? [String: Any])
        XCTAssertEqual(Self.steps(answer["plan"] as? [String: Any]), ["work 20 s", "rest 15 s", "work 20 s"])
        XCTAssertEqual(answer["starts_at_go"] as? Bool, true)

        let bad = try oarlogCLI(["serve", "--listen", "127.0.0.1:0", "--replay", "samples/sim-workout.csv", "--workout", "3x4:00/2:00"],
                                dataDirectory: server.dataDirectory)
        XCTAssertNotEqual(bad.status, 0, bad.err)
        XCTAssertTrue(bad.err.contains("--workout") && bad.err.contains("rest needs a trailing r at column 11"), bad.err)
        XCTAssertTrue(bad.err.contains("  3x4:00/2:00\n  " + String(repeating: " ", count: 10) + "^"), bad.err)
        XCTAssertFalse(bad.err.contains("control token"), "nothing was served")
    }
}
