import OarlogCore
@testable import OarlogSimulator
import XCTest

/// The truth of each stroke's quality: the boat's true speed through it (lowest, highest, mean
/// from catch to next catch) and the check (the depth of the noise-free dip at the catch).
final class GroundTruthQualityTests: XCTestCase {
    func testEachStrokeKnowsItsTrueSpeedSwingAndCheck() throws {
        var configuration = SimulationConfiguration(minutes: 1, rate: 28)
        configuration.gpsDropoutsPerHour = 0
        var simulator = try BoatSimulator(configuration: configuration)
        var lowest = Double.infinity, highest = -Double.infinity
        var strokeStart: (index: Int, distance: Metres)?
        var strokes = 0
        while let record = try simulator.next() {
            guard case .accel = record, let frame = simulator.lastBoatFrame, let last = simulator.groundTruth.lastStroke else { continue }
            if strokeStart?.index != last.index {
                // A catch has passed: the previous stroke's truth is complete, compare it with the
                // speeds sampled through it (at 100 Hz: within half a sample's change of speed at
                // the catch, 0.03 m/s; the truth's 4 ms grid is finer) and with the mean speed from
                // the true distance (within the grid's 4 ms at each end: 0.01 m/s).
                if let start = strokeStart, let done = simulator.groundTruth.strokes.first(where: { $0.index == start.index }) {
                    let lo = try XCTUnwrap(done.minimumSpeed), hi = try XCTUnwrap(done.maximumSpeed), mean = try XCTUnwrap(done.meanSpeed)
                    XCTAssertEqual(lo, lowest, accuracy: 0.03, "stroke \(done.index)")
                    XCTAssertEqual(hi, highest, accuracy: 0.03, "stroke \(done.index)")
                    XCTAssertEqual(mean, (last.distance - done.distance) / (last.catchTime - done.catchTime), accuracy: 0.01)
                    XCTAssertTrue(lo < mean && mean < hi)
                    XCTAssertEqual(done.speedFluctuationPercent ?? 0, 100 * (hi - lo) / mean, accuracy: 1e-9)
                    XCTAssertEqual(Double(done.check), -Double(done.catchAcceleration), accuracy: 1e-6)
                    XCTAssertGreaterThan(done.check, 2)
                    strokes += 1
                }
                strokeStart = (last.index, last.distance)
                lowest = .infinity
                highest = -.infinity
            }
            lowest = min(lowest, frame.speed)
            highest = max(highest, frame.speed)
        }
        XCTAssertGreaterThan(strokes, 20)
        XCTAssertNil(simulator.groundTruth.lastStroke?.meanSpeed, "the last stroke has no next catch")
    }
}
