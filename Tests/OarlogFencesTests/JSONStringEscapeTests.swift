import OarlogFences
import XCTest

/// `\u` escapes in fence files, surrogate pairs included (a fuzz finding: two high surrogates in
/// a row trapped on an unsigned underflow; `Fuzz/regressions/fences/two-high-surrogates.json`).
final class JSONStringEscapeTests: XCTestCase {
    func testSurrogatePairsAndLoneSurrogates() throws {
        XCTAssertEqual(try JSONValue.parse(#""a\uD83D\uDEA3b""#), .string("a🚣b"))
        XCTAssertEqual(try JSONValue.parse(#""\u00e9\u0041""#), .string("éA"))
        // A high surrogate not followed by a low one: U+FFFD, and the next escape is itself.
        XCTAssertEqual(try JSONValue.parse(#""\uDAFE\uDAFE""#), .string("\u{FFFD}\u{FFFD}"))
        XCTAssertEqual(try JSONValue.parse(#""\uDAFE\u0041""#), .string("\u{FFFD}A"))
        XCTAssertEqual(try JSONValue.parse(#""\uDC00x""#), .string("\u{FFFD}x"))
        XCTAssertEqual(try JSONValue.parse(#""\uD83D""#), .string("\u{FFFD}"))
        XCTAssertThrowsError(try JSONValue.parse(#""\uD83D\uZZZZ""#))
    }
}
