import XCTest
import OarlogCore
@testable import OarlogDSP

/// Distance from a standing start: counted from where the boat was still, the first stroke
/// included, whether the GPS saw the boat at rest or a device export's first row is already
/// metres from the start.
final class StandingStartTests: XCTestCase {
    private static let start = GeoPoint(latitude: 52.2253, longitude: 6.8456)
    private static let bearing = 63.0

    /// At rest for `rest` s, then a racing start: 0 to 5 m/s in 6 s (a steady acceleration), then 5 m/s.
    private static func racingStart(rest: Seconds) -> (Seconds) -> (GeoPoint, MetresPerSecond, Degrees) {
        { t in
            let u = max(0, t - rest)
            let d = u < 6 ? 5 * u * u / 12 : 15 + 5 * (u - 6)
            let v = u < 6 ? 5 * u / 6 : 5
            return (Geodesy.destination(from: start, distance: d, bearing: bearing), v, bearing)
        }
    }

    private func distance(_ fixes: [GPSFix], smoothing: DistanceConfiguration.Smoothing = .fixedLag(20)) -> Metres {
        var c = DistanceConfiguration()
        c.smoothing = smoothing
        var acc = DistanceAccumulator(configuration: c)
        for f in fixes { acc.process(f) }
        acc.finish()
        return acc.distance
    }

    func testARacingStartFromRestCountsFromWhereTheBoatStoodWithinAMetre() {
        // 30 s still, then 105 s of racing: 15 m in the first 6 s, 495 m after, 510 m in all.
        for withSpeed in [true, false] {
            let exact = GPSTestTrack.make(rate: 1, duration: 135, noise: .none, withSpeed: withSpeed, path: Self.racingStart(rest: 30))
            XCTAssertEqual(exact.trueDistance, 510, accuracy: 0.01)
            XCTAssertEqual(distance(exact.fixes), 510, accuracy: 1.5, "no noise (the smoother overshoots the knee by up to 1 m), receiver speed \(withSpeed)")
            XCTAssertEqual(distance(exact.fixes, smoothing: .none), 510, accuracy: 1, "forward only, receiver speed \(withSpeed)")
            for seed: UInt64 in [1, 2, 3] {
                // 0.5 m of jitter: the track's length over 480 m gains a little, under 1.5 m.
                let track = GPSTestTrack.make(rate: 1, duration: 135, noise: .white(rms: 0.5), seed: seed, withSpeed: withSpeed,
                                              path: Self.racingStart(rest: 30))
                XCTAssertEqual(distance(track.fixes), 510, accuracy: 1.5, "seed \(seed), receiver speed \(withSpeed)")
            }
        }
    }

    /// One fix per stroke (every 3.2 s from the first stroke's end) of a boat rowing off at 4 m/s,
    /// as a device export writes them: its first row is at 3.2 s, 12.8 m from the start.
    private static func perStrokeFixes(count: Int) -> [GPSFix] {
        (1...count).map { i in
            let t = 3.2 * Double(i)
            let p = Geodesy.destination(from: start, distance: 4 * t, bearing: bearing)
            return GPSFix(time: t, latitude: p.latitude, longitude: p.longitude, speed: 4, course: bearing,
                          horizontalAccuracy: 3, mode: .threeD)
        }
    }

    func testADeviceExportsFirstDistanceCountsWhicheverRecordComesFirst() {
        let fixes = Self.perStrokeFixes(count: 100)
        let gps = 4 * (fixes.last!.time - fixes.first!.time)  // what the fixes span: 1,267.2 m
        for referenceFirst in [true, false] {
            var acc = DistanceAccumulator()
            for (i, f) in fixes.enumerated() {
                let device = 4 * f.time  // the device counts from the start
                if referenceFirst { acc.noteDeviceDistance(time: f.time, distance: device) }
                acc.process(f)
                if !referenceFirst { acc.noteDeviceDistance(time: f.time, distance: device) }
                if i == 0 { XCTAssertEqual(acc.distance, 12.8, accuracy: 1e-9, "the first row's distance is the session's") }
            }
            acc.finish()
            XCTAssertEqual(acc.distance, 12.8 + gps, accuracy: 0.5, "reference first: \(referenceFirst)")
            XCTAssertEqual(acc.history.distance(at: 3.2) ?? -1, 12.8, accuracy: 1e-9)
        }
    }

    func testADeviceWhoseFiguresStartLateGivesNoCredit() {
        let fixes = Self.perStrokeFixes(count: 40)
        var acc = DistanceAccumulator()
        for f in fixes {
            acc.process(f)
            // The device's figures start 30 s after the first fix: what it had at the first fix is unknown.
            if f.time > 30 { acc.noteDeviceDistance(time: f.time, distance: 4 * f.time) }
        }
        acc.finish()
        XCTAssertEqual(acc.distance, 4 * (fixes.last!.time - fixes.first!.time), accuracy: 0.5)
    }
}
