import XCTest
import OarlogAPI

/// `POST /api/sessions/{id}/uploads`'s body: a service Oarlog knows and an optional force.
final class UploadRequestTests: XCTestCase {
    private func request(_ body: String) throws -> UploadRequest { try UploadRequest(body: Array(body.utf8)) }

    func testAServiceAndForce() throws {
        XCTAssertEqual(try request(#"{"service": "strava"}"#), try request(#"{"service": "strava", "force": false}"#))
        XCTAssertEqual(try request(#"{"service": "strava"}"#).force, false)
        XCTAssertEqual(try request(#"{"service": "concept2", "force": true}"#).force, true)
        XCTAssertEqual(try request(#"{"service": "intervals", "force": null}"#).service, "intervals")
    }

    func testWhatIsNotAnUploadIs400() {
        let bad = ["", "{}", "[]", "null", #"{"service": 5}"#, #"{"service": "garmin"}"#, #"{"service": "STRAVA"}"#,
                   #"{"service": "strava", "force": "yes"}"#, #"{"service": "../accounts"}"#, #"{"service": "strava""#]
        for body in bad {
            XCTAssertThrowsError(try request(body), body) { XCTAssertEqual(($0 as? APIRequestError)?.status, 400, body) }
        }
        XCTAssertThrowsError(try request("{\"service\": \"" + String(repeating: "s", count: 70_000) + "\"}")) {
            XCTAssertEqual(($0 as? APIRequestError)?.status, 413)
        }
    }
}
