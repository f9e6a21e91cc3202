import XCTest
import OarlogCore
@testable import OarlogDSP

final class DistanceAccumulatorTests: XCTestCase {
    private func accumulate(_ fixes: [GPSFix], configuration: DistanceConfiguration = .init()) -> DistanceAccumulator {
        var acc = DistanceAccumulator(configuration: configuration)
        for f in fixes { acc.process(f) }
        acc.finish()
        return acc
    }

    func testCleanMovingFixesGiveTheTrueDistance() {
        // Exact positions, the receiver's speed with 0.03 m/s of noise: the filtered track's length
        // is the true 2,000 m to a few centimetres.
        let track = GPSTestTrack.make(rate: 1, duration: 500, noise: .none, path: GPSTestTrack.straight(speed: 4))
        let acc = accumulate(track.fixes)
        XCTAssertEqual(acc.distance, 2000, accuracy: 0.05)
        XCTAssertEqual(acc.movingTime, 500, accuracy: 1e-9)
        XCTAssertEqual(acc.rejectedFixes, 0)
    }

    func testOneAndTenHertzBoatAtFourMetresPerSecondFor2000m() {
        for rate in [1.0, 10.0] {
            let track = GPSTestTrack.make(rate: rate, duration: 500, noise: .receiverFiltered(velocity: 0.05, tau: 5),
                                          seed: 7, path: GPSTestTrack.straight(speed: 4))
            let acc = accumulate(track.fixes)
            XCTAssertEqual(track.trueDistance, 2000, accuracy: 0.01)
            XCTAssertEqual(acc.distance, track.trueDistance, accuracy: track.trueDistance * 0.003, "\(rate) Hz")
        }
    }

    func testCurveRadius100m() {
        let centre = GeoPoint(latitude: 60.0, longitude: 179.9995)  // across the antimeridian too
        let radius = 100.0, speed = 4.0
        let path: (Seconds) -> (GeoPoint, MetresPerSecond, Degrees) = { t in
            let angle = speed * t / radius * 180 / .pi
            return (Geodesy.destination(from: centre, distance: radius, bearing: angle), speed, angle + 90)
        }
        let track = GPSTestTrack.make(rate: 1, duration: 300, noise: .none, path: path)
        let acc = accumulate(track.fixes)
        XCTAssertEqual(acc.distance, speed * 300, accuracy: speed * 300 * 0.003)
    }

    func testStationaryTenMinutesWithThreeMetreNoiseAddsAlmostNothing() {
        let still: (Seconds) -> (GeoPoint, MetresPerSecond, Degrees) = { _ in (GeoPoint(latitude: 49.2389, longitude: 16.5136), 0, 0) }
        let white = GPSTestTrack.make(rate: 1, duration: 600, noise: .white(rms: 3), seed: 3, path: still)
        XCTAssertGreaterThan(GPSTestTrack.plainSum(white.fixes), 1500)  // what naive summing would give
        XCTAssertLessThan(accumulate(white.fixes).distance, 3)
        let wander = GPSTestTrack.make(rate: 1, duration: 600, noise: .receiverFiltered(velocity: 0.05, tau: 5), seed: 4, path: still)
        XCTAssertLessThan(accumulate(wander.fixes).distance, 3)
        // Without a receiver speed only positions tell: white 3 m noise is the worst case.
        let noSpeed = GPSTestTrack.make(rate: 1, duration: 600, noise: .white(rms: 3), seed: 3, withSpeed: false, path: still)
        XCTAssertLessThan(accumulate(noSpeed.fixes).distance, 20)
    }

    func testSlowPaddlingStillCounts() {
        let track = GPSTestTrack.make(rate: 1, duration: 300, noise: .white(rms: 1), seed: 5, path: GPSTestTrack.straight(speed: 1.0))
        let acc = accumulate(track.fixes)
        XCTAssertEqual(acc.distance, 300, accuracy: 300 * 0.05)
        // Without a receiver speed it still counts (in chunks while the boat leaves the hold radius).
        let noSpeed = GPSTestTrack.make(rate: 1, duration: 300, noise: .white(rms: 1), seed: 5, withSpeed: false,
                                        path: GPSTestTrack.straight(speed: 1.0))
        XCTAssertEqual(accumulate(noSpeed.fixes).distance, 300, accuracy: 300 * 0.1)
    }

    func testTeleportJumpIsRejected() {
        var track = GPSTestTrack.make(rate: 1, duration: 200, noise: .none, path: GPSTestTrack.straight(speed: 4))
        let clean = accumulate(track.fixes).distance
        let p = Geodesy.destination(from: track.fixes[100].point, distance: 300, bearing: 150)
        track.fixes[100].latitude = p.latitude
        track.fixes[100].longitude = p.longitude
        let acc = accumulate(track.fixes)
        XCTAssertEqual(acc.rejectedFixes, 1)
        XCTAssertEqual(acc.reanchors, 0)
        XCTAssertEqual(acc.distance, clean, accuracy: 0.01)
    }

    func testPersistentShiftReanchorsWithoutAddingTheJump() {
        var track = GPSTestTrack.make(rate: 1, duration: 200, noise: .none, path: GPSTestTrack.straight(speed: 4))
        for i in 100..<track.fixes.count {
            let p = Geodesy.destination(from: track.fixes[i].point, distance: 500, bearing: 200)
            track.fixes[i].latitude = p.latitude
            track.fixes[i].longitude = p.longitude
        }
        let acc = accumulate(track.fixes)
        XCTAssertEqual(acc.reanchors, 1)
        XCTAssertEqual(acc.rejectedFixes, 2)  // fixes 100, 101; 102 re-anchors
        // Pieces: 0…99 (396 m) and 102…200 (392 m). The second counts from its first fix as
        // moving (its fixes carry 4 m/s; issue 29): the smoothed track's start adds 0.08 m.
        XCTAssertEqual(acc.distance, 4 * 99 + 4 * 98, accuracy: 0.1)
    }

    func testDropoutIsBridgedByTheStraightLineWhenPlausible() {
        var track = GPSTestTrack.make(rate: 1, duration: 500, noise: .none, path: GPSTestTrack.straight(speed: 4))
        track.fixes.removeSubrange(200..<230)
        let acc = accumulate(track.fixes)
        XCTAssertEqual(acc.distance, 2000, accuracy: 0.1)
        XCTAssertEqual(acc.rejectedFixes, 0)
    }

    func testIgnoresNoFixNaNRepeatedAndBackwardTimes() {
        let track = GPSTestTrack.make(rate: 1, duration: 100, noise: .none, path: GPSTestTrack.straight(speed: 4))
        var fixes = track.fixes
        fixes.insert(fixes[50], at: 51)  // gpsd repeats an epoch
        fixes.insert(GPSFix(time: 10, latitude: 52, longitude: 7, mode: .threeD), at: 60)  // time goes backwards
        fixes.insert(GPSFix(time: 70.5, latitude: .nan, longitude: 6, mode: .threeD), at: 72)
        fixes.insert(GPSFix(time: 80.5, latitude: 52.3, longitude: 6.9, mode: .noFix), at: 83)
        let acc = accumulate(fixes)
        XCTAssertEqual(acc.ignoredFixes, 4)
        XCTAssertEqual(acc.distance, 400, accuracy: 0.05)
    }

    func testFourDecimalPositionsDoNotInflateDistance() {
        // A SpeedCoach-like export: one fix per stroke (3.2 s), 4 decimals, on a slow curve.
        // The boat follows its heading (the receiver's speed and course are its true velocity):
        // the path is stepped every 0.1 s along the bending heading.
        let start = GeoPoint(latitude: 49.2389, longitude: 16.5136)
        let speed = 3.2
        func bearing(_ t: Seconds) -> Degrees { 30 + 40 * sin(t / 300) }
        var points = [start]
        for k in 0..<12_001 {
            points.append(Geodesy.destination(from: points[k], distance: speed * 0.1, bearing: bearing((Double(k) + 0.5) * 0.1)))
        }
        let path: (Seconds) -> (GeoPoint, MetresPerSecond, Degrees) = { t in
            (points[min(points.count - 1, Int((t * 10).rounded()))], speed, bearing(t))
        }
        var track = GPSTestTrack.make(rate: 1 / 3.2, duration: 1200, noise: .white(rms: 1), seed: 9, path: path)
        for i in track.fixes.indices {
            track.fixes[i].latitude = (track.fixes[i].latitude * 1e4).rounded() / 1e4
            track.fixes[i].longitude = (track.fixes[i].longitude * 1e4).rounded() / 1e4
        }
        let truth = track.trueDistance
        XCTAssertGreaterThan(GPSTestTrack.plainSum(track.fixes), truth * 1.03)  // the staircase
        let acc = accumulate(track.fixes)
        XCTAssertTrue(acc.isSmoothingCoarsePositions)
        XCTAssertEqual(acc.resolution.decimals, 4)
        XCTAssertEqual(acc.distance, truth, accuracy: truth * 0.01)
    }

    func testHistoryInterpolatesDistanceAndReceiverSpeedBetweenFixes() {
        let track = GPSTestTrack.make(rate: 1, duration: 60, noise: .none, path: GPSTestTrack.straight(speed: 4))
        var acc = DistanceAccumulator()
        for f in track.fixes { acc.process(f) }
        let d = try! XCTUnwrap(acc.history.distance(at: 10.25))
        XCTAssertEqual(d, 41, accuracy: 0.05)
        XCTAssertNil(acc.history.distance(at: 60.5))
        XCTAssertNil(acc.history.distance(at: -1))
        let v = try! XCTUnwrap(acc.history.meanReceiverSpeed(from: 10.5, to: 13.7))
        XCTAssertEqual(v, 4, accuracy: 0.05)
    }
}
