import OarlogCore
import OarlogDSP
import XCTest

/// The receiver-speed average holds its whole window at 5–25 Hz, whatever the window.
final class SpeedEstimatorFixRateTests: XCTestCase {
    /// A speed ramp v(t) = 2 + 0.05 t m/s at `rate` for 60 s; the time-weighted mean over the last
    /// `window` seconds of a linear ramp is its value at the window's middle, exactly.
    func rampAverage(rate: Hertz, window: Seconds) -> (found: MetresPerSecond?, truth: MetresPerSecond) {
        var estimator = SpeedEstimator(window: window, staleAfter: 5)
        let n = Int(60 * rate)
        for k in 0...n {
            let t = Double(k) / rate
            estimator.add(time: t, speed: 2 + 0.05 * t)
        }
        return (estimator.averageSpeed(now: 60), 2 + 0.05 * (60 - window / 2))
    }

    func testThirtySecondWindowAtTenHertzCoversTheWholeWindow() {
        // 350 samples in 35 s at 10 Hz: a fixed ring of 256 averaged only the last 25.5 s
        // (4.3625 m/s instead of 4.25).
        let (found, truth) = rampAverage(rate: 10, window: 30)
        XCTAssertEqual(truth, 4.25)
        XCTAssertEqual(found ?? .nan, truth, accuracy: 1e-9)
    }

    func testFiveSecondWindowAtOneTenAndTwentyFiveHertz() {
        for rate: Hertz in [1, 10, 25] {
            let (found, truth) = rampAverage(rate: rate, window: 5)
            XCTAssertEqual(found ?? .nan, truth, accuracy: 1e-9, "\(rate) Hz")
        }
    }

    func testDefaultCapacityGrowsWithTheWindowOnly() {
        XCTAssertEqual(SpeedEstimator.defaultCapacity(window: 5, staleAfter: 5), 256, "today's default window: as before")
        XCTAssertEqual(SpeedEstimator.defaultCapacity(window: 30, staleAfter: 5), 35 * 25 + 2)
        XCTAssertEqual(SpeedEstimator.defaultCapacity(window: .infinity, staleAfter: 5), 65_536)
    }
}
