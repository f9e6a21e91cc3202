import XCTest
import Foundation
import OarlogCore
import OarlogDSP

final class MountingEstimatorTests: XCTestCase {
    func testAxisParsing() {
        XCTAssertEqual(MountingAxis("+x"), .fixed(SIMD3(1, 0, 0)))
        XCTAssertEqual(MountingAxis("-y"), .fixed(SIMD3(0, -1, 0)))
        XCTAssertEqual(MountingAxis("z"), .fixed(SIMD3(0, 0, 1)))
        XCTAssertEqual(MountingAxis("0.6, -0.8, 0"), .fixed(SIMD3(0.6, -0.8, 0)))
        XCTAssertEqual(MountingAxis("auto"), .estimated)
        XCTAssertNil(MountingAxis("q"))
        XCTAssertNil(MountingAxis("1,2"))
        XCTAssertNil(MountingAxis("0,0,0"))
    }

    /// Surge recovered from rotated raw samples (with heave and noise) against the known surge.
    func testEstimatedMountingRecoversGravityAxisAndSurge() throws {
        let trace = try QuiskeTrace(sampleRate: 100)
        for mounting in [Mounting.flat, .uprightBackwards, .skew, .phoneHolder] {
            var estimator = MountingEstimator()
            var settledAt: Seconds? = nil
            var squaredError = 0.0, squaredSignal = 0.0
            for (i, s) in trace.samples(mounting: mounting, noiseSigma: 0.05, heave: 0.8).enumerated() {
                guard let surge = estimator.surge(of: s) else { continue }
                if settledAt == nil { settledAt = s.time }
                if s.time > 20 {
                    let e = Double(surge - trace.surge[i])
                    squaredError += e * e
                    squaredSignal += Double(trace.surge[i] * trace.surge[i])
                }
            }
            // Settles within two strokes and a half of rowing (gravity 1 s + motion 5 s + a bit).
            let settled = try XCTUnwrap(settledAt, "\(mounting)")
            XCTAssertLessThan(settled, 8, "\(mounting)")
            let g = try XCTUnwrap(estimator.gravity)
            let gTrue = mounting.apply(SIMD3(0, 0, Double(standardGravity)))
            XCTAssertLessThan(((g - gTrue) * (g - gTrue)).sum().squareRoot(), 0.1, "\(mounting): gravity \(g)")
            let axis = try XCTUnwrap(estimator.surgeAxis)
            XCTAssertGreaterThan((axis * mounting.apply(SIMD3(1, 0, 0))).sum(), 0.995, "\(mounting)")
            // The surge after settling: RMS error under 10 % of the signal's RMS (heave 0.8 m/s²
            // rejected, gravity's slow low-pass takes a little of the stroke's lowest frequencies).
            let relative = (squaredError / squaredSignal).squareRoot()
            print("\(mounting): settled at \(settled) s, surge RMS error \(relative * 100) %")
            XCTAssertLessThan(relative, 0.1, "\(mounting)")
        }
    }

    func testConfiguredAxisSkipsEstimation() throws {
        let trace = try QuiskeTrace(sampleRate: 50)
        // Sensor x points to the stern: the bow is -x.
        var estimator = MountingEstimator(configuration: .init(axis: MountingAxis("-x")!))
        var first: Seconds? = nil
        var maxError: Float = 0
        for (i, s) in trace.samples(mounting: .uprightBackwards).enumerated() {
            guard let surge = estimator.surge(of: s) else { continue }
            if first == nil { first = s.time }
            if s.time > 10 { maxError = max(maxError, abs(surge - trace.surge[i])) }
        }
        // Only gravity settles: 1 s.
        XCTAssertEqual(try XCTUnwrap(first), 1, accuracy: 0.05)
        XCTAssertLessThan(maxError, 0.6)
        XCTAssertEqual(try XCTUnwrap(estimator.surgeAxis).x, -1, accuracy: 1e-3)
    }

    func testSittingStillNeverSettles() {
        var estimator = MountingEstimator()
        var noise = SeededNoise(seed: 9)
        for i in 0..<(60 * 100) {
            let t = Double(i) / 100
            let s = AccelSample(time: t, x: 0.3 + noise.gaussian(sigma: 0.05), y: noise.gaussian(sigma: 0.05),
                                z: 9.8 + Float(0.5 * sin(2 * Double.pi * 0.9 * t)) + noise.gaussian(sigma: 0.05))
            XCTAssertNil(estimator.surge(of: s))
        }
        XCTAssertFalse(estimator.isSettled)
        XCTAssertNil(estimator.surgeAxis)
    }

    /// The samples held while settling are replayed so the first strokes are not lost.
    func testSettlingHistoryIsReplayed() throws {
        let trace = try QuiskeTrace(sampleRate: 100)
        var estimator = MountingEstimator()
        var replayed: [(Seconds, Float)] = []
        for s in trace.samples(mounting: .skew) {
            if estimator.surge(of: s) != nil {
                XCTAssertTrue(estimator.hasSettlingHistory)
                estimator.drainSettlingHistory { replayed.append(($0, $1)) }
                XCTAssertFalse(estimator.hasSettlingHistory)
                break
            }
        }
        // Everything from the start (the window is 10 s), in order, projected right.
        XCTAssertEqual(try XCTUnwrap(replayed.first).0, 0)
        XCTAssertGreaterThan(replayed.count, 500)
        for (k, r) in replayed.enumerated() where k % 50 == 0 {
            XCTAssertEqual(r.0, trace.times[k], accuracy: 1e-9)
            XCTAssertEqual(r.1, trace.surge[k], accuracy: 0.4, "t = \(r.0)")
        }
    }
}
