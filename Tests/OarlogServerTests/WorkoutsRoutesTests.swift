import Foundation
import Hummingbird
import HummingbirdTesting
import OarlogApp
import OarlogTestSupport
import XCTest
@testable import OarlogServer

/// `/api/workouts` in process (`app.test(.router)`): the phone lists the saved plans (open, as
/// every read), saves one in either form with the token (201, 200 when replacing), is told why a
/// plan is refused (400 with the message and column), a name taken (409), a body too large (413),
/// no token (401); removes one by name, a name with a slash in it too. The plans are the same
/// `WorkoutLibrary` the command line keeps.
final class WorkoutsRoutesTests: XCTestCase {
    private var dataDirectory: URL!
    private var sessions: SessionStore!
    private static let token = String(repeating: "ef", count: 16)

    override func setUpWithError() throws {
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-workouts-routes-\(UUID().uuidString)")
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

    private static var authorized: HTTPFields { [.authorization: "Bearer \(token)", .contentType: "application/json"] }

    private static func json(_ response: TestResponse) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(buffer: response.body))
    }

    private static func message(_ response: TestResponse) throws -> String {
        let object = try XCTUnwrap(try json(response) as? [String: Any], String(buffer: response.body))
        return try XCTUnwrap((object["error"] as? [String: Any])?["message"] as? String, String(buffer: response.body))
    }

    private static func post(_ client: any TestClientProtocol, _ body: String, headers: HTTPFields = authorized) async throws -> TestResponse {
        try await client.execute(uri: "/api/workouts", method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    func testThePhoneSavesListsAndRemovesPlans() async throws {
        let library = WorkoutLibrary(sessions: sessions)
        try await withApp { client in
            let empty = try await client.execute(uri: "/api/workouts", method: .get)
            XCTAssertEqual(empty.status, .ok)
            XCTAssertEqual((try Self.json(empty) as? [Any])?.count, 0)

            let text = try await Self.post(client, #"{"name":"Tuesday 8s","spec":"8x500m@1:48-1:52/1:30r"}"#)
            XCTAssertEqual(text.status, .created, String(buffer: text.body))
            let saved = try XCTUnwrap(try Self.json(text) as? [String: Any])
            XCTAssertEqual(saved["name"] as? String, "Tuesday 8s")
            XCTAssertEqual(saved["summary"] as? String, "8 × 500 m at 1:48–1:52 split / 1:30 rest")
            XCTAssertEqual(saved["pieces"] as? Int, 8)

            let pyramid = #"{"name":"Saturday pyramid","plan":{"steps":[{"kind":"warmup","time_s":600},{"repeat":3,"steps":[{"kind":"work","distance_m":500,"rate_spm":[22,24],"split_s_per_500m":[108,112],"label":"race pace"},{"kind":"rest","time_s":90}]},{"kind":"cooldown","time_s":600}]}}"#
            let json = try await Self.post(client, pyramid)
            XCTAssertEqual(json.status, .created, String(buffer: json.body))

            let list = try await client.execute(uri: "/api/workouts", method: .get)
            XCTAssertEqual(list.status, .ok)
            let plans = try XCTUnwrap(try Self.json(list) as? [[String: Any]])
            XCTAssertEqual(plans.map { $0["name"] as? String }, ["Saturday pyramid", "Tuesday 8s"])
            let first = plans[0]
            XCTAssertTrue(first["spec"] is NSNull, "a warm-up has no whiteboard form")
            XCTAssertEqual(first["pieces"] as? Int, 3)
            XCTAssertEqual(first["summary"] as? String, "10:00 warm-up + 3 × 500 m at 1:48–1:52 split, 22–24 spm / 1:30 rest + 10:00 cool-down")
            let steps = try XCTUnwrap(first["steps"] as? [[String: Any]])
            XCTAssertEqual(steps.count, 8, "warm-up, three pieces and three rests, cool-down")
            XCTAssertEqual(steps.map { $0["kind"] as? String }, ["warmup", "work", "rest", "work", "rest", "work", "rest", "cooldown"])
            XCTAssertEqual(steps[1]["distance_m"] as? Int, 500)
            XCTAssertEqual(steps[1]["rate_spm"] as? [Int], [22, 24])
            XCTAssertEqual(steps[1]["split_s_per_500m"] as? [Int], [108, 112])
            XCTAssertEqual(steps[1]["label"] as? String, "race pace")
            XCTAssertEqual(((first["plan"] as? [String: Any])?["steps"] as? [Any])?.count, 3, "the JSON form as given, its repeat kept")
            XCTAssertEqual(plans[1]["spec"] as? String, "8x500m@1:48-1:52/1:30r")
            XCTAssertTrue(plans[1]["plan"] is NSNull)
            XCTAssertEqual(try library.list().map(\.name), ["Saturday pyramid", "Tuesday 8s"], "the library the command line reads")

            // A name taken: 409, unless replacing is asked for.
            let taken = try await Self.post(client, #"{"name":"Tuesday 8s","spec":"6x500m/1:30r"}"#)
            XCTAssertEqual(taken.status, .conflict)
            XCTAssertEqual(try Self.message(taken), "a workout named ‘Tuesday 8s’ is saved already: remove it first, or replace it")
            let replaced = try await Self.post(client, #"{"name":"Tuesday 8s","spec":"6x500m/1:30r","replace":true}"#)
            XCTAssertEqual(replaced.status, .ok)
            XCTAssertEqual(try library.workout(named: "Tuesday 8s").plan.pieceCount, 6)

            let removed = try await client.execute(uri: "/api/workouts/Tuesday%208s", method: .delete, headers: Self.authorized)
            XCTAssertEqual(removed.status, .ok, String(buffer: removed.body))
            XCTAssertEqual((try Self.json(removed) as? [String: Any])?["removed"] as? String, "Tuesday 8s")
            let again = try await client.execute(uri: "/api/workouts/Tuesday%208s", method: .delete, headers: Self.authorized)
            XCTAssertEqual(again.status, .notFound)
            XCTAssertEqual(try Self.message(again), "no saved workout named ‘Tuesday 8s’")
            XCTAssertEqual(try library.list().map(\.name), ["Saturday pyramid"])

            // A name with a slash (a plan named as it is written) is removed by its encoded name.
            _ = try await Self.post(client, #"{"name":"8x500m/1:30r","spec":"8x500m/1:30r"}"#)
            let slashed = try await client.execute(uri: "/api/workouts/8x500m%2F1%3A30r", method: .delete, headers: Self.authorized)
            XCTAssertEqual(slashed.status, .ok, String(buffer: slashed.body))
            XCTAssertEqual(try library.list().map(\.name), ["Saturday pyramid"])
        }
    }

    func testBadPlansAreRefusedWithWhyAndWhere() async throws {
        let library = WorkoutLibrary(sessions: sessions)
        try await withApp { client in
            let cases: [(String, HTTPResponse.Status, String)] = [
                (#"{"name":"a","spec":"3x4:00/2:00"}"#, .badRequest, "spec: rest needs a trailing r at column 11"),
                (#"{"name":"a","spec":"10000x500m/1:30r"}"#, .badRequest, "spec: 10000 pieces: a workout has at most 100 at column 1"),
                (#"{"name":"a","plan":{"steps":[{"kind":"work","time_s":60},{"kind":"rest","time_s":60},{"kind":"work","time_s":172800}]}}"#,
                 .badRequest, "plan.steps[2].time_s: 172800 s is outside 1–14400 s (0:01–4:00:00)"),
                (#"{"name":"","spec":"20:00"}"#, .badRequest, "name: a name needs at least one character"),
                (#"{"name":"a"}"#, .badRequest, "the plan is needed: spec (3x4:00/2:00r) or plan (the JSON form)"),
                ("not json", .badRequest, ""),
            ]
            for (body, status, message) in cases {
                let response = try await Self.post(client, body)
                XCTAssertEqual(response.status, status, body)
                if message.isEmpty {
                    XCTAssertTrue(try Self.message(response).hasPrefix("not valid JSON ("), String(buffer: response.body))
                } else {
                    XCTAssertEqual(try Self.message(response), message, body)
                }
            }
            // Over 32 KiB: 413 before anything is read.
            let big = #"{"name":"big","spec":""# + String(repeating: "1", count: WorkoutLibrary.maximumRequestBytes) + #""}"#
            let tooLarge = try await Self.post(client, big)
            XCTAssertEqual(tooLarge.status, .contentTooLarge)
            XCTAssertEqual(try Self.message(tooLarge), "a plan of over 32 KiB: keep it shorter")
            XCTAssertEqual(try library.list(), [], "nothing refused was kept")
        }
    }

    func testChangesNeedTheTokenAndListsDoNot() async throws {
        let library = WorkoutLibrary(sessions: sessions)
        try library.add(name: "Kept", .spec("20:00"))
        try await withApp { client in
            let anonymous = try await Self.post(client, #"{"name":"x","spec":"20:00"}"#, headers: [.contentType: "application/json"])
            XCTAssertEqual(anonymous.status, .unauthorized)
            let wrong = try await Self.post(client, #"{"name":"x","spec":"20:00"}"#, headers: [.authorization: "Bearer " + String(repeating: "00", count: 16)])
            XCTAssertEqual(wrong.status, .unauthorized)
            let remove = try await client.execute(uri: "/api/workouts/Kept", method: .delete)
            XCTAssertEqual(remove.status, .unauthorized)
            let list = try await client.execute(uri: "/api/workouts", method: .get)
            XCTAssertEqual(list.status, .ok)
            XCTAssertEqual((try Self.json(list) as? [[String: Any]])?.first?["name"] as? String, "Kept")
        }
        XCTAssertEqual(try library.list().map(\.name), ["Kept"])
    }
}
