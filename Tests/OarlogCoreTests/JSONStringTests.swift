import OarlogCore
import XCTest

final class JSONStringTests: XCTestCase {
    func testEscapesQuotesBackslashesAndControlCharacters() {
        XCTAssertEqual(JSONString.quoted(""), "\"\"")
        XCTAssertEqual(JSONString.quoted("Cam \"Eights\" C:\\boats"), #""Cam \"Eights\" C:\\boats""#)
        XCTAssertEqual(JSONString.quoted("a\nb\rc\td"), #""a\nb\rc\td""#)
        XCTAssertEqual(JSONString.quoted("\u{01}\u{1f}"), #""\u0001\u001f""#)
        // Non-ASCII and the first printable character pass through unchanged.
        XCTAssertEqual(JSONString.quoted("Ægir 🚣 "), "\"Ægir 🚣 \"")
    }
}
