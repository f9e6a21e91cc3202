import XCTest
import OarlogCore
@testable import OarlogDSP

/// The fixed-lag smoother over the GPS track filter: closer to the true track than the forward
/// filter, a distance that reads less long, and the same memory for ten hours as for ten minutes.
final class GPSTrackSmootherTests: XCTestCase {
    private static let start = GeoPoint(latitude: 52.2253, longitude: 6.8456)

    /// A boat on a bend (radius 150 m) at 4 m/s: position and velocity at `t`.
    private static func bend(_ t: Seconds) -> (GeoPoint, MetresPerSecond, Degrees) {
        let radius = 150.0, speed = 4.0
        let angle = speed * t / radius
        let centre = Geodesy.destination(from: start, distance: radius, bearing: 0)
        let bearingFromCentre = 180 + angle * 180 / .pi
        let course = (bearingFromCentre + 90).truncatingRemainder(dividingBy: 360)
        return (Geodesy.destination(from: centre, distance: radius, bearing: bearingFromCentre), speed, course)
    }

    func testSmoothedTrackIsCloserToTheTruthThanTheForwardFilter() {
        // 1 Hz, 2 m rms of white jitter, positions only, 300 s on a bend (1.2 km, inside one plane).
        let track = GPSTestTrack.make(rate: 1, duration: 300, noise: .white(rms: 2), seed: 29, withSpeed: false,
                                      accuracy: nil, path: Self.bend)
        var filter = GPSTrackFilter()
        var smoother = GPSTrackSmoother<Seconds>(lag: 20, filler: 0)
        var forwardSquares = 0.0, smoothedSquares = 0.0, forwardCount = 0, smoothedCount = 0
        func take(_ s: GPSTrackSmoother<Seconds>.State) {
            guard s.tag >= 20, let p = filter.point(east: s.east, north: s.north) else { return }  // after the start-up
            let d = Geodesy.distance(from: p, to: Self.bend(s.tag).0)
            smoothedSquares += d * d
            smoothedCount += 1
        }
        for fix in track.fixes {
            filter.update(fix, positionSigma: 2 / 2.0.squareRoot(), positionsWander: false)
            if fix.time >= 20, let p = filter.position {
                let d = Geodesy.distance(from: p, to: Self.bend(fix.time).0)
                forwardSquares += d * d
                forwardCount += 1
            }
            smoother.push(filter.lastStep, tag: fix.time)
            while let s = smoother.pop() { take(s) }
        }
        smoother.flush()
        while let s = smoother.pop() { take(s) }
        XCTAssertEqual(smoothedCount, forwardCount, "every state leaves the smoother once")
        let forward = (forwardSquares / Double(forwardCount)).squareRoot()
        let smoothed = (smoothedSquares / Double(smoothedCount)).squareRoot()
        // The jitter is 1.41 m per axis; the forward filter keeps part of it, the smoother less.
        XCTAssertLessThan(forward, 1.5)
        XCTAssertLessThan(smoothed, 0.8 * forward, "forward \(forward) m rms, smoothed \(smoothed) m rms")
    }

    func testSmoothedDistanceReadsLessLongThanTheForwardOne() {
        // Positions only, 1 Hz, 2 m rms jitter, 1.2 km on a bend: the forward track reads long.
        let track = GPSTestTrack.make(rate: 1, duration: 300, noise: .white(rms: 2), seed: 7, withSpeed: false,
                                      accuracy: nil, path: Self.bend)
        func distance(_ smoothing: DistanceConfiguration.Smoothing) -> Metres {
            var c = DistanceConfiguration()
            c.smoothing = smoothing
            var acc = DistanceAccumulator(configuration: c)
            for f in track.fixes { acc.process(f) }
            acc.finish()
            return acc.distance
        }
        let forward = abs(distance(.none) - track.trueDistance)
        let smoothed = abs(distance(.fixedLag(20)) - track.trueDistance)
        XCTAssertLessThan(smoothed, 0.003 * track.trueDistance, "smoothed error \(smoothed) m of \(track.trueDistance) m")
        XCTAssertLessThan(smoothed, forward, "forward error \(forward) m, smoothed \(smoothed) m")
    }

    func testTenHoursHoldNoMoreStatesThanTheLag() {
        // 10 h at 1 Hz (36,000 fixes, 144 km): the smoother never holds more than its lag's fixes.
        var c = DistanceConfiguration()
        c.smoothing = DistanceConfiguration.replaySmoothing
        var acc = DistanceAccumulator(configuration: c)
        var mostHeld = 0
        let bearing = 63.0, speed = 4.0
        var point = Self.start
        for i in 0...36_000 {
            if i > 0 { point = Geodesy.destination(from: point, distance: speed, bearing: bearing) }
            acc.process(GPSFix(time: Double(i), latitude: point.latitude, longitude: point.longitude,
                               speed: speed, course: bearing, horizontalAccuracy: 3, mode: .threeD))
            mostHeld = max(mostHeld, acc.heldTrackStates)
        }
        XCTAssertLessThanOrEqual(mostHeld, 21, "20 s of lag at 1 Hz")
        XCTAssertGreaterThanOrEqual(mostHeld, 10, "the lag is kept")
        acc.finish()
        XCTAssertEqual(acc.heldTrackStates, 0)
        XCTAssertEqual(acc.distance, 36_000 * speed, accuracy: 36_000 * speed * 0.001)
    }

    func testAFullRingReleasesEarlyAndKeepsItsCapacity() {
        // 10 Hz with a lag of 60 s wants 600 states; a ring of 64 holds 64 and still smooths.
        var filter = GPSTrackFilter()
        var smoother = GPSTrackSmoother<Int>(lag: 60, capacity: 64, filler: 0)
        let track = GPSTestTrack.make(rate: 10, duration: 60, noise: .white(rms: 1), seed: 3, accuracy: nil,
                                      path: GPSTestTrack.straight(speed: 4))
        var released = 0, mostHeld = 0, lastTag = -1
        for (i, fix) in track.fixes.enumerated() {
            filter.update(fix, positionSigma: 1)
            smoother.push(filter.lastStep, tag: i)
            mostHeld = max(mostHeld, smoother.heldStates)
            while let s = smoother.pop() {
                XCTAssertEqual(s.tag, lastTag + 1, "in order, none lost")
                lastTag = s.tag
                released += 1
            }
        }
        smoother.flush()
        while let s = smoother.pop() { lastTag = s.tag; released += 1 }
        XCTAssertEqual(released, track.fixes.count)
        XCTAssertLessThanOrEqual(mostHeld, 64)
    }
}
