import OarlogCore
@testable import OarlogDSP
import OarlogSimulator
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The fused speed's surge (`FusedSurgeFrame`, the mounting estimator's frozen gravity and its
/// axis made perpendicular to it) and the filter's start, restart and per-stroke extremes, against
/// values known here.
final class FusedSpeedFrameTests: XCTestCase {
    /// A sensor re-mounted at 90 s: turned 40° about its z axis and tipped 30° about x. Gravity
    /// is frozen again (at least once while the estimator's 5 s gravity swings over; one NaN
    /// fused surge marks each, the filter's sign to restart its bias), and at the end the fused
    /// axis lies within 3° of the true bow axis in the turned sensor.
    func testGravityIsFrozenAgainWhenTheSensorMoves() throws {
        var configuration = SimulationConfiguration(minutes: 3, rate: 24)
        configuration.gpsDropoutsPerHour = 0
        configuration.seed = 11
        var simulator = try BoatSimulator(configuration: configuration)
        let bowBefore = configuration.mounting.sensorToBoat.transposed.apply(SIMD3(1, 0, 0))
        let turn = Rotation3.aboutX(30 * .pi / 180) * Rotation3.aboutZ(40 * .pi / 180)
        var mounting = MountingEstimator()
        var nansAfterStart = 0, finite = 0
        while let record = try simulator.next() {
            guard case .accel(var sample) = record else { continue }
            if sample.time >= 90 {
                let v = turn.apply(SIMD3(Double(sample.x), Double(sample.y), Double(sample.z)))
                sample = AccelSample(time: sample.time, x: Float(v.x), y: Float(v.y), z: Float(v.z))
            }
            guard mounting.surge(of: sample) != nil else { continue }
            if mounting.fusedSurge.isNaN { if finite > 0 { nansAfterStart += 1 } } else { finite += 1 }
        }
        let frame = try XCTUnwrap(mounting.fusedSurgeAxis)
        XCTAssertGreaterThanOrEqual(frame.refreezes, 1, "frozen again")
        XCTAssertLessThanOrEqual(frame.refreezes, 8, "only while gravity swings over")
        XCTAssertEqual(nansAfterStart, frame.refreezes, "one NaN for each")
        let bowAfter = turn.apply(bowBefore)
        let angle = acos(min(1, abs((frame.axis * bowAfter).sum()))) * 180 / .pi
        XCTAssertLessThan(angle, 3, "the fused axis follows the turned bow axis")
    }

    /// The accelerometer starts driving the speed only at a sample within `startWindow` of the
    /// fix that set it; a NaN surge while driven restarts the bias (and the next fix sets the speed).
    func testStartWindowAndBiasRestart() {
        var f = FusedSpeedFilter(noise: .init(), interval: 0.1, gravityTimeConstant: 0)
        f.correct(time: 0, receiverSpeed: 4)
        f.predict(time: 0.3, surge: 1)             // 0.3 s after the fix: too late
        f.predict(time: 0.31, surge: 1)
        XCTAssertFalse(f.driven)
        XCTAssertEqual(f.speed ?? 0, 4, accuracy: 1e-12, "held")
        f.correct(time: 1, receiverSpeed: 4.2)
        f.predict(time: 1.01, surge: 1)            // within 0.1 s: drives
        f.predict(time: 1.02, surge: 1)
        XCTAssertTrue(f.driven)
        XCTAssertEqual(f.speed ?? 0, 4.2 + 0.02, accuracy: 1e-9, "4.2 + 1 m/s² × 0.02 s")
        f.predict(time: 1.03, surge: .nan)         // a new frame
        XCTAssertFalse(f.driven)
        XCTAssertEqual(f.bias, 0)
    }

    /// A stroke's extremes from the history: a speed swinging as 4 + 0.5 sin(2π t / 2.5) (the
    /// surge its derivative), 100 Hz, Doppler exact at 1 Hz: the lowest and highest over one
    /// period within 2 mm/s of 3.5 and 4.5, though the history's entries are 0.1 s apart.
    func testStrokeExtremesAtTheSampleRate() {
        var f = FusedSpeedFilter(noise: .init(), interval: 0.1, gravityTimeConstant: 0)
        let w = 2 * Double.pi / 2.5
        func v(_ t: Double) -> Double { 4 + 0.5 * sin(w * t) }
        f.correct(time: 0, receiverSpeed: v(0))
        for k in 1...2000 {
            let t = Double(k) / 100
            f.predict(time: t, surge: Float(0.5 * w * cos(w * t)))
            if k % 100 == 0 { f.correct(time: t, receiverSpeed: v(t)) }
        }
        let x = f.history.extremes(from: 12.03, to: 14.53)
        XCTAssertEqual(x?.lowest ?? 0, 3.5, accuracy: 0.002)
        XCTAssertEqual(x?.highest ?? 0, 4.5, accuracy: 0.002)
    }
}
