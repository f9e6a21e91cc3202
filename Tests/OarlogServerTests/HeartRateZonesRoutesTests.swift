import Foundation
import Hummingbird
import HummingbirdTesting
import OarlogApp
import OarlogCore
import OarlogTestSupport
import XCTest
@testable import OarlogServer

/// `/api/heart-rate/zones` in process (`app.test(.router)`): the phone sets a rower's zones with
/// the token (201, then 200 when it replaces them), lists them (open), is told why a maximum
/// outside 100–230 bpm or a resting rate not below it is refused (400), removes them (404 when
/// there are none); no token is 401. The file is `hr-zones.json` beside the sessions, and the
/// live station's status message colours the seats by the zones at once.
final class HeartRateZonesRoutesTests: XCTestCase {
    private var dataDirectory: URL!
    private var sessions: SessionStore!
    private static let token = String(repeating: "cd", count: 16)

    override func setUpWithError() throws {
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-hr-zones-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        sessions = SessionStore(sessionsPath: dataDirectory.appendingPathComponent("sessions").path)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    private func withApp(_ body: @Sendable (any TestClientProtocol, LiveStation) async throws -> Void) async throws {
        let station = try LiveStation(source: .replay(path: "samples/none.csv", speed: 1), sessions: sessions, log: { _ in })
        let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, webRoot: ServerConfiguration.defaultWebRoot, sessions: sessions)
        let router = WebServer.makeRouter(configuration, station: station, access: ServerAccess(token: Self.token, pairingCode: "424242"))
        try await Application(router: router).test(.router) { client in try await body(client, station) }
    }

    private static var authorized: HTTPFields { [.authorization: "Bearer \(token)", .contentType: "application/json"] }

    private static func object(_ response: TestResponse) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any], String(buffer: response.body))
    }

    private static func message(_ response: TestResponse) throws -> String {
        try XCTUnwrap((try object(response)["error"] as? [String: Any])?["message"] as? String, String(buffer: response.body))
    }

    private static func put(_ client: any TestClientProtocol, _ sensor: String, _ body: String,
                            headers: HTTPFields = authorized) async throws -> TestResponse {
        try await client.execute(uri: "/api/heart-rate/zones/" + sensor, method: .put, headers: headers, body: ByteBuffer(string: body))
    }

    func testThePhoneSetsListsAndRemovesARowersZones() async throws {
        let file = dataDirectory.appendingPathComponent("sessions/hr-zones.json").path
        try await withApp { client, station in
            let empty = try await client.execute(uri: "/api/heart-rate/zones", method: .get)
            XCTAssertEqual(empty.status, .ok)
            XCTAssertEqual((try Self.object(empty)["zones"] as? [Any])?.count, 0)
            XCTAssertEqual(try Self.object(empty)["zone_floors_percent"] as? [Double], [60, 70, 80, 90])

            let stroke = try await Self.put(client, "stroke", #"{"max_bpm":190,"rest_bpm":55}"#)
            XCTAssertEqual(stroke.status, .created, String(buffer: stroke.body))
            let kept = try Self.object(stroke)
            XCTAssertEqual(kept["sensor"] as? String, "stroke")
            XCTAssertEqual(kept["max_bpm"] as? Double, 190)
            XCTAssertEqual(kept["rest_bpm"] as? Double, 55)
            // Karvonen: rest + share × (max − rest): 55 + 0.6 × 135 = 136, 149.5, 163, 176.5.
            XCTAssertEqual(kept["zone_floors_bpm"] as? [Double], [136, 149.5, 163, 176.5])
            // A seat's number, a name with a space (percent-encoded in the path).
            let seven = try await Self.put(client, "7", #"{"max_bpm":200}"#)
            XCTAssertEqual(seven.status, .created, String(buffer: seven.body))
            XCTAssertEqual(try Self.object(seven)["zone_floors_bpm"] as? [Double], [120, 140, 160, 180], "shares of the maximum")
            let spaced = try await Self.put(client, "Ann%20B", #"{"max_bpm":185,"rest_bpm":null}"#)
            XCTAssertEqual(spaced.status, .created, String(buffer: spaced.body))
            // The same name again (its case ignored) replaces it: 200.
            let again = try await Self.put(client, "Stroke", #"{"max_bpm":188}"#)
            XCTAssertEqual(again.status, .ok, String(buffer: again.body))

            let list = try await client.execute(uri: "/api/heart-rate/zones", method: .get)
            let zones = try XCTUnwrap(try Self.object(list)["zones"] as? [[String: Any]])
            XCTAssertEqual(zones.map { $0["sensor"] as? String }, ["7", "Ann B", "Stroke"])
            XCTAssertEqual(zones.map { $0["max_bpm"] as? Double }, [200, 185, 188])
            XCTAssertTrue(zones[2]["rest_bpm"] is NSNull, "the replacement has no resting rate")
            XCTAssertTrue(FileManager.default.fileExists(atPath: file))

            // The live station colours by them at once: 150 bpm is 75 % of 200 (Z3), 170 of 188 is 90.4 % (Z5).
            let table = station.heartRates.zones
            XCTAssertEqual(table.zone(of: 150, sensor: "7"), 3)
            XCTAssertEqual(table.zone(of: 170, sensor: "stroke"), 5)
            XCTAssertNil(table.zone(of: 170, sensor: "bow"), "no zones for bow, and no default")

            let removed = try await client.execute(uri: "/api/heart-rate/zones/7", method: .delete, headers: Self.authorized)
            XCTAssertEqual(removed.status, .ok, String(buffer: removed.body))
            XCTAssertEqual(try Self.object(removed)["removed"] as? String, "7")
            XCTAssertNil(station.heartRates.zones.zone(of: 150, sensor: "7"))
            let gone = try await client.execute(uri: "/api/heart-rate/zones/7", method: .delete, headers: Self.authorized)
            XCTAssertEqual(gone.status, .notFound)
            let after = try await client.execute(uri: "/api/heart-rate/zones", method: .get)
            XCTAssertEqual((try Self.object(after)["zones"] as? [[String: Any]])?.map { $0["sensor"] as? String }, ["Ann B", "Stroke"])
        }
    }

    func testBadZonesAreRefusedWithWhy() async throws {
        try await withApp { client, _ in
            let cases: [(String, String, String)] = [
                ("stroke", #"{"max_bpm":250}"#, "max_bpm: 250 is no maximum heart rate (expected 100–230 bpm)"),
                ("stroke", #"{"max_bpm":99}"#, "max_bpm: 99 is no maximum heart rate (expected 100–230 bpm)"),
                ("stroke", #"{"max_bpm":140,"rest_bpm":140}"#, "rest_bpm: 140 is not below max_bpm 140"),
                ("stroke", #"{"max_bpm":180,"rest_bpm":15}"#, "rest_bpm: 15 is no resting heart rate (expected 20–150 bpm)"),
                ("stroke", #"{"max_bpm":140,"rest_bpm":145}"#, "rest_bpm: 145 is not below max_bpm 140"),
                ("stroke", #"{"max_bpm":"190"}"#, "max_bpm: expected a number of beats per minute"),
                ("stroke", #"{"max_bpm":190,"rest_bpm":true}"#, "rest_bpm: expected a number of beats per minute, or null"),
                ("stroke", #"{"max_bpm":190,"rest":50}"#, "‘rest’: unknown key (max_bpm, rest_bpm)"),
                ("stroke", #"[190]"#, #"expected a JSON object such as {"max_bpm": 190, "rest_bpm": 55}"#),
                ("%20stroke", #"{"max_bpm":190}"#, "sensor: a name of printable characters only, no '/', without spaces at its ends"),
            ]
            for (sensor, body, why) in cases {
                let response = try await Self.put(client, sensor, body)
                XCTAssertEqual(response.status, .badRequest, body)
                XCTAssertEqual(try Self.message(response), why, body)
            }
            let list = try await client.execute(uri: "/api/heart-rate/zones", method: .get)
            XCTAssertEqual((try Self.object(list)["zones"] as? [Any])?.count, 0, "nothing kept of the refused")
            // No token: 401, for a change and a removal.
            let anonymous = try await Self.put(client, "stroke", #"{"max_bpm":190}"#, headers: [.contentType: "application/json"])
            XCTAssertEqual(anonymous.status, .unauthorized)
            let removal = try await client.execute(uri: "/api/heart-rate/zones/stroke", method: .delete)
            XCTAssertEqual(removal.status, .unauthorized)
        }
    }

    /// The live heart rates: at most eight names, a ninth taking the place of one silent for
    /// over 10 s; a rate older than 10 s is "stale" (null in the message); zones by name, else
    /// `default`.
    func testTheLiveHeartRatesKeepEightSeatsAndAgeThem() throws {
        var rates = LiveHeartRates()
        rates.zones = HeartRateZoneTable([HeartRateZoneSetting(sensor: "stroke", maxBPM: 200),
                                          HeartRateZoneSetting(sensor: "default", maxBPM: 180, restBPM: 60)])
        for seat in 1...8 { rates.add(HeartRateSample(time: 0, bpm: 120 + Double(seat), sensor: seat == 8 ? "stroke" : String(seat))) }
        rates.add(HeartRateSample(time: 5, bpm: 150, sensor: "cox"))
        XCTAssertEqual(rates.entries.count, 8)
        XCTAssertEqual(rates.ignored, 1, "a ninth name while the eight are heard")
        for seat in 2...8 { rates.add(HeartRateSample(time: 12, bpm: 160, sensor: seat == 8 ? "stroke" : String(seat))) }
        rates.add(HeartRateSample(time: 12, bpm: 150, sensor: "cox"))
        XCTAssertEqual(rates.entries.count, 8)
        XCTAssertFalse(rates.entries.contains { $0.sensor == "1" }, "seat 1, silent for 12 s, gave way")
        XCTAssertTrue(rates.entries.contains { $0.sensor == "cox" })
        rates.now = 23
        let message = try Self.status(rates)
        let seats = try XCTUnwrap(message["heart_rates"] as? [[String: Any]])
        XCTAssertEqual(seats.count, 8)
        let stroke = try XCTUnwrap(seats.first { $0["sensor"] as? String == "stroke" })
        XCTAssertEqual(stroke["bpm"] as? Double, nil, "11 s old: stale")
        XCTAssertTrue(stroke["bpm"] is NSNull)
        XCTAssertEqual(stroke["age_s"] as? Double, 11)
        rates.now = 20
        let later = try Self.status(rates)
        let shown = try XCTUnwrap(later["heart_rates"] as? [[String: Any]])
        // 160 of 200 is 80 %: Z4. The default (Karvonen 60–180): (160 − 60) / 120 = 83 %: Z4; (150 − 60) / 120 = 75 %: Z3.
        XCTAssertEqual(shown.first { $0["sensor"] as? String == "stroke" }?["zone"] as? Int, 4)
        XCTAssertEqual(shown.first { $0["sensor"] as? String == "7" }?["zone"] as? Int, 4)
        XCTAssertEqual(shown.first { $0["sensor"] as? String == "cox" }?["zone"] as? Int, 3)
        XCTAssertEqual(shown.first { $0["sensor"] as? String == "cox" }?["bpm"] as? Double, 150)
        XCTAssertEqual(shown.first { $0["sensor"] as? String == "7" }?["age_s"] as? Double, 8)
    }

    /// The status message with `rates`, read back.
    private static func status(_ rates: LiveHeartRates) throws -> [String: Any] {
        var status = LiveStatus(source: "live")
        status.heartRates = rates
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(LiveMessage.status(status).utf8)) as? [String: Any])
    }
}
