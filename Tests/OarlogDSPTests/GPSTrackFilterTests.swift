import XCTest
import OarlogCore
@testable import OarlogDSP

/// The fused GPS track: no creep at rest, no credit for drift when moving off, glitches judged by
/// the speed they imply, the receiver's speed used where it is given.
final class GPSTrackFilterTests: XCTestCase {
    private func accumulate(_ fixes: [GPSFix]) -> DistanceAccumulator {
        var acc = DistanceAccumulator()
        for f in fixes { acc.process(f) }
        acc.finish()
        return acc
    }

    private static let start = GeoPoint(latitude: 52.2253, longitude: 6.8456)

    /// Rows `before` m at 4 m/s, stops, drifts at `drift` m/s sideways for `rest` s, rows `after` m.
    private static func rowRestDriftRow(before: Metres, rest: Seconds, drift: MetresPerSecond, after: Metres)
        -> (Seconds) -> (GeoPoint, MetresPerSecond, Degrees) {
        let speed = 4.0, bearing = 80.0
        let t1 = before / speed, t2 = t1 + rest
        let stop = Geodesy.destination(from: start, distance: before, bearing: bearing)
        let restart = Geodesy.destination(from: stop, distance: drift * rest, bearing: bearing + 90)
        return { t in
            if t <= t1 { return (Geodesy.destination(from: start, distance: speed * t, bearing: bearing), speed, bearing) }
            if t <= t2 { return (Geodesy.destination(from: stop, distance: drift * (t - t1), bearing: bearing + 90), drift, bearing + 90) }
            return (Geodesy.destination(from: restart, distance: speed * (t - t2), bearing: bearing), speed, bearing)
        }
    }

    func testBoatAtRestDriftingOrJitteringAddsAlmostNothing() {
        for drift in [0.0, 0.1, 0.2, 0.3] {
            let path: (Seconds) -> (GeoPoint, MetresPerSecond, Degrees) = { t in
                (Geodesy.destination(from: Self.start, distance: drift * t, bearing: 200), drift, 200)
            }
            for withSpeed in [true, false] {
                let track = GPSTestTrack.make(rate: 1, duration: 600, noise: .white(rms: 0.6), seed: 21, withSpeed: withSpeed, path: path)
                let acc = accumulate(track.fixes)
                // Drift of 0.3 m/s for 10 min is 180 m of real movement; a rowing device books none of it.
                XCTAssertLessThan(acc.distance, 3, "drift \(drift) m/s, speed \(withSpeed)")
            }
        }
    }

    func testMovingOffAfterADriftingRestDoesNotCreditTheDrift() {
        // 400 m, 90 s drifting 0.25 m/s (22 m sideways), 400 m: a rowing device shows 800 m.
        let path = Self.rowRestDriftRow(before: 400, rest: 90, drift: 0.25, after: 400)
        for withSpeed in [true, false] {
            let track = GPSTestTrack.make(rate: 1, duration: 100 + 90 + 100, noise: .white(rms: 0.4), seed: 8, withSpeed: withSpeed, path: path)
            let acc = accumulate(track.fixes)
            XCTAssertEqual(acc.distance, 800, accuracy: 800 * 0.01, "speed \(withSpeed)")
            XCTAssertLessThan(acc.distance, 800 + 10, "speed \(withSpeed): the drift is not credited")
        }
    }

    func testGlitchOfThirtyFiveMetresBetweenStrokesIsRejectedAndTenHertzJitterIsNot() {
        // One fix per stroke (3.3 s) at 3.3 m/s with the device's speed; one fix moved 35 m sideways.
        var track = GPSTestTrack.make(rate: 1 / 3.3, duration: 600, noise: .white(rms: 1), seed: 4,
                                      accuracy: nil, path: GPSTestTrack.straight(speed: 3.3))
        let clean = accumulate(track.fixes).distance
        for (k, bearing) in [(60, 153.0), (120, 243.0), (150, 63.0)] {  // sideways both ways, and backwards
            let p = Geodesy.destination(from: track.fixes[k].point, distance: 35, bearing: bearing)
            track.fixes[k].latitude = p.latitude
            track.fixes[k].longitude = p.longitude
        }
        let acc = accumulate(track.fixes)
        XCTAssertEqual(acc.rejectedFixes, 3)
        XCTAssertEqual(acc.reanchors, 0)
        XCTAssertEqual(acc.distance, clean, accuracy: 5)

        let fast = GPSTestTrack.make(rate: 10, duration: 120, noise: .white(rms: 0.5), seed: 5, withSpeed: false,
                                     accuracy: nil, path: GPSTestTrack.straight(speed: 5))
        XCTAssertEqual(accumulate(fast.fixes).rejectedFixes, 0, "10 Hz jitter implies high speeds between fixes, not glitches")
    }

    func testPositionJitterDoesNotMakeTheDistanceReadLong() {
        // 1 Hz, 0.5 m of jitter per axis: the plain sum reads about 1 % long at 4 m/s.
        for withSpeed in [true, false] {
            let track = GPSTestTrack.make(rate: 1, duration: 500, noise: .white(rms: 0.7), seed: 11, withSpeed: withSpeed,
                                          path: GPSTestTrack.straight(speed: 4))
            XCTAssertGreaterThan(GPSTestTrack.plainSum(track.fixes), track.trueDistance * 1.005)
            let acc = accumulate(track.fixes)
            XCTAssertEqual(acc.distance, track.trueDistance, accuracy: track.trueDistance * 0.003, "speed \(withSpeed)")
        }
    }

    func testFilterFollowsTheReceiverSpeed() {
        let track = GPSTestTrack.make(rate: 1, duration: 120, noise: .white(rms: 2), seed: 2, path: GPSTestTrack.straight(speed: 4.2))
        var filter = GPSTrackFilter()
        for f in track.fixes { filter.update(f, positionSigma: 1.5) }
        XCTAssertEqual(filter.speed, 4.2, accuracy: 0.1)
        let p = try! XCTUnwrap(filter.position)
        XCTAssertLessThan(Geodesy.distance(from: p, to: GPSTestTrack.straight(speed: 4.2)(120).0), 2)
    }
}
