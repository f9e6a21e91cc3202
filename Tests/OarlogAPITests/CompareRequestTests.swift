import OarlogAPI
import XCTest

/// `GET /api/compare?a=ID[:K]&b=ID[:K]&points=N`: each side an id and maybe a piece from 1.
final class CompareRequestTests: XCTestCase {
    func testSidesAndPieces() throws {
        let r = try CompareRequest(a: "2026-05-02T07-00-00Z_head", b: "2026-05-09T07-00-00Z_head:3", points: nil)
        XCTAssertEqual(r.a, CompareReference(session: "2026-05-02T07-00-00Z_head", piece: nil))
        XCTAssertEqual(r.b, CompareReference(session: "2026-05-09T07-00-00Z_head", piece: 3))
        XCTAssertEqual(r.b.description, "2026-05-09T07-00-00Z_head:3")
        XCTAssertEqual(r.points, 2_000)
        XCTAssertEqual(try CompareRequest(a: "x", b: "y", points: "50").points, 50)
        // Only the last colon is the piece's (a path may hold others).
        XCTAssertEqual(try CompareReference("dir:1/x:2"), CompareReference(session: "dir:1/x", piece: 2))
    }

    /// `interval=K`: the K-th interval of each side's plan, unless a side names its own piece.
    func testIntervalOnBothSides() throws {
        let r = try CompareRequest(a: "x", b: "y:2", points: nil, interval: "3")
        XCTAssertEqual(r.a, CompareReference(session: "x", piece: 3, interval: true))
        XCTAssertEqual(r.b, CompareReference(session: "y", piece: 2), "B's own piece stays a piece")
        XCTAssertFalse(r.b.interval)
        XCTAssertEqual(try CompareRequest(a: "x", b: "y", points: nil, interval: nil).a, CompareReference(session: "x"))
        XCTAssertFalse(CompareReference(session: "x", piece: nil, interval: true).interval, "no piece, no interval")
        for bad in ["0", "", "-1", "2.5", "three", "9999999999"] {
            XCTAssertThrowsError(try CompareRequest(a: "x", b: "y", points: nil, interval: bad), bad) { error in
                XCTAssertEqual((error as? APIRequestError)?.status, 400)
                XCTAssertTrue("\(error)".contains("interval"), "\(error)")
            }
        }
    }

    func testMalformedIs400() {
        for (a, b, points) in [(nil, "x", nil), ("x", nil, nil), ("x:0", "y", nil), ("x:", "y", nil), ("x:-1", "y", nil), ("x:1.5", "y", nil),
                               ("x", ":2", nil), ("x", "", nil), ("x", "y:99999999999", nil), ("x", "y", "1"), ("x", "y", "many")] as [(String?, String?, String?)] {
            XCTAssertThrowsError(try CompareRequest(a: a, b: b, points: points), "\(a ?? "nil") \(b ?? "nil")") { error in
                XCTAssertEqual((error as? APIRequestError)?.status, 400)
            }
        }
    }
}
