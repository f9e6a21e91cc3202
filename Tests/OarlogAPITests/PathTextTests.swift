import OarlogAPI
import XCTest

/// The web API names files, never where they are.
final class PathTextTests: XCTestCase {
    func testAbsolutePathsAreCutToTheirFileName() {
        XCTAssertEqual(PathText.fileNamesOnly("/root/.local/share/oarlog/sessions/2026-05-01-0700.oarlog"), "2026-05-01-0700.oarlog")
        XCTAssertEqual(PathText.fileNamesOnly("cannot read '/srv/data/sessions/a.oarlog': truncated"), "cannot read 'a.oarlog': truncated")
        XCTAssertEqual(PathText.fileNamesOnly("/a/b.oarlog (not closed) and /c/d/e.oarlog"), "b.oarlog (not closed) and e.oarlog")
    }

    func testTextWithoutPathsIsUnchanged() {
        for text in ["the body is over 16 KiB", "2k/500m at 24 spm", "km/h", "a / b", "/", "no such session"] {
            XCTAssertEqual(PathText.fileNamesOnly(text), text)
        }
    }

    func testACompareReferenceHasOneColonAtMost() throws {
        XCTAssertThrowsError(try CompareRequest(a: "ID:1:2", b: "ID", points: nil))
        XCTAssertEqual(try CompareRequest(a: "ID:2", b: "ID", points: nil).a, CompareReference(session: "ID", piece: 2))
    }
}
