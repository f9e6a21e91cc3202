@testable import OarlogApp
import OarlogCore
import XCTest

/// The windows behind the personal bests: any window, its ends placed between fixes, never across
/// a GPS gap.
final class PersonalBestsTests: XCTestCase {
    typealias Point = SessionTrail.Point

    /// Fixes every `step` seconds from `from` to `to` at `speed` m/s, from `distance`.
    func track(from: Double, to: Double, step: Double = 1, speed: Double, distance: Double = 0) -> [Point] {
        stride(from: from, through: to, by: step).map { Point(time: $0, latitude: 0, longitude: 0, distance: distance + ($0 - from) * speed) }
    }

    func testConstantSpeedGivesExactTimes() throws {
        let points = track(from: 0, to: 1000, speed: 4)
        XCTAssertEqual(try XCTUnwrap(PersonalBests.best(.distance(500), in: points)).time, 125, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(PersonalBests.best(.distance(2000), in: points)).time, 500, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(PersonalBests.best(.duration(60), in: points)).metres, 240, accuracy: 1e-9)
        XCTAssertNil(PersonalBests.best(.distance(5000), in: points), "4,000 m rowed: no 5,000 m")
        XCTAssertNil(PersonalBests.best(.duration(1200), in: points), "1,000 s: no 20 minutes")
    }

    /// A faster stretch in the middle, its ends between fixes: the window finds it, to the
    /// interpolated fix times, from either end.
    func testTheFastestStretchIsFoundBetweenFixes() throws {
        // 3 m/s for 300 s, 5 m/s for 150 s (750 m), then 3 m/s; fixes every 2.5 s (a device's per-stroke positions).
        var points = track(from: 0, to: 300, step: 2.5, speed: 3)
        points += track(from: 302.5, to: 450, step: 2.5, speed: 5, distance: 900 + 2.5 * 5).map { $0 }
        points += track(from: 452.5, to: 900, step: 2.5, speed: 3, distance: 900 + 750 + 2.5 * 3)
        let best500 = try XCTUnwrap(PersonalBests.best(.distance(500), in: points))
        XCTAssertEqual(best500.time, 100, accuracy: 1e-9, "500 m at 5 m/s")
        XCTAssertGreaterThanOrEqual(best500.start, 300)
        XCTAssertLessThanOrEqual(best500.start + best500.time, 450)
        // 1,000 m: the 750 m at 5 m/s (150 s) and 250 m at 3 m/s (83.3 s).
        XCTAssertEqual(try XCTUnwrap(PersonalBests.best(.distance(1000), in: points)).time, 150 + 250 / 3, accuracy: 1e-9)
        // One minute: 300 m inside the fast stretch.
        XCTAssertEqual(try XCTUnwrap(PersonalBests.best(.duration(60), in: points)).metres, 300, accuracy: 1e-9)
    }

    /// A window across a gap never counts, however fast the distance over the gap looks.
    func testAWindowAcrossAGapDoesNotCount() throws {
        // 3 m/s, then 40 s without a fix over which the distance jumps 400 m (10 m/s if it counted), then 3 m/s.
        let before = track(from: 0, to: 200, speed: 3)
        let after = track(from: 240, to: 440, speed: 3, distance: 600 + 400)
        let best = try XCTUnwrap(PersonalBests.best(.distance(500), in: before + after))
        XCTAssertEqual(best.time, 500 / 3, accuracy: 1e-9)
        XCTAssertNil(PersonalBests.best(.distance(1000), in: before + after), "no 1,000 m without a gap")
        XCTAssertEqual(PersonalBests.runs(before + after, gapLimit: 10).map(\.count), [201, 201])
        // A gap just inside the limit is rowing.
        XCTAssertEqual(PersonalBests.runs(track(from: 0, to: 100, step: 10, speed: 3), gapLimit: 10).count, 1)
    }

    func testNoTrailNoBest() {
        XCTAssertNil(PersonalBests.best(.distance(500), in: []))
        XCTAssertNil(PersonalBests.best(.duration(60), in: [Point(time: 0, latitude: 0, longitude: 0, distance: 0)]))
    }
}
