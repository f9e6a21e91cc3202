import Foundation
import Hummingbird
import HummingbirdTesting
import OarlogApp
import OarlogTestSupport
import XCTest
@testable import OarlogServer

/// `/api/heart-rate/straps` in process (`app.test(.router)`): the phone lists the straps (open,
/// as every read), gives one to a seat and takes it away with the token (401 without), and is
/// refused a bad seat or address (400), a seat with no strap (404) and a ninth strap (409). The
/// book is the same `straps.json` that `oarlog hr assign` keeps.
final class HeartRateStrapsRoutesTests: XCTestCase {
    private var dataDirectory: URL!
    private var sessions: SessionStore!
    private static let token = String(repeating: "ab", count: 16)

    override func setUpWithError() throws {
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-hr-routes-\(UUID().uuidString)")
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

    private static func assigned(_ response: TestResponse) throws -> [String: String] {
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
        let straps = try XCTUnwrap(object["straps"] as? [[String: Any]], String(buffer: response.body))
        var seats: [String: String] = [:]
        for s in straps {
            // Every key is there, null when unknown.
            XCTAssertEqual(Set(s.keys), ["address", "name", "seat", "connected", "bpm"])
            if let seat = s["seat"] as? String { seats[seat] = s["address"] as? String }
        }
        return seats
    }

    private static func put(_ client: any TestClientProtocol, seat: String, _ body: String,
                            headers: HTTPFields = authorized) async throws -> TestResponse {
        try await client.execute(uri: "/api/heart-rate/straps/\(seat)", method: .put, headers: headers, body: ByteBuffer(string: body))
    }

    func testThePhoneAssignsAndUnassignsStraps() async throws {
        let book = sessions.straps
        try await withApp { client in
            let empty = try await client.execute(uri: "/api/heart-rate/straps", method: .get)
            XCTAssertEqual(empty.status, .ok)
            XCTAssertEqual(try Self.assigned(empty), [:])

            let stroke = try await Self.put(client, seat: "stroke", #"{"address":"c0:ff:ee:00:00:01"}"#)
            XCTAssertEqual(stroke.status, .ok, String(buffer: stroke.body))
            let bow = try await Self.put(client, seat: "bow", #"{"address":"C0:FF:EE:00:00:02"}"#)
            XCTAssertEqual(bow.status, .ok)
            let listed = try await client.execute(uri: "/api/heart-rate/straps", method: .get)
            XCTAssertEqual(try Self.assigned(listed), ["stroke": "C0:FF:EE:00:00:01", "bow": "C0:FF:EE:00:00:02"])

            let gone = try await client.execute(uri: "/api/heart-rate/straps/bow", method: .delete, headers: Self.authorized)
            XCTAssertEqual(gone.status, .ok)
            let again = try await client.execute(uri: "/api/heart-rate/straps/bow", method: .delete, headers: Self.authorized)
            XCTAssertEqual(again.status, .notFound)
        }
        // The command line's book holds what the phone did.
        XCTAssertEqual(try book.list(), [StrapBookEntry(seat: "stroke", address: "C0:FF:EE:00:00:01")])
    }

    func testChangesNeedTheTokenAndBadSeatsAndAddressesAreRefused() async throws {
        try await withApp { client in
            let noToken = try await Self.put(client, seat: "stroke", #"{"address":"C0:FF:EE:00:00:01"}"#,
                                             headers: [.contentType: "application/json"])
            XCTAssertEqual(noToken.status, .unauthorized)
            let noTokenDelete = try await client.execute(uri: "/api/heart-rate/straps/stroke", method: .delete)
            XCTAssertEqual(noTokenDelete.status, .unauthorized)

            for body in [#"{"address":"C0:FF:EE:00:00"}"#, #"{"address":"GG:FF:EE:00:00:01"}"#, #"{"addr":"x"}"#, "not json"] {
                let refused = try await Self.put(client, seat: "stroke", body)
                XCTAssertEqual(refused.status, .badRequest, body)
            }
            let longSeat = try await Self.put(client, seat: String(repeating: "s", count: 17), #"{"address":"C0:FF:EE:00:00:01"}"#)
            XCTAssertEqual(longSeat.status, .badRequest)
            let oddSeat = try await Self.put(client, seat: "a%2Cb", #"{"address":"C0:FF:EE:00:00:01"}"#)
            XCTAssertEqual(oddSeat.status, .badRequest, "a comma would break the trace's hr row")

            for n in 1...8 {
                let ok = try await Self.put(client, seat: "\(n)", #"{"address":"C0:FF:EE:00:00:0\#(n)"}"#)
                XCTAssertEqual(ok.status, .ok)
            }
            let ninth = try await Self.put(client, seat: "cox", #"{"address":"C0:FF:EE:00:00:09"}"#)
            XCTAssertEqual(ninth.status, .conflict)
            // Giving seat 8's strap to seat 8 again changes nothing and is fine.
            let same = try await Self.put(client, seat: "8", #"{"address":"C0:FF:EE:00:00:08"}"#)
            XCTAssertEqual(same.status, .ok)
        }
        XCTAssertEqual(try sessions.straps.list().count, 8)
    }
}
