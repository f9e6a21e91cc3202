import OarlogCore
@testable import OarlogSimulator
import XCTest

final class GPSTests: XCTestCase {
    /// Noise-free fixes lie on the true track: the sum of fix-to-fix distances equals the true
    /// distance between the first and last fix.
    func testNoiseFreeFixesReproduceTheTrueDistance() throws {
        let courses: [SimulationConfiguration.Course] = [.straight, .curving(amplitude: 25, wavelength: 3000)]
        for course in courses {
            for gpsRate in [1.0, 10.0] {
                var configuration = noiseFree(SimulationConfiguration(minutes: 6, rate: 30))
                configuration.course = course
                configuration.gpsRate = gpsRate
                configuration.accelRate = 10
                let session = try simulate(configuration)
                var travelled = 0.0
                for (a, b) in zip(session.fixes, session.fixes.dropFirst()) { travelled += geodesic(a, b) }
                let distanceAt = { (t: Double) in session.boatFrames.first { abs($0.time - t) < 1e-9 }!.distance }
                let truth = distanceAt(session.fixes.last!.time) - distanceAt(session.fixes.first!.time)
                XCTAssertGreaterThan(truth, 1500)
                print("GPS \(course) at \(gpsRate) Hz: fixes \(travelled) m, truth \(truth) m, relative error \((travelled - truth) / truth)")
                XCTAssertEqual(travelled, truth, accuracy: truth * 0.001, "\(course) at \(gpsRate) Hz")
                // Receiver speed is the true speed.
                for fix in session.fixes.prefix(50) {
                    let frame = session.boatFrames.first { abs($0.time - fix.time) < 1e-9 }
                    if let frame { XCTAssertEqual(fix.speed!, max(0, frame.speed), accuracy: 1e-9) }
                }
            }
        }
    }

    func testStraightCourseKeepsItsHeading() throws {
        var configuration = noiseFree(SimulationConfiguration(minutes: 3, rate: 24))
        configuration.heading = 45
        let fixes = try simulate(configuration, keepBoatFrames: false).fixes
        let first = fixes[0], last = fixes.last!
        XCTAssertEqual(Geodesy.initialBearing(from: first.point, to: last.point), 45, accuracy: 0.01)
        XCTAssertEqual(first.latitude, configuration.startLatitude, accuracy: 1e-6)
        XCTAssertTrue(fixes.dropFirst(5).allSatisfy { abs($0.course! - 45) < 1e-6 })
    }

    func testNoisyFixesScatterByMetresAndReportAccuracy() throws {
        var configuration = SimulationConfiguration(minutes: 10, rate: 24)
        configuration.gpsDropoutsPerHour = 0
        configuration.accelRate = 10
        let session = try simulate(configuration)
        let clean = noiseFree(configuration)
        let cleanFixes = try simulate(clean, keepBoatFrames: false).fixes
        XCTAssertEqual(session.fixes.count, cleanFixes.count)
        let errors = zip(session.fixes, cleanFixes).map { geodesic($0, $1) }
        let rms = (errors.map { $0 * $0 }.reduce(0, +) / Double(errors.count)).squareRoot()
        // Two axes of sqrt(1.5² + 0.3²) m: about 2.2 m RMS, from one seed's wander.
        print("GPS position error RMS \(rms) m")
        XCTAssertGreaterThan(rms, 0.8)
        XCTAssertLessThan(rms, 5)
        let accuracies = session.fixes.map { $0.horizontalAccuracy! }
        XCTAssertEqual(mean(accuracies), 0.8 + 2 * (configuration.gpsWander * configuration.gpsWander
            + configuration.gpsJitter * configuration.gpsJitter).squareRoot(), accuracy: 0.2)
        let speedErrors = zip(session.fixes, cleanFixes).map { $0.speed! - $1.speed! }
        let speedRMS = (speedErrors.map { $0 * $0 }.reduce(0, +) / Double(speedErrors.count)).squareRoot()
        XCTAssertEqual(speedRMS, configuration.gpsSpeedNoise, accuracy: 0.01)  // 0.07 m/s by default
        XCTAssertEqual(configuration.gpsSpeedNoise, 0.07)
        // Positions only: no speed and no course in any fix, positions as before.
        var positionsOnly = configuration
        positionsOnly.gpsReportsSpeed = false
        let bare = try simulate(positionsOnly, keepBoatFrames: false).fixes
        XCTAssertTrue(bare.allSatisfy { $0.speed == nil && $0.course == nil })
        XCTAssertEqual(bare.map(\.latitude), session.fixes.map(\.latitude))
        XCTAssertTrue(session.fixes.allSatisfy { $0.mode == .threeD && $0.utc == configuration.startUTC + $0.time })
    }

    func testDropoutsLeaveGapsOfSecondsAndNothingElseChanges() throws {
        var configuration = SimulationConfiguration(minutes: 30, rate: 20)
        configuration.gpsDropoutsPerHour = 30
        configuration.accelRate = 5
        let session = try simulate(configuration, keepBoatFrames: false)
        let gaps = zip(session.fixes, session.fixes.dropFirst()).map { $1.time - $0.time }.filter { $0 > 1.5 }
        XCTAssertGreaterThan(gaps.count, 4)
        XCTAssertLessThan(gaps.count, 30)
        XCTAssertTrue(gaps.allSatisfy { $0 >= 3 && $0 <= 22 })
        var without = configuration
        without.gpsDropoutsPerHour = 0
        let full = try simulate(without, keepBoatFrames: false)
        XCTAssertEqual(full.fixes.count, 1800)
        // Outages remove fixes; the ones left are the same fixes.
        let byTime = Dictionary(uniqueKeysWithValues: full.fixes.map { ($0.time, $0) })
        for fix in session.fixes { XCTAssertEqual(fix, byTime[fix.time]) }
        XCTAssertEqual(session.truth.strokes, full.truth.strokes)
    }
}
