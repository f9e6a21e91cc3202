import OarlogAPI
import XCTest

/// The ghost's request (`PUT /api/live/ghost`): `best` of a saved course (of a boat when given),
/// a session's id or `ID:K`, or `null`; a course's and a boat's name cleaned and bounded; a
/// session only as an id (never a path), K from 1.
final class GhostRequestTests: XCTestCase {
    private func choice(_ body: String) throws -> GhostChoiceRequest.Choice { try GhostChoiceRequest(body: Array(body.utf8)).choice }

    func testAChoiceIsBestASessionsAttemptOrNone() throws {
        XCTAssertEqual(try choice(#"{"course": "NK 2k", "ghost": "best"}"#), .best(course: "NK 2k", boat: nil))
        XCTAssertEqual(try choice(#"{"course": "NK 2k", "ghost": " BEST ", "boat": "Eight"}"#), .best(course: "NK 2k", boat: "Eight"))
        XCTAssertEqual(try choice(#"{"course": "NK 2k", "ghost": "2026-05-02T07-00-00Z_fast"}"#),
                       .session(course: "NK 2k", id: "2026-05-02T07-00-00Z_fast", attempt: 1))
        XCTAssertEqual(try choice(#"{"course": "NK 2k", "ghost": "2026-05-02T07-00-00Z_fast:3"}"#),
                       .session(course: "NK 2k", id: "2026-05-02T07-00-00Z_fast", attempt: 3))
        XCTAssertEqual(try choice(#"{"course": "a\u001b[2Jb", "ghost": "best"}"#), .best(course: "a[2Jb", boat: nil),
                       "a name is kept without control characters")
        XCTAssertEqual(try choice(#"{"ghost": null}"#), GhostChoiceRequest.Choice.none)
    }

    func testWhatIsNotAChoiceIs400() {
        let bad = ["", "{}", "[]", "null", #"{"ghost": 5}"#, #"{"ghost": ""}"#, #"{"ghost": "best"}"#, #"{"course": "", "ghost": "best"}"#,
                   #"{"course": 7, "ghost": "best"}"#, #"{"course": "NK 2k", "ghost": "../../etc/passwd"}"#,
                   #"{"course": "NK 2k", "ghost": "/tmp/x.oarlog"}"#, #"{"course": "NK 2k", "ghost": "a:b:c"}"#,
                   #"{"course": "NK 2k", "ghost": "abc:0"}"#, #"{"course": "NK 2k", "ghost": "abc:x"}"#,
                   #"{"course": "NK 2k", "ghost": "abc:1001"}"#, #"{"course": "NK 2k", "ghost": "best", "boat": 3}"#,
                   "{\"course\": \"\(String(repeating: "c", count: 101))\", \"ghost\": \"best\"}"]
        for body in bad {
            XCTAssertThrowsError(try choice(body), body) { XCTAssertEqual(($0 as? APIRequestError)?.status, 400, body) }
        }
    }
}
