import Foundation
import Hummingbird
import HummingbirdTesting
import OarlogApp
import OarlogTestSupport
import XCTest
@testable import OarlogServer

/// `/api/courses` and `/api/attempts` in process (`app.test(.router)`) over the real NK LiNK
/// Logbook outing kept twice (once for boat Eight): the course added from its GeoJSON finds both
/// attempts at `oarlog course`'s time; the list, the course with its leaderboard (and a boat's),
/// the leaderboard as `oarlog attempts --json` prints it, two attempts compared gate by gate with
/// their tracks cut at the start and finish; a course made from a session's taps; and every
/// refusal with its one status — 401 without the token, 404 for a course or attempt not kept,
/// 409 for a name or gates taken, 400 for a course that is not one (bad GeoJSON, gates crossing,
/// too short, a tap far from the track), 413 for a body over the limit.
final class CoursesRoutesTests: XCTestCase {
    private var dataDirectory: URL!
    private var sessions: SessionStore!
    private var first = "", second = ""
    private static let token = String(repeating: "c0", count: 16)
    private static var nkCourse: String { TestPaths.packageRoot.appendingPathComponent("samples/nk-course.geojson").path }

    override func setUpWithError() throws {
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-courses-routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        sessions = SessionStore(sessionsPath: dataDirectory.appendingPathComponent("sessions").path)
        for boat in [nil, "Eight"] {
            var replay = try TraceReplay(path: try samplePath("rowingdata/nk_logbook.csv"))
            let kept = try sessions.keeping(replay, title: boat.map { "NK \($0)" } ?? "NK", boat: boat)
            _ = try replay.run(sinks: [], keeping: kept)
            if boat == nil { first = kept.id } else { second = kept.id }
        }
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

    private static func object(_ response: TestResponse) throws -> [String: Any] {
        try XCTUnwrap(try json(response) as? [String: Any], String(buffer: response.body))
    }

    private static func message(_ response: TestResponse) throws -> String {
        try XCTUnwrap((try object(response)["error"] as? [String: Any])?["message"] as? String, String(buffer: response.body))
    }

    private static func post(_ client: any TestClientProtocol, _ body: [String: Any], headers: HTTPFields = authorized) async throws -> TestResponse {
        try await client.execute(uri: "/api/courses", method: .post, headers: headers, body: ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
    }

    /// What `oarlog course TRACE --fences F` prints for the NK outing: its one passage's time and
    /// each leg's, to the tenth of a second it prints (the `time` column of each leg row and of
    /// `total`).
    static func courseCommandTruth() throws -> (time: Double, legs: [Double]) {
        let run = try runOarlog(["course", try samplePath("rowingdata/nk_logbook.csv"), "--fences", nkCourse],
                                dataDirectory: FileManager.default.temporaryDirectory.path)
        XCTAssertEqual(run.status, 0, run.err)
        func seconds(_ text: Substring) -> Double? {
            let parts = text.split(separator: ":")
            guard parts.count == 2, let m = Double(parts[0]), let s = Double(parts[1]) else { return nil }
            return m * 60 + s
        }
        var legs: [Double] = [], total: Double?
        for line in run.out.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.count >= 7, let time = seconds(words[words.count - 4]) else { continue }
            if words[0] == "total" { total = time } else if Int(words[0]) != nil { legs.append(time) }
        }
        XCTAssertEqual(run.out.components(separatedBy: "Piece ").count - 1, 1, run.out)
        return (try XCTUnwrap(total, run.out), legs)
    }

    func testTheCoursesPagesReadWhatTheLibraryKeeps() async throws {
        let (first, second, sessions) = (self.first, self.second, self.sessions!)
        let truth = try Self.courseCommandTruth()
        XCTAssertEqual(truth.time, 608.3, accuracy: 0.05, "oarlog course's 10:08.3")
        let geoJSON = try String(contentsOfFile: Self.nkCourse, encoding: .utf8)
        try await withApp { client in
            let empty = try await client.execute(uri: "/api/courses", method: .get)
            XCTAssertEqual(empty.status, .ok)
            XCTAssertEqual(String(buffer: empty.body), "[]")

            let refused = try await Self.post(client, ["name": "NK 2k", "geojson": geoJSON], headers: [.contentType: "application/json"])
            XCTAssertEqual(refused.status, .unauthorized)
            XCTAssertEqual(try sessions.courses.list().count, 0, "nothing kept without the token")

            let added = try await Self.post(client, ["name": "NK 2k", "geojson": geoJSON])
            XCTAssertEqual(added.status, .created, String(buffer: added.body))
            let answer = try Self.object(added)
            let course = try XCTUnwrap(answer["course"] as? [String: Any])
            XCTAssertEqual(course["name"] as? String, "NK 2k")
            XCTAssertEqual((course["gates"] as? [[String: Any]])?.compactMap { $0["name"] as? String }, ["Start", "500 m", "1000 m", "1500 m", "Finish"])
            XCTAssertEqual(answer["sessions_searched"] as? Int, 2)
            let found = try XCTUnwrap(answer["attempts"] as? [[String: Any]])
            XCTAssertEqual(Set(found.compactMap { $0["session"] as? String }), [first, second])
            for a in found {
                XCTAssertEqual(a["time_s"] as? Double ?? 0, truth.time, accuracy: 0.05, "oarlog course's time, as it prints it")
                let legs = try XCTUnwrap(a["legs"] as? [[String: Any]])
                XCTAssertEqual(legs.count, truth.legs.count)
                for (leg, t) in zip(legs, truth.legs) { XCTAssertEqual(leg["time_s"] as? Double ?? 0, t, accuracy: 0.05) }
            }

            // The list: the course with its two attempts and the best time.
            let listed = try await client.execute(uri: "/api/courses", method: .get)
            let list = try XCTUnwrap(try Self.json(listed) as? [[String: Any]])
            XCTAssertEqual(list.count, 1)
            XCTAssertEqual(list.first?["attempts"] as? Int, 2)
            XCTAssertEqual(list.first?["best_time_s"] as? Double ?? 0, truth.time, accuracy: 0.05)
            XCTAssertNil(list.first?["fences"], "the list leaves the GeoJSON out")

            // One course: its GeoJSON and the leaderboard, `oarlog attempts --course --json`'s array.
            let one = try await client.execute(uri: "/api/courses/nk%202K", method: .get)
            XCTAssertEqual(one.status, .ok, String(buffer: one.body))
            let shown = try Self.object(one)
            XCTAssertEqual(shown["name"] as? String, "NK 2k", "found ignoring case")
            XCTAssertEqual(((shown["fences"] as? [String: Any])?["features"] as? [Any])?.count, 6, "the file's five gates and its area")
            let board = try XCTUnwrap(shown["leaderboard"] as? [[String: Any]])
            XCTAssertEqual(board.compactMap { $0["rank"] as? Int }, [1, 2])
            let cli = try JSONSerialization.jsonObject(with: Data(CourseAttempt.json(try sessions.attempts(course: "NK 2k")).utf8))
            XCTAssertEqual(board as NSArray, cli as? NSArray)
            let eight = try Self.object(try await client.execute(uri: "/api/courses/NK%202k?boat=eight", method: .get))
            XCTAssertEqual((eight["leaderboard"] as? [[String: Any]])?.compactMap { $0["session"] as? String }, [second])
            XCTAssertEqual(eight["attempts"] as? Int, 1)

            // /api/attempts: what `oarlog attempts --json` prints.
            let attempts = try await client.execute(uri: "/api/attempts?course=NK%202k", method: .get)
            XCTAssertEqual(String(buffer: attempts.body), CourseAttempt.json(try sessions.attempts(course: "NK 2k")))
            let byPath = try await client.execute(uri: "/api/courses/NK%202k/attempts?boat=EIGHT", method: .get)
            XCTAssertEqual(String(buffer: byPath.body), CourseAttempt.json(try sessions.attempts(course: "NK 2k", boat: "Eight")))
            let eights = try await client.execute(uri: "/api/attempts?boat=Eight", method: .get)
            let boat = try XCTUnwrap(try Self.json(eights) as? [[String: Any]])
            XCTAssertEqual(boat.compactMap { $0["session"] as? String }, [second])
            let fours = try await client.execute(uri: "/api/attempts?boat=Four", method: .get)
            XCTAssertEqual(String(buffer: fours.body), "[]")
            let unknown = try await client.execute(uri: "/api/attempts?course=Henley", method: .get)
            XCTAssertEqual(unknown.status, .notFound)
            XCTAssertEqual(try Self.message(unknown), "no course named \"Henley\"")
        }
    }

    func testTwoAttemptsComparedGateByGate() async throws {
        let (first, second, sessions) = (self.first, self.second, self.sessions!)
        _ = try sessions.addCourse(name: "NK 2k", file: Self.nkCourse)
        let truth = try Self.courseCommandTruth()
        let board = try sessions.attempts(course: "NK 2k")
        try await withApp { client in
            for (a, b, wantA, wantB) in [("1", "2", board[0].session, board[1].session), ("\(first):1", second, first, second), (second, first, second, first)] {
                let r = try await client.execute(uri: "/api/courses/NK%202k/compare?a=\(a)&b=\(b)", method: .get)
                XCTAssertEqual(r.status, .ok, String(buffer: r.body))
                let answer = try Self.object(r)
                let sideA = try XCTUnwrap(answer["a"] as? [String: Any]), sideB = try XCTUnwrap(answer["b"] as? [String: Any])
                XCTAssertEqual(sideA["session"] as? String, wantA, "\(a)")
                XCTAssertEqual(sideB["session"] as? String, wantB, "\(b)")
                XCTAssertEqual(sideA["rank"] as? Int, board.firstIndex { $0.session == wantA }.map { $0 + 1 })
                let gates = try XCTUnwrap(answer["gates"] as? [[String: Any]])
                XCTAssertEqual(gates.compactMap { $0["gate"] as? String }, ["Start", "500 m", "1000 m", "1500 m", "Finish"])
                // Each side's time at a gate is the sum of oarlog course's legs to it; the same outing twice: level everywhere.
                var sum = 0.0
                for (k, gate) in gates.enumerated() {
                    if k > 0 { sum += truth.legs[k - 1] }
                    XCTAssertEqual(gate["a_s"] as? Double ?? -1, sum, accuracy: 0.05 * Double(k) + 0.005, "gate \(k): the printed legs to it")
                    XCTAssertEqual(gate["b_s"] as? Double ?? -1, gate["a_s"] as? Double ?? -2, accuracy: 1e-9, "gate \(k)")
                    XCTAssertEqual(gate["gap_s"] as? Double ?? -1, 0, accuracy: 1e-9)
                    XCTAssertEqual(gate["distance_m"] as? Double ?? -1, Double(k) * 500, accuracy: 0.05)
                    if k == 0 { XCTAssertTrue(gate["leg_gap_s"] is NSNull) } else { XCTAssertEqual(gate["a_leg_s"] as? Double ?? -1, truth.legs[k - 1], accuracy: 0.05) }
                }
                XCTAssertEqual(answer["gap_s"] as? Double ?? -1, 0, accuracy: 1e-9)
                // Both tracks from the start crossing (0 s, 0 m) to the finish (the attempt's time, about the course's 2,000 m).
                let trails = try XCTUnwrap(answer["trails"] as? [String: [String: Any]])
                for key in ["a", "b"] {
                    let t = try XCTUnwrap(trails[key]), times = try XCTUnwrap(t["t_s"] as? [Double]), metres = try XCTUnwrap(t["distance_m"] as? [Double])
                    XCTAssertEqual(times.count, t["points"] as? Int)
                    XCTAssertGreaterThan(times.count, 100, "a 10-minute piece at 1 Hz")
                    XCTAssertEqual(times.first, 0)
                    XCTAssertEqual(times.last ?? 0, truth.time, accuracy: 0.05)
                    XCTAssertEqual(metres.first, 0)
                    XCTAssertEqual(metres.last ?? 0, 2000, accuracy: 40, "the boat's own path between the start and finish lines")
                    XCTAssertEqual(times, times.sorted())
                    // The first point is on the start line: within half the line's length of its middle.
                    let lat = try XCTUnwrap((t["lat_deg"] as? [Double])?.first), lon = try XCTUnwrap((t["lon_deg"] as? [Double])?.first)
                    let (midLat, midLon) = ((52.224591 + 52.2251033) / 2, (6.8522063 + 6.853031) / 2)
                    let north = (lat - midLat) * 111_200, east = (lon - midLon) * 111_200 * cos(midLat * .pi / 180)
                    XCTAssertLessThan((north * north + east * east).squareRoot(), 40, "the start crossing, on the 80 m start line")
                }
            }
            let thinned = try Self.object(try await client.execute(uri: "/api/courses/NK%202k/compare?a=1&b=2&points=20", method: .get))
            XCTAssertEqual((thinned["trails"] as? [String: [String: Any]])?["a"]?["points"] as? Int, 20)

            for (query, status, words) in [("a=1", HTTPResponse.Status.badRequest, "give a= and b="), ("a=0&b=1", .badRequest, "a whole number from 1"),
                                           ("a=\(first):x&b=1", .badRequest, "SESSION:K"), ("a=1&b=2&points=1", .badRequest, "points"),
                                           ("a=3&b=1", .notFound, "no attempt ranked 3"), ("a=\(first):2&b=1", .notFound, "has 1 attempt"),
                                           ("a=2020-01-01T00-00-00Z_none&b=1", .notFound, "has no attempt")] {
                let r = try await client.execute(uri: "/api/courses/NK%202k/compare?" + query, method: .get)
                XCTAssertEqual(r.status, status, "\(query): \(String(buffer: r.body))")
                XCTAssertTrue(try Self.message(r).contains(words), "\(query): \(String(buffer: r.body))")
            }
            let none = try await client.execute(uri: "/api/courses/Henley/compare?a=1&b=2", method: .get)
            XCTAssertEqual(none.status, .notFound)
        }
    }

    /// A course whose finish line crosses its start line, and one 50 m long: refused with why.
    static let crossing = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"name": "Start", "role": "start"}, "geometry": {"type": "LineString", "coordinates": [[6.85, 52.224], [6.85, 52.236]]}},
          {"type": "Feature", "properties": {"name": "Finish", "role": "finish"}, "geometry": {"type": "LineString", "coordinates": [[6.849, 52.2355], [6.851, 52.2355]]}}]}
        """
    static let short = """
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {"name": "Start", "role": "start"}, "geometry": {"type": "LineString", "coordinates": [[6.8500, 52.2250], [6.8500, 52.2252]]}},
          {"type": "Feature", "properties": {"name": "Finish", "role": "finish"}, "geometry": {"type": "LineString", "coordinates": [[6.8507, 52.2250], [6.8507, 52.2252]]}}]}
        """

    func testCoursesAreMadeRefusedAndDeleted() async throws {
        let (first, second, sessions) = (self.first, self.second, self.sessions!)
        let geoJSON = try String(contentsOfFile: Self.nkCourse, encoding: .utf8)
        // The NK course's start and finish lines' middles: where a person taps on the session's map.
        let start = ["lat_deg": (52.224591 + 52.2251033) / 2, "lon_deg": (6.8522063 + 6.853031) / 2]
        let finish = ["lat_deg": (52.2373868 + 52.237885) / 2, "lon_deg": (6.8316194 + 6.832467) / 2]
        try await withApp { client in
            // Made on the first session's map: both outings row it, at about the NK course's time.
            let made = try await Self.post(client, ["name": "Bridge/Boathouse", "session": first, "start": start, "finish": finish])
            XCTAssertEqual(made.status, .created, String(buffer: made.body))
            let answer = try Self.object(made)
            let course = try XCTUnwrap(answer["course"] as? [String: Any])
            XCTAssertEqual(course["length_m"] as? Double ?? 0, 2000, accuracy: 60, "the track's distance between the taps")
            XCTAssertEqual((course["gates"] as? [Any])?.count, 5, "start, three markers every 500 m, finish")
            let found = try XCTUnwrap(answer["attempts"] as? [[String: Any]])
            XCTAssertEqual(Set(found.compactMap { $0["session"] as? String }), [first, second])
            for a in found { XCTAssertEqual(a["time_s"] as? Double ?? 0, 608.3, accuracy: 15, "about the NK course's time") }
            XCTAssertEqual(try sessions.courses.list().map(\.name), ["Bridge/Boathouse"], "kept in the library the command line reads")
            let slashed = try await client.execute(uri: "/api/courses/Bridge%2FBoathouse", method: .get)
            XCTAssertEqual(slashed.status, .ok, "a name with a slash, percent-encoded: \(String(buffer: slashed.body))")
            XCTAssertEqual((try Self.object(slashed)["leaderboard"] as? [Any])?.count, 2)

            // Refusals, each with its status and its reason in words.
            let added = try await Self.post(client, ["name": "NK 2k", "geojson": geoJSON])
            XCTAssertEqual(added.status, .created)
            let refusals: [([String: Any], HTTPResponse.Status, String)] = [
                (["name": "nk 2K", "geojson": geoJSON], .conflict, "a course named \"NK 2k\" is kept already"),
                (["name": "Same water", "geojson": geoJSON], .conflict, "the course \"NK 2k\" has the same gates"),
                (["name": "Crossing", "geojson": Self.crossing], .badRequest, "the gates Start and Finish cross each other"),
                (["name": "Short", "geojson": Self.short], .badRequest, "a course is at least 100 m"),
                (["name": "Broken", "geojson": "{\"type\": \"FeatureCollection\", \"features\": [}"], .badRequest, "Broken"),
                (["name": "", "geojson": geoJSON], .badRequest, "name: a course needs a name"),
                (["geojson": geoJSON], .badRequest, "name: the course's name is needed"),
                (["name": "Both", "geojson": geoJSON, "session": first], .badRequest, "not both"),
                (["name": "Extra", "geojson": geoJSON, "colour": "red"], .badRequest, "colour: not a key"),
                (["name": "Far", "session": first, "start": ["lat_deg": 52.0, "lon_deg": 6.0], "finish": finish], .badRequest, "from the session's track"),
                (["name": "No finish", "session": first, "start": start], .badRequest, "finish: where the finish is"),
                (["name": "Bad lat", "session": first, "start": ["lat_deg": 95, "lon_deg": 6.85], "finish": finish], .badRequest, "start.lat_deg"),
                (["name": "Nowhere", "session": "2020-01-01T00-00-00Z_none", "start": start, "finish": finish], .notFound, "no such session"),
            ]
            for (body, status, words) in refusals {
                let r = try await Self.post(client, body)
                XCTAssertEqual(r.status, status, "\(body["name"] ?? "-"): \(String(buffer: r.body))")
                XCTAssertTrue(try Self.message(r).contains(words), "\(body["name"] ?? "-"): \(String(buffer: r.body))")
            }
            let notJSON = try await client.execute(uri: "/api/courses", method: .post, headers: Self.authorized, body: ByteBuffer(string: "name=NK"))
            XCTAssertEqual(notJSON.status, .badRequest)
            XCTAssertTrue(try Self.message(notJSON).contains("not valid JSON"), String(buffer: notJSON.body))
            let huge = #"{"name": "Huge", "geojson": ""# + String(repeating: " ", count: CourseRequest.maximumBytes) + #""}"#
            let tooLarge = try await client.execute(uri: "/api/courses", method: .post, headers: Self.authorized, body: ByteBuffer(string: huge))
            XCTAssertEqual(tooLarge.status, .contentTooLarge)
            XCTAssertEqual(try sessions.courses.list().map(\.name), ["Bridge/Boathouse", "NK 2k"], "nothing refused was kept")

            // Deleted with the token only; then it is not there.
            let unauthorised = try await client.execute(uri: "/api/courses/NK%202k", method: .delete)
            XCTAssertEqual(unauthorised.status, .unauthorized)
            let deleted = try await client.execute(uri: "/api/courses/NK%202k", method: .delete, headers: Self.authorized)
            XCTAssertEqual(deleted.status, .ok, String(buffer: deleted.body))
            XCTAssertEqual(try Self.object(deleted)["removed"] as? String, "NK 2k")
            let again = try await client.execute(uri: "/api/courses/NK%202k", method: .delete, headers: Self.authorized)
            XCTAssertEqual(again.status, .notFound)
            let gone = try await client.execute(uri: "/api/courses/NK%202k", method: .get)
            XCTAssertEqual(gone.status, .notFound)
            XCTAssertEqual(try Self.message(gone), "no course named \"NK 2k\"")
            XCTAssertEqual(try sessions.courses.list().map(\.name), ["Bridge/Boathouse"])
        }
    }
}
