import XCTest
import Foundation
import OarlogCore
import OarlogDSP
import OarlogSimulator

/// The whole accelerometer path (raw samples → mounting estimator → stroke detector) on the
/// simulator's sessions, scored against its ground truth: every catch, exactly.
final class StrokeDetectorSimulatorTests: XCTestCase {
    private struct Score { var match: StrokeMatch; var truth: Int; var detected: Int }

    private func run(rate: StrokesPerMinute, accelRate: Hertz, mounting: OarlogSimulator.Mounting,
                     minutes: Double = 2, seed: UInt64 = 1, profile: SimulationProfile? = nil) throws -> Score {
        var configuration = SimulationConfiguration(minutes: minutes, rate: rate)
        if let p = profile { configuration.profile = p }
        configuration.accelRate = accelRate
        configuration.mounting = mounting
        configuration.seed = seed
        let (truth, events) = try detectSimulated(configuration)
        // Every true catch is expected, except one in the first half second (a flying start:
        // its dip is before the recording) and one in the last half second (its drive is cut).
        let expected = truth.strokes.map(\.catchTime).filter { $0 > 0.5 && $0 < configuration.duration - 0.5 }
        let detected = events.map(\.catchTime).filter { $0 > 0.5 && $0 < configuration.duration - 0.5 }
        let match = StrokeMatch(detected: detected, truth: expected, tolerance: 0.4)
        print("sim \(rate) spm, \(accelRate) Hz, \(mounting): \(expected.count) true, \(detected.count) found; \(match.summary)")
        return Score(match: match, truth: expected.count, detected: detected.count)
    }

    private func check(_ s: Score, _ label: String) {
        XCTAssertEqual(s.detected, s.truth, "\(label): \(s.match.summary)")
        XCTAssertEqual(s.match.missed.count, 0, "\(label): \(s.match.summary)")
        XCTAssertEqual(s.match.extra.count, 0, "\(label): \(s.match.summary)")
        XCTAssertLessThanOrEqual(s.match.maxAbsError, 0.1, "\(label): \(s.match.summary)")
    }

    func testRatesFrom16To40() throws {
        for rate in stride(from: 16.0, through: 40.0, by: 4.0) {
            check(try run(rate: rate, accelRate: 100, mounting: .tilted), "\(rate) spm")
        }
    }

    func testAccelerometerRatesAndMountings() throws {
        for accelRate in [25.0, 50.0, 100.0, 500.0] {
            for mounting in [OarlogSimulator.Mounting.flat, .upright, .tilted, .upsideDown] {
                check(try run(rate: 24, accelRate: accelRate, mounting: mounting, minutes: 1.5, seed: UInt64(accelRate)),
                      "\(accelRate) Hz \(mounting)")
            }
        }
    }

    func testExtremesCombined() throws {
        check(try run(rate: 16, accelRate: 25, mounting: .upright, seed: 5), "16 spm 25 Hz upright")
        check(try run(rate: 40, accelRate: 25, mounting: .upsideDown, seed: 6), "40 spm 25 Hz upside down")
        check(try run(rate: 40, accelRate: 500, mounting: .tilted, minutes: 1, seed: 7), "40 spm 500 Hz tilted")
    }

    func testWorkoutWithRests() throws {
        let profile = SimulationProfile.workout(duration: 6 * 60)
        check(try run(rate: 24, accelRate: 50, mounting: .tilted, minutes: 6, seed: 11, profile: profile), "workout")
    }
}
