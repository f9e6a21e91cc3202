import OarlogAPI
import XCTest

/// The cox's workout requests (`PUT /api/live/workout`, `POST /api/live/workout/offer/{id}`):
/// exactly one of spec, name and `plan: null`; `starts_at_go` a JSON boolean; an answer's
/// `accept` a JSON boolean (not 1, not "true").
final class WorkoutRequestTests: XCTestCase {
    private func choice(_ body: String) throws -> WorkoutChoiceRequest { try WorkoutChoiceRequest(body: Array(body.utf8)) }

    func testAChoiceIsASpecANameOrNone() throws {
        XCTAssertEqual(try choice(#"{"spec": "  3x4:00/2:00r "}"#), try choice(#"{"spec": "3x4:00/2:00r", "starts_at_go": false}"#))
        XCTAssertEqual(try choice(#"{"spec": "3x4:00/2:00r"}"#).choice, .spec("3x4:00/2:00r"))
        XCTAssertFalse(try choice(#"{"spec": "20:00", "starts_at_go": null}"#).startsAtGo)
        XCTAssertTrue(try choice(#"{"spec": "20:00", "starts_at_go": true}"#).startsAtGo)
        XCTAssertEqual(try choice(#"{"name": "Tuesday pyramid"}"#).choice, .name("Tuesday pyramid"))
        XCTAssertEqual(try choice(#"{"name": "a\u001b[2Jb"}"#).choice, .name("a[2Jb"), "a name is kept without control characters")
        XCTAssertEqual(try choice(#"{"plan": null}"#).choice, WorkoutChoiceRequest.Choice.none)
        // A spec's length is WorkoutSpec's to judge (it names the column); the body's, 16 KiB.
        XCTAssertEqual(try choice(String(repeating: "1", count: 5000).wrappingSpec).choice, .spec(String(repeating: "1", count: 5000)))
    }

    func testWhatIsNotAChoiceIs400() {
        let bad = ["", "{}", "[]", "null", #"{"spec": ""}"#, #"{"spec": "   "}"#, #"{"spec": 20}"#, #"{"spec": null}"#,
                   #"{"spec": "20:00", "name": "x"}"#, #"{"spec": "20:00", "plan": null}"#, #"{"plan": "20:00"}"#, #"{"plan": {}}"#,
                   #"{"name": ""}"#, #"{"name": "\u0007"}"#, #"{"spec": "20:00", "starts_at_go": 1}"#,
                   #"{"spec": "20:00", "starts_at_go": "true"}"#,
                   "{\"name\": \"\(String(repeating: "n", count: 101))\"}"]
        for body in bad {
            XCTAssertThrowsError(try choice(body), body) { XCTAssertEqual(($0 as? APIRequestError)?.status, 400, body) }
        }
        let huge = "{\"spec\": \"\(String(repeating: "1", count: 20_000))\"}"
        XCTAssertThrowsError(try choice(huge)) { XCTAssertEqual(($0 as? APIRequestError)?.status, 413) }
    }

    func testAnAnswerIsTrueOrFalse() throws {
        XCTAssertTrue(try WorkoutAnswerRequest(body: Array(#"{"accept": true}"#.utf8)).accept)
        XCTAssertFalse(try WorkoutAnswerRequest(body: Array(#"{"accept": false}"#.utf8)).accept)
        for body in ["", "{}", #"{"accept": 1}"#, #"{"accept": "yes"}"#, #"{"accept": null}"#, "true"] {
            XCTAssertThrowsError(try WorkoutAnswerRequest(body: Array(body.utf8)), body)
        }
    }
}

private extension String {
    /// `{"spec": "SELF"}`.
    var wrappingSpec: String { "{\"spec\": \"\(self)\"}" }
}
