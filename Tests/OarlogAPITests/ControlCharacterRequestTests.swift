import OarlogAPI
import XCTest

/// Notes and titles from a phone lose their control characters as they are decoded (issue 23):
/// ESC, BEL, NUL, C1 and the bidi overrides are dropped, tabs and line breaks become spaces, and
/// what is left of a note or title made of nothing else is empty (400).
final class ControlCharacterRequestTests: XCTestCase {
    func body(_ json: String) -> [UInt8] { Array(json.utf8) }

    func testNoteTextIsStoredWithoutControlCharacters() throws {
        let note = try NoteRequest(body: body(#"{"text": "Rate\u001b[2J up\u0007\u0000 \u202etsal\u2066\tnow\r\n\u009b", "t_s": 3}"#))
        XCTAssertEqual(note.text, "Rate[2J up tsal now")
        XCTAssertEqual(note.sessionTime, 3)
        XCTAssertThrowsError(try NoteRequest(body: body(#"{"text": "\u001b\u0007\u0000\u202e"}"#))) {
            XCTAssertEqual(($0 as? APIRequestError)?.status, 400)
        }
        XCTAssertEqual(try NoteRequest(body: body(#"{"text": "Café 🚣 — محمد"}"#)).text, "Café 🚣 — محمد", "ordinary text is kept")
    }

    func testTitlesAreStoredWithoutControlCharacters() throws {
        XCTAssertEqual(try RetitleRequest(body: body(#"{"title": "\u001b]0;owned\u0007Eights\u202d"}"#)).title, "]0;ownedEights")
        XCTAssertThrowsError(try RetitleRequest(body: body(#"{"title": "\u0007\u0000"}"#))) { XCTAssertEqual(($0 as? APIRequestError)?.status, 400) }
        XCTAssertEqual(try StartRequest(body: body(#"{"title": "Head\nrace\u001b"}"#)).title, "Head race")
        XCTAssertNil(try StartRequest(body: body(#"{"title": "\u001b"}"#)).title)
    }
}
