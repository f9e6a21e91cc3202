import Foundation
import OarlogCore
@testable import OarlogSimulator
import XCTest
import OarlogTestSupport

/// Everything a test wants from one simulated session.
struct SimulatedSession {
    var accel: [AccelSample] = []
    var boatFrames: [BoatSimulator.BoatFrameSample] = []
    var fixes: [GPSFix] = []
    var metadata: [(key: String, value: String)] = []
    var truth: GroundTruth
}

/// Runs a session to its end, keeping every record (tests only: sessions of minutes).
func simulate(_ configuration: SimulationConfiguration, keepBoatFrames: Bool = true) throws -> SimulatedSession {
    var simulator = try BoatSimulator(configuration: configuration)
    var session = SimulatedSession(truth: simulator.groundTruth)
    var lastTime = -1.0
    while let record = try simulator.next() {
        if let t = record.time {
            XCTAssertGreaterThanOrEqual(t, lastTime, "records out of time order")
            lastTime = t
        }
        switch record {
        case .accel(let sample):
            session.accel.append(sample)
            if keepBoatFrames, let frame = simulator.lastBoatFrame { session.boatFrames.append(frame) }
        case .fix(let fix): session.fixes.append(fix)
        case .metadata(let key, let value): session.metadata.append((key, value))
        default: XCTFail("unexpected record \(record)")
        }
    }
    session.truth = simulator.groundTruth
    return session
}

/// A quiet configuration: no sensor noise, no GPS outages.
func noiseFree(_ configuration: SimulationConfiguration) -> SimulationConfiguration {
    var quiet = configuration.withNoise(scale: 0)
    quiet.gpsDropoutsPerHour = 0
    return quiet
}

/// The geodesic distance on the WGS 84 ellipsoid the simulator places its fixes on.
func geodesic(_ a: GPSFix, _ b: GPSFix) -> Double {
    Geodesy.distance(from: a.point, to: b.point)
}

func mean(_ values: [Double]) -> Double {
    values.reduce(0, +) / Double(max(1, values.count))
}
