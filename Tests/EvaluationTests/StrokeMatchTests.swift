import OarlogEvaluation
import XCTest

final class StrokeMatchTests: XCTestCase {
    func testCountsMissedExtraAndErrors() {
        let truth = [1.0, 3.0, 5.0, 7.0]
        let detected = [1.02, 3.2, 4.97, 6.0, 7.04]
        let m = StrokeMatch.match(detected: detected, truth: truth, tolerance: 0.05)
        XCTAssertEqual(m.matched, 3)   // 1.02, 4.97, 7.04
        XCTAssertEqual(m.missed, 1)    // 3.0 (3.2 is 200 ms off)
        XCTAssertEqual(m.extra, 2)     // 3.2 and 6.0
        XCTAssertEqual(m.maxError!, 0.04, accuracy: 1e-9)
        XCTAssertEqual(m.medianError!, 0.03, accuracy: 1e-9)
    }

    func testOneDetectionCannotMatchTwoTruths() {
        let m = StrokeMatch.match(detected: [2.0], truth: [1.97, 2.03], tolerance: 0.05)
        XCTAssertEqual(m.matched, 1)
        XCTAssertEqual(m.missed, 1)
        XCTAssertEqual(m.extra, 0)
    }
}
