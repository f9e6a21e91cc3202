import Foundation
import Hummingbird
import HummingbirdTesting
import OarlogApp
import OarlogTestSupport
import XCTest
@testable import OarlogServer

/// A session that rowed a plan, through the routes in process (`app.test(.router)`): its pieces
/// are the plan's intervals as recorded (`oarlog show`'s), each with its target and its strokes
/// for the curve; compare sets interval K of one session beside interval K of another
/// (`interval=K`), a side's own `:K` still its own, a session that rowed no plan has no interval.
final class WorkoutRoutesTests: XCTestCase {
    private var dataDirectory: URL!
    private var sessions: SessionStore!
    private static let plan = "3x2:00@18-20spm/1:00r"

    override func setUpWithError() throws {
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-workout-routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        sessions = SessionStore(sessionsPath: dataDirectory.appendingPathComponent("sessions").path)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    /// The bundled workout kept as a session (`oarlog replay --save`), rowing `plan` (nil: no plan).
    private func keep(_ title: String, plan: String?) throws -> String {
        let saved = try oarlogCLI(["replay", "samples/sim-workout.csv", "--save", "--title", title] + (plan.map { ["--workout", $0] } ?? []),
                                  dataDirectory: dataDirectory)
        XCTAssertEqual(saved.status, 0, saved.err)
        let listed = try XCTUnwrap(try jsonObject(try oarlogCLI(["sessions", "--json"], dataDirectory: dataDirectory).out) as? [[String: Any]])
        return try XCTUnwrap(listed.first(where: { ($0["title"] as? String) == title })?["id"] as? String)
    }

    private func withApp(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let station = try LiveStation(source: .replay(path: "samples/none.csv", speed: 1), sessions: sessions, log: { _ in })
        let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, webRoot: ServerConfiguration.defaultWebRoot, sessions: sessions)
        let router = WebServer.makeRouter(configuration, station: station,
                                          access: ServerAccess(token: String(repeating: "cd", count: 16), pairingCode: "424242"))
        try await Application(router: router).test(.router, body)
    }

    private static func object(_ response: TestResponse) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any], String(buffer: response.body))
    }

    private static func message(_ response: TestResponse) throws -> String {
        try XCTUnwrap((try object(response)["error"] as? [String: Any])?["message"] as? String)
    }

    func testPiecesAreTheIntervalsAndCompareSetsIntervalKBesideIntervalK() async throws {
        let a = try keep("Plan A", plan: Self.plan), b = try keep("Plan B", plan: Self.plan), plain = try keep("No plan", plan: nil)
        // The truth: the intervals recorded in A's file and its catches, as `oarlog show` gives them.
        let shown = try XCTUnwrap(try jsonObject(try oarlogCLI(["show", a, "--json", "--strokes"], dataDirectory: dataDirectory).out)
            as? [String: Any])
        let intervals = try XCTUnwrap(shown["intervals"] as? [[String: Any]]).map(Interval.init)
        XCTAssertEqual(intervals.count, 5)
        let catches = try XCTUnwrap(shown["stroke_list"] as? [[String: Any]]).compactMap { $0["t_s"] as? Double }
        let sessions = self.sessions!
        try await withApp { client in
            let response = try await client.execute(uri: "/api/sessions/\(a)/pieces", method: .get)
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual(String(buffer: response.body), try sessions.piecesJSON(id: a))
            let answer = try Self.object(response)
            XCTAssertEqual(answer["kind"] as? String, "workout")
            XCTAssertEqual((answer["plan"] as? [String: Any])?["name"] as? String, Self.plan)
            let pieces = try XCTUnwrap(answer["pieces"] as? [[String: Any]])
            XCTAssertEqual(pieces.map { $0["label"] as? String }, ["Piece 1", "Rest", "Piece 2", "Rest", "Piece 3"])
            XCTAssertEqual(pieces.map { $0["kind"] as? String }, ["work", "rest", "work", "rest", "work"])
            for (p, interval) in zip(pieces, intervals) {
                XCTAssertEqual(p["index"] as? Int, interval.index)
                XCTAssertEqual(p["start_s"] as? Double ?? -1, interval.start, accuracy: 0.005)
                XCTAssertEqual(p["end_s"] as? Double ?? -1, interval.end, accuracy: 0.005)
                XCTAssertEqual(p["strokes"] as? Int, interval.strokes)
                // The curve's strokes are the catches in [start, end), as the tracker counted them.
                let inside = catches.indices.filter { catches[$0] >= interval.start && catches[$0] < interval.end }
                XCTAssertEqual(p["first_stroke"] as? Int, inside.first, "interval \(interval.index)")
                XCTAssertEqual(p["last_stroke"] as? Int, inside.last, "interval \(interval.index)")
                XCTAssertEqual(inside.count, interval.strokes, "interval \(interval.index)")
            }
            XCTAssertEqual((pieces[0]["target"] as? [String: Any])?["stroke_rate_spm"] as? [Double], [18, 20])
            XCTAssertTrue(pieces[1]["target"] is NSNull, "a rest has no target")
            XCTAssertEqual(pieces[2]["stroke_rate_in_band"] as? Double ?? -1, try XCTUnwrap(intervals[2].strokeRateInBand), accuracy: 0.0005)
            XCTAssertEqual(pieces[2]["rate_spm"] as? Double ?? -1, try XCTUnwrap(intervals[2].rate), accuracy: 0.005)
            // The third interval's curve: its strokes averaged.
            let curve = try Self.object(try await client.execute(uri: "/api/sessions/\(a)/curve?piece=2", method: .get))
            XCTAssertEqual(curve["label"] as? String, "Piece 2")
            XCTAssertEqual(curve["piece_strokes"] as? Int, intervals[2].strokes)

            // Interval 3 of A beside interval 3 of B: the same trace rowed to the same plan, so
            // each side is interval 3's stretch and the gap is nil everywhere.
            let compared = try await client.execute(uri: "/api/compare?a=\(a)&b=\(b)&interval=3&points=50", method: .get)
            XCTAssertEqual(compared.status, .ok, String(buffer: compared.body))
            let both = try Self.object(compared)
            for key in ["a", "b"] {
                let side = try XCTUnwrap(both[key] as? [String: Any])
                XCTAssertEqual(side["piece"] as? Int, 3, key)
                XCTAssertEqual(side["interval"] as? Int, 3, key)
                XCTAssertEqual(side["piece_label"] as? String, "Piece 2", key)
                XCTAssertEqual(side["from_s"] as? Double ?? -1, intervals[2].start, accuracy: 0.005, key)
                XCTAssertEqual(side["to_s"] as? Double ?? -1, intervals[2].end, accuracy: 0.005, key)
                XCTAssertEqual(side["strokes"] as? Int, intervals[2].strokes, key)
                XCTAssertEqual(side["time_s"] as? Double ?? -1, intervals[2].end - intervals[2].start, accuracy: 0.01, key)
                // The tracker's distance and the trail's over the same stretch: both the GPS
                // distance accumulator's, so the same within a metre.
                XCTAssertEqual(side["distance_m"] as? Double ?? -1, try XCTUnwrap(intervals[2].distance), accuracy: 1, key)
            }
            let segments = try XCTUnwrap(both["segments"] as? [[String: Any]])
            XCTAssertFalse(segments.isEmpty)
            for s in segments { XCTAssertEqual(s["gap_s"] as? Double ?? -1, 0, accuracy: 0.005) }
            // A side's own piece is its own: A's first interval beside B's third.
            let mixed = try Self.object(try await client.execute(uri: "/api/compare?a=\(a):1&b=\(b)&interval=3&points=50", method: .get))
            XCTAssertEqual((mixed["a"] as? [String: Any])?["piece_label"] as? String, "Piece 1")
            XCTAssertEqual((mixed["b"] as? [String: Any])?["interval"] as? Int, 3)
            // A session that rowed no plan has no interval 3 (not its third run between rests);
            // an interval past the plan's end is not there either; interval=0 is malformed.
            let noPlan = try await client.execute(uri: "/api/compare?a=\(a)&b=\(plain)&interval=3", method: .get)
            XCTAssertEqual(noPlan.status, .notFound)
            let why = try Self.message(noPlan)
            XCTAssertTrue(why.contains("rowed no plan"), why)
            let plainPiece = try await client.execute(uri: "/api/compare?a=\(a):3&b=\(plain):3", method: .get)
            XCTAssertEqual(plainPiece.status, .ok, "ID:K is still the K-th piece of a session without a plan")
            let past = try await client.execute(uri: "/api/compare?a=\(a)&b=\(b)&interval=6", method: .get)
            XCTAssertEqual(past.status, .notFound)
            let pastWhy = try Self.message(past)
            XCTAssertTrue(pastWhy.contains("5 intervals"), pastWhy)
            let zero = try await client.execute(uri: "/api/compare?a=\(a)&b=\(b)&interval=0", method: .get)
            XCTAssertEqual(zero.status, .badRequest)
        }
    }

    /// An `intervals` entry of `oarlog show --json`.
    private struct Interval {
        var index: Int, start: Double, end: Double, strokes: Int, distance: Double?, rate: Double?, strokeRateInBand: Double?
        init(_ json: [String: Any]) {
            index = json["index"] as? Int ?? -1
            start = json["start_s"] as? Double ?? .nan
            end = start + (json["elapsed_s"] as? Double ?? .nan)
            strokes = json["strokes"] as? Int ?? -1
            distance = json["distance_m"] as? Double
            rate = json["avg_stroke_rate_spm"] as? Double
            strokeRateInBand = json["stroke_rate_in_band"] as? Double
        }
    }
}
