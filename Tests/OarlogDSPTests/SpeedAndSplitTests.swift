import XCTest
import OarlogCore
@testable import OarlogDSP

final class SpeedAndSplitTests: XCTestCase {
    func testWindowMeanOfAConstantAndOfARampAndStaleness() throws {
        var s = SpeedEstimator(window: 5, staleAfter: 3)
        for i in 0...20 { s.add(time: Double(i), speed: 4) }
        XCTAssertEqual(try XCTUnwrap(s.averageSpeed(now: 20)), 4, accuracy: 1e-12)
        var ramp = SpeedEstimator(window: 5, staleAfter: 3)
        for i in 0...20 { ramp.add(time: Double(i) * 0.5, speed: Double(i) * 0.5) }  // v = t
        // Mean of v = t over [5, 10] is 7.5.
        XCTAssertEqual(try XCTUnwrap(ramp.averageSpeed(now: 10)), 7.5, accuracy: 1e-9)
        XCTAssertNotNil(s.averageSpeed(now: 23))
        XCTAssertNil(s.averageSpeed(now: 23.5))  // newest sample older than staleAfter
        XCTAssertNil(s.latest(now: 24))
    }

    func testUnevenSpacingIsTimeWeighted() throws {
        var s = SpeedEstimator(window: 10, staleAfter: 10)
        // 2 m/s for 8 s sampled once at each end, then 4 m/s for 2 s sampled densely.
        s.add(time: 0, speed: 2); s.add(time: 8, speed: 2)
        for i in 1...20 { s.add(time: 8 + Double(i) * 0.1, speed: 4) }
        // Trapezoid: 8 s at 2 m/s + 0.1 s ramp 2→4 + 1.9 s at 4 → (16 + 0.3 + 7.6) / 10.
        XCTAssertEqual(try XCTUnwrap(s.averageSpeed(now: 10)), 2.39, accuracy: 1e-9)
    }

    func testSplitFromSpeedAndStrokeAveraging() throws {
        let seconds = SplitCalculator(averaging: .seconds(5))
        XCTAssertEqual(try XCTUnwrap(seconds.split(speed: 4)), 125, accuracy: 1e-12)
        XCTAssertNil(seconds.split(speed: 0.3))  // stopped
        XCTAssertNil(seconds.split(speed: nil))
        var strokes = SplitCalculator(averaging: .strokes(2))
        strokes.addStroke(end: 3, duration: 3, distance: 9)
        strokes.addStroke(end: 6, duration: 3, distance: 12)
        strokes.addStroke(end: 9, duration: 3, distance: 15)  // only the last two count
        let v = try XCTUnwrap(strokes.speed(now: 9, windowSpeed: nil))
        XCTAssertEqual(v, 27.0 / 6.0, accuracy: 1e-12)
        XCTAssertNil(strokes.speed(now: 30, windowSpeed: nil, staleAfter: 10))
    }
}
