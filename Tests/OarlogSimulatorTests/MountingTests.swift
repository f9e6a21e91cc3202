import OarlogCore
@testable import OarlogSimulator
import XCTest

final class MountingTests: XCTestCase {
    let mountings: [Mounting] = [.flat, .upright, .tilted, .upsideDown, Mounting(yaw: 30, pitch: -80, roll: 10),
                                 Mounting(yaw: -135, pitch: 40, roll: 200)]

    func testPresetsPutGravityOnTheDocumentedAxis() {
        let up = SIMD3<Double>(0, 0, 9.80665)
        let bow = SIMD3<Double>(1, 0, 0)
        func sensor(_ m: Mounting, _ v: SIMD3<Double>) -> SIMD3<Double> { m.sensorToBoat.transposed.apply(v) }
        assertClose(sensor(.flat, up), SIMD3(0, 0, 9.80665))
        assertClose(sensor(.upright, up), SIMD3(0, 9.80665, 0))
        assertClose(sensor(.upright, bow), SIMD3(0, 0, 1))
        assertClose(sensor(.upsideDown, up), SIMD3(0, 0, -9.80665))
        assertClose(sensor(.upsideDown, bow), SIMD3(1, 0, 0))
    }

    func testGravityMagnitudeAveragesToStandardGravityInEveryMounting() throws {
        for mounting in mountings {
            var configuration = SimulationConfiguration(minutes: 1, rate: 24)
            configuration.mounting = mounting
            configuration.accelRate = 50
            for quiet in [true, false] {
                let session = try simulate(quiet ? noiseFree(configuration) : configuration, keepBoatFrames: false)
                let n = Double(session.accel.count)
                let average = session.accel.reduce(SIMD3<Double>(0, 0, 0)) {
                    $0 + SIMD3(Double($1.x), Double($1.y), Double($1.z))
                } / n
                let magnitude = (average * average).sum().squareRoot()
                // Noise-free: only the boat's trim and roll (well under 1°) and the mean surge.
                XCTAssertEqual(magnitude, 9.80665, accuracy: quiet ? 0.01 : 0.35, "\(mounting) quiet \(quiet)")
                // The direction is the mounting's "up".
                let expectedUp = mounting.sensorToBoat.transposed.apply(SIMD3(0, 0, 9.80665))
                let error = average - expectedUp
                XCTAssertLessThan((error * error).sum().squareRoot(), quiet ? 0.1 : 0.45, "\(mounting)")
                // Per-sample magnitude: surge and heave add in quadrature to g, so its mean sits a
                // little above g (by about mean(surge² + heave²) / 2g ≈ 0.2 m/s²).
                let magnitudes = session.accel.map { (Double($0.x * $0.x + $0.y * $0.y + $0.z * $0.z)).squareRoot() }
                XCTAssertGreaterThan(mean(magnitudes), 9.80665 - (quiet ? 0.01 : 0.3))
                XCTAssertLessThan(mean(magnitudes), 9.80665 + (quiet ? 0.4 : 0.7))
            }
        }
    }

    func testInverseMountingRecoversTheBoatFrameSurge() throws {
        for mounting in mountings {
            var configuration = noiseFree(SimulationConfiguration(minutes: 0.5, rate: 30))
            configuration.mounting = mounting
            configuration.boatMotion = false
            configuration.accelRate = 100
            let session = try simulate(configuration)
            let toBoat = mounting.sensorToBoat
            var worst = 0.0
            for (sample, frame) in zip(session.accel, session.boatFrames) {
                let boat = toBoat.apply(SIMD3(Double(sample.x), Double(sample.y), Double(sample.z)))
                worst = max(worst, abs(boat.x - frame.surge))
                XCTAssertEqual(boat.z, 9.80665, accuracy: 1e-4)
                XCTAssertEqual(boat.y, 0, accuracy: 1e-4)
            }
            XCTAssertLessThan(worst, 1e-4, "\(mounting)")
            // With the boat's motion on, the recovered x is surge plus the pitch's share of gravity.
            configuration.boatMotion = true
            let moving = try simulate(configuration)
            for (sample, frame) in zip(moving.accel, moving.boatFrames) {
                let boat = toBoat.apply(SIMD3(Double(sample.x), Double(sample.y), Double(sample.z)))
                XCTAssertEqual(boat.x, frame.specificForce.x, accuracy: 1e-4)
                // Pitch is at most 0.4° trim + 0.5° × motion level (1.17 at 30 spm) + 0.15° swell.
                XCTAssertEqual(boat.x, frame.surge, accuracy: 9.81 * sin(1.4 * .pi / 180))
            }
        }
    }

    func testBiasAndNoiseHaveTheConfiguredSize() throws {
        var configuration = SimulationConfiguration(minutes: 0.5, rate: 24)
        configuration.mounting = .tilted
        configuration.accelNoise = 0.2
        configuration.accelRate = 200
        var simulator = try BoatSimulator(configuration: configuration)
        let toSensor = configuration.mounting.sensorToBoat.transposed
        var residuals: [Double] = []
        var meanResidual = SIMD3<Double>(0, 0, 0)
        while let record = try simulator.next() {
            guard case .accel(let s) = record, let frame = simulator.lastBoatFrame else { continue }
            let clean = toSensor.apply(frame.specificForce)
            let r = SIMD3(Double(s.x), Double(s.y), Double(s.z)) - clean
            residuals.append(r.x - simulator.accelerometerBias.x)
            meanResidual += r
        }
        meanResidual /= Double(residuals.count)
        let bias = simulator.accelerometerBias
        for axis in 0..<3 { XCTAssertEqual(meanResidual[axis], bias[axis], accuracy: 0.01) }
        XCTAssertGreaterThan((bias * bias).sum(), 0)
        let deviation = (residuals.map { $0 * $0 }.reduce(0, +) / Double(residuals.count)).squareRoot()
        XCTAssertEqual(deviation, 0.2, accuracy: 0.01)
    }

    func testParsing() throws {
        XCTAssertEqual(try Mounting.parse("flat"), .flat)
        XCTAssertEqual(try Mounting.parse(" Upright "), .upright)
        XCTAssertEqual(try Mounting.parse("upside-down"), .upsideDown)
        XCTAssertEqual(try Mounting.parse("tilted"), .tilted)
        XCTAssertEqual(try Mounting.parse("yaw=30,pitch=-80,roll=10"), Mounting(yaw: 30, pitch: -80, roll: 10))
        XCTAssertEqual(try Mounting.parse("roll=45"), Mounting(yaw: 0, pitch: 0, roll: 45))
        XCTAssertThrowsError(try Mounting.parse("sideways"))
        XCTAssertThrowsError(try Mounting.parse("yaw=abc"))
        XCTAssertThrowsError(try Mounting.parse("tilt=3"))
        XCTAssertEqual(Mounting(yaw: 30, pitch: -80, roll: 10).description, "yaw=30.0,pitch=-80.0,roll=10.0")
        XCTAssertEqual(try Mounting.parse(Mounting.tilted.description), .tilted)
    }

    private func assertClose(_ a: SIMD3<Double>, _ b: SIMD3<Double>, file: StaticString = #filePath, line: UInt = #line) {
        for axis in 0..<3 { XCTAssertEqual(a[axis], b[axis], accuracy: 1e-9, file: file, line: line) }
    }
}
