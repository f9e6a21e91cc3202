import Foundation
import OarlogTrainingSites
import OarlogUpload
import XCTest

/// What each answer of a site means, and a site's message with a secret it echoed removed.
final class SiteHTTPTests: XCTestCase {
    private func failure(_ status: Int, _ headers: [(String, String)] = [], _ body: String = "") -> UploadFailure {
        SiteHTTP.failure(for: SiteResponse(status: status, headers: headers, body: Array(body.utf8)), site: "Site", unauthorized: "no")
    }

    func testEachStatusIsTheFailureItMeans() {
        XCTAssertEqual(failure(429, [("retry-after", "7")]), .retry("Site is busy (429): try again later", after_s: 7))
        XCTAssertEqual(failure(429), .retry("Site is busy (429): try again later", after_s: nil))
        XCTAssertEqual(failure(503, [("Retry-After", "30")]), .retry("Site is failing (503): try again later", after_s: 30))
        XCTAssertEqual(failure(500), .retry("Site is failing (500): try again later", after_s: nil))
        XCTAssertEqual(failure(401), .unauthorized("no"))
        XCTAssertEqual(failure(422, [], #"{"status":422,"error":"Name is too long"}"#), .rejected("Site refused the upload (422): Name is too long"))
        XCTAssertEqual(failure(400, [], #"{"message":"Bad Request","errors":[{"field":"file"}]}"#), .rejected("Site refused the upload (400): Bad Request"))
        XCTAssertEqual(failure(404, [], "Not here\nat all"), .rejected("Site refused the upload (404): Not here"))
    }

    func testASecretASiteEchoesIsRemovedFromItsMessage() {
        let key = "KEY-echoed-5e2b9a71c0"
        let message = failure(400, [], "{\"message\":\"bad key \(key)\"}").description
        XCTAssertTrue(message.contains(key), "the raw message holds it (the premise)")
        XCTAssertEqual(SiteHTTP.scrub(message, [key, nil, "ab"]), "Site refused the upload (400): bad key …")
    }

    func testAMultipartBodyHoldsEachFieldAndTheFileUnchanged() {
        var form = MultipartForm(boundary: "XyZ")
        form.add("name", "Morning \"outing\"")
        form.addFile("file", filename: "a.fit", contentType: "application/octet-stream", [0x0D, 0x0A, 0x00, 0xFF])
        let expected = "--XyZ\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nMorning \"outing\"\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.fit\"\r\nContent-Type: application/octet-stream\r\n\r\n"
        XCTAssertEqual(form.body, Array(expected.utf8) + [0x0D, 0x0A, 0x00, 0xFF] + Array("\r\n--XyZ--\r\n".utf8))
        XCTAssertEqual(form.contentType, "multipart/form-data; boundary=XyZ")
    }
}
