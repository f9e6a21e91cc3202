import OarlogAPI
import XCTest

/// What the web API takes from a phone and what it refuses, with the status each refusal gets.
final class APIRequestTests: XCTestCase {
    private func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    func testPathsThatClimbOutOrAreAbsurdAreNotPages() {
        for ok in ["/", "/api/sessions", "/api/sessions/2026-11-24_head-race", "/vendor/leaflet/leaflet.js", "/a%20b", "/x..y/z"] {
            XCTAssertTrue(APIRequest.isAcceptablePath(ok), ok)
        }
        for bad in ["/api/sessions/..", "/api/sessions/%2E%2E", "/%2e%2E/etc/passwd", "/vendor/leaflet/../../../etc/passwd",
                    "/./index.html", "/a/%2e", "/bad%zz", "/nul%00byte", "/" + String(repeating: "a", count: 2048)] {
            XCTAssertFalse(APIRequest.isAcceptablePath(bad), bad)
        }
        XCTAssertTrue(APIRequest.isAcceptablePath("/" + String(repeating: "a", count: 2047)))
    }

    func testSessionIDsAreNamesNeverPaths() {
        for ok in ["2026-11-24_head-race", "a", "x.y", "Session_2", String(repeating: "z", count: 160)] {
            XCTAssertTrue(APIRequest.isPlausibleSessionID(ok), ok)
        }
        for bad in ["", ".", "..", ".hidden", "a/b", "a%2Fb", "a b", "é", "a\0b", String(repeating: "z", count: 161)] {
            XCTAssertFalse(APIRequest.isPlausibleSessionID(bad), bad)
        }
    }

    func testBearerToken() {
        XCTAssertEqual(APIRequest.bearerToken("Bearer abc123"), "abc123")
        XCTAssertEqual(APIRequest.bearerToken("bearer  abc123 "), "abc123")
        XCTAssertNil(APIRequest.bearerToken(nil))
        XCTAssertNil(APIRequest.bearerToken("Bearer"))
        XCTAssertNil(APIRequest.bearerToken("Bearer   "))
        XCTAssertNil(APIRequest.bearerToken("Basic abc123"))
        XCTAssertNil(APIRequest.bearerToken("abc123"))
    }

    func testNoteBodies() throws {
        let note = try NoteRequest(body: bytes(#"{"text": "  Pushed on 500 to go \n"}"#))
        XCTAssertEqual(note.text, "Pushed on 500 to go")
        XCTAssertNil(note.sessionTime)
        XCTAssertEqual(try note.time(inSessionEndingAt: 412.5), 412.5)

        let timed = try NoteRequest(body: bytes(#"{"text": "rough water", "t_s": 30}"#))
        XCTAssertEqual(timed.sessionTime, 30)
        XCTAssertEqual(try timed.time(inSessionEndingAt: 412.5), 30)
        XCTAssertEqual(try NoteRequest(body: bytes(#"{"text":"x","t_s":413.2}"#)).time(inSessionEndingAt: 412.5), 412.5)
        XCTAssertThrowsError(try NoteRequest(body: bytes(#"{"text":"x","t_s":414}"#)).time(inSessionEndingAt: 412.5)) {
            XCTAssertEqual(($0 as? APIRequestError)?.status, 400)
            XCTAssertTrue("\($0)".contains("0 to 412 s"), "\($0)")
        }
        XCTAssertEqual(try NoteRequest(body: bytes(#"{"text":"x","t_s":0.5}"#)).time(inSessionEndingAt: .nan), 0)
        XCTAssertThrowsError(try NoteRequest(body: bytes(#"{"text":"x","t_s":5}"#)).time(inSessionEndingAt: .nan))

        let long = try NoteRequest(body: bytes("{\"text\": \"" + String(repeating: "é", count: 3000) + "\"}"))
        XCTAssertEqual(long.text.count, 2000)

        for (body, says) in [("", "malformed JSON"), ("{", "malformed JSON"), ("[1]", "JSON object"), ("\"x\"", "malformed JSON"),
                             (#"{"text": "   "}"#, "some text"), (#"{"text": 5}"#, "some text"), (#"{"note": "x"}"#, "some text"),
                             (#"{"text":"x","t_s":-1}"#, "0 or more"), (#"{"text":"x","t_s":"10"}"#, "number"),
                             (#"{"text":"x","t_s":true}"#, "number"), (#"{"text":"x","t_s":1e999}"#, "malformed")] {
            XCTAssertThrowsError(try NoteRequest(body: bytes(body)), body) { error in
                XCTAssertEqual((error as? APIRequestError)?.status, 400, body)
                XCTAssertTrue("\(error)".contains(says), "\(body): \(error)")
            }
        }
    }

    func testOversizedBodiesAre413() {
        let big = bytes("{\"text\": \"" + String(repeating: "a", count: APIRequest.maximumBodyBytes) + "\"}")
        for make in [{ _ = try NoteRequest(body: big) }, { _ = try StartRequest(body: big) }, { _ = try RetitleRequest(body: big) },
                     { _ = try PairingRequest(body: big) }] as [() throws -> Void] {
            XCTAssertThrowsError(try make()) { XCTAssertEqual(($0 as? APIRequestError)?.status, 413) }
        }
    }

    func testStartRetitleAndPairing() throws {
        XCTAssertNil(try StartRequest(body: []).title)
        XCTAssertNil(try StartRequest(body: bytes(" \n")).title)
        XCTAssertNil(try StartRequest(body: bytes("{}")).title)
        XCTAssertNil(try StartRequest(body: bytes(#"{"title": null}"#)).title)
        XCTAssertEqual(try StartRequest(body: bytes(#"{"title": " Head race "}"#)).title, "Head race")
        XCTAssertEqual(try StartRequest(body: bytes("{\"title\": \"" + String(repeating: "t", count: 300) + "\"}")).title?.count, 200)
        XCTAssertThrowsError(try StartRequest(body: bytes(#"{"title": 7}"#))) { XCTAssertEqual(($0 as? APIRequestError)?.status, 400) }

        XCTAssertEqual(try RetitleRequest(body: bytes(#"{"title": "Final, lane 3"}"#)).title, "Final, lane 3")
        XCTAssertThrowsError(try RetitleRequest(body: bytes(#"{"title": ""}"#))) { XCTAssertTrue("\($0)".contains("1 to 200")) }
        XCTAssertThrowsError(try RetitleRequest(body: bytes("{\"title\": \"" + String(repeating: "t", count: 201) + "\"}")))
        XCTAssertThrowsError(try RetitleRequest(body: []))

        XCTAssertEqual(try PairingRequest(body: bytes(#"{"code": "042137"}"#)).code, "042137")
        XCTAssertThrowsError(try PairingRequest(body: bytes(#"{"code": 42137}"#))) { XCTAssertEqual(($0 as? APIRequestError)?.status, 400) }
        XCTAssertThrowsError(try PairingRequest(body: bytes("{\"code\": \"" + String(repeating: "1", count: 65) + "\"}")))
    }
}
