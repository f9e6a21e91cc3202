import OarlogCore
import OarlogDSP
import OarlogSimulator
import XCTest

/// A long rest gives the mounting estimator only sensor noise: the surge axis must stay where
/// the strokes put it, so the restart is not read backwards.
final class MountingRestTests: XCTestCase {
    func testSurgeAxisHoldsThroughARest() throws {
        var configuration = SimulationConfiguration(duration: 390, profile: try SimulationProfile.parse("120:24,240:rest,30:20", duration: 390))
        configuration.mounting = try OarlogSimulator.Mounting.parse("tilted")
        configuration.accelRate = 50
        var simulator = try BoatSimulator(configuration: configuration)
        var estimator = MountingEstimator()
        var axisBeforeRest: SIMD3<Double>?
        var axisAfterRest: SIMD3<Double>?
        while let record = try simulator.next() {
            guard case .accel(let sample) = record else { continue }
            _ = estimator.surge(of: sample)
            if sample.time < 119 { axisBeforeRest = estimator.surgeAxis }
            if sample.time < 359 { axisAfterRest = estimator.surgeAxis }
        }
        let before = try XCTUnwrap(axisBeforeRest)
        let after = try XCTUnwrap(axisAfterRest)
        // Four minutes of noise only: the axis has not moved by more than ~8°.
        XCTAssertGreaterThan((before * after).sum(), 0.99)
        // And the estimator still points to the bow after the restart.
        let final = try XCTUnwrap(estimator.surgeAxis)
        XCTAssertGreaterThan((before * final).sum(), 0.99)
    }
}
