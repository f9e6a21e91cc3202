import OarlogCore
import OarlogDSP
import OarlogSimulator
import XCTest

/// Where the fused split's per-stroke error comes from (docs/SPEED.md, "Measured"): the filter
/// itself, given the boat's true surge, holds each stroke's mean speed to the truth within the
/// issue's 0.5 s/500 m (about 0.018 m/s at 4 m/s); the surge the mounting estimator projects and
/// the restorer undoes is what it is not yet good enough with.
final class FusedSpeedSurgeSourceTests: XCTestCase {
    /// Each stroke's mean speed from the filter's history against the truth's, rms, m/s, after
    /// `from` seconds; `surge` gives the filter's input for a sample (nil: skip it).
    private func perStrokeError(noise: FusedSpeedFilter.Noise, restores: Bool, from: Seconds,
                                mounting mountingConfiguration: MountingEstimatorConfiguration = .init(),
                                simulation: (inout SimulationConfiguration) throws -> Void = { _ in },
                                surge: (inout MountingEstimator, AccelSample, BoatSimulator.BoatFrameSample) -> Float?) throws -> Double {
        var configuration = SimulationConfiguration(minutes: 3, rate: 24)
        configuration.gpsDropoutsPerHour = 0
        configuration.seed = 7
        try simulation(&configuration)
        var simulator = try BoatSimulator(configuration: configuration)
        var mounting = MountingEstimator(configuration: mountingConfiguration)
        var filter = FusedSpeedFilter(noise: noise, interval: 0.02, gravityTimeConstant: restores ? 5 : 0)
        var times: [Seconds] = [], speeds: [MetresPerSecond] = []
        while let record = try simulator.next() {
            switch record {
            case .accel(let sample):
                guard let frame = simulator.lastBoatFrame, let s = surge(&mounting, sample, frame) else { continue }
                filter.predict(time: sample.time, surge: s)
                if filter.driven, let v = filter.speed { times.append(sample.time); speeds.append(v) }
            case .fix(let fix):
                if let v = fix.speed { filter.correct(time: fix.time, receiverSpeed: v) }
            default:
                break
            }
        }
        let truth = simulator.groundTruth.strokes
        var squares = 0.0, n = 0
        for (a, b) in zip(truth, truth.dropFirst()) where a.catchTime > from {
            guard let truthMean = a.meanSpeed else { continue }
            let inStroke = times.indices.filter { times[$0] >= a.catchTime && times[$0] < b.catchTime }.map { speeds[$0] }
            guard inStroke.count > 10 else { continue }
            let e = inStroke.reduce(0, +) / Double(inStroke.count) - truthMean
            squares += e * e
            n += 1
        }
        XCTAssertGreaterThan(n, 40)
        return (squares / Double(max(1, n))).squareRoot()
    }

    /// The true surge (no pitch, no mounting), a filter that trusts it (0.003 m/s²/√Hz, bias
    /// drift 0.0001 m/s²/√s) and the simulator's 0.07 m/s Doppler at 1 Hz: within 0.025 m/s
    /// rms per stroke (measured 0.018); the true specific force along the keel (the pitch's
    /// gravity in it, the bias state taking its 0.4°) within 0.025 too (measured 0.019).
    func testTrueSurgeHoldsTheStrokeMeanSpeed() throws {
        var trusting = FusedSpeedFilter.Noise()
        trusting.accelerationDensity = 0.003
        trusting.biasDrift = 0.0001
        let surge = try perStrokeError(noise: trusting, restores: false, from: 60) { _, _, frame in Float(frame.surge) }
        XCTAssertLessThan(surge, 0.025)
        let withPitch = try perStrokeError(noise: trusting, restores: false, from: 60) { _, _, frame in Float(frame.specificForce.x) }
        XCTAssertLessThan(withPitch, 0.025)
        // The stroke detector's surge (the 5 s gravity), restored, with the figures it had
        // (0.1, 0.005): measured 0.043 (docs/SPEED.md; not asserted).
        var former = FusedSpeedFilter.Noise()
        former.accelerationDensity = 0.1
        former.biasDrift = 0.005
        let projected = try perStrokeError(noise: former, restores: true, from: 60) { mounting, sample, _ in mounting.surge(of: sample) }
        print("fused per-stroke mean speed error, rms: true surge \(surge), true specific force \(withPitch), projected \(projected)")
    }

    /// The mounting's fused surge (`FusedSurgeFrame`: gravity frozen at settling, the axis the
    /// estimator's made perpendicular to it) with the filter's default figures (acceleration
    /// 0.003, bias drift 0.0001): within 0.03 m/s rms per stroke (measured 0.027, against 0.043
    /// for the 5 s gravity's surge restored and 0.019 for the true specific force).
    func testFusedSurgeHoldsTheStrokeMeanSpeed() throws {
        let fused = try perStrokeError(noise: .init(), restores: false, from: 60) { mounting, sample, _ in
            mounting.surge(of: sample).map { _ in mounting.fusedSurge }
        }
        XCTAssertLessThan(fused, 0.03)
        print("fused per-stroke mean speed error, rms: the mounting's fused surge \(fused)")
    }
}
