import OarlogCore
import OarlogFences
import XCTest

/// The ghost race on hand-made tracks: boats moving along a straight course at known speeds, so
/// every gap is known by arithmetic (time = distance / speed).
final class GhostRaceTests: XCTestCase {
    let start = GeoPoint(latitude: 51.5, longitude: -0.2)
    /// A 1,000 m course heading north with markers every 250 m.
    var file: FenceFile { get throws { try FenceFile.parse(StraightCourse(start: start, heading: 0, length: 1000, markerInterval: 250).geoJSON()) } }

    /// Fixes once a second of a boat `lead` metres short of the start line at t = 0, rowing north
    /// at `speed(metres past the start)`, until it is 30 m past the finish.
    func track(lead: Metres, hz: Double = 1, speed: (Metres) -> MetresPerSecond) -> [GPSFix] {
        var fixes: [GPSFix] = []
        var y = -lead, t = 0.0
        let dt = 1 / hz
        while y < 1030 {
            let point = Geodesy.destination(from: start, distance: abs(y), bearing: y < 0 ? 180 : 0)
            fixes.append(GPSFix(time: t, latitude: point.latitude, longitude: point.longitude, mode: .threeD))
            y += speed(y) * dt
            t += dt
        }
        return fixes
    }

    /// Every event of a race of `boat` against `reference`, with a catch every 2 s (at t = 0.3, 2.3, …).
    func race(_ reference: GhostReference, boat: [GPSFix]) -> [GhostEvent] {
        var race = GhostRace(reference: reference)
        var events: [GhostEvent] = []
        race.announce { events.append($0) }
        var nextCatch = 0.3
        for fix in boat {
            while nextCatch < fix.time {
                race.caught(at: nextCatch) { events.append($0) }
                nextCatch += 2
            }
            race.process(fix) { events.append($0) }
        }
        return events
    }

    func testReferenceTimesEveryGateAndCourseMetre() throws {
        // 4 m/s from 22 m short of the line: the start at 5.5 s, gate d at d / 4 s after it.
        let fixes = track(lead: 22) { _ in 4 }
        let reference = try XCTUnwrap(GhostReference.read(file: try file, fixes: fixes, session: "ref"))
        XCTAssertEqual(reference.startTime, 5.5, accuracy: 0.01)
        XCTAssertEqual(reference.time, 250, accuracy: 0.01)
        for (k, d) in [0.0, 250, 500, 750, 1000].enumerated() {
            XCTAssertEqual(try XCTUnwrap(reference.gateTimes[k]), d / 4, accuracy: 0.01, "gate \(k)")
        }
        for d in stride(from: 10.0, to: 1000, by: 37) {
            XCTAssertEqual(reference.elapsed(atAlong: d), d / 4, accuracy: 0.01, "at \(d) m")
            XCTAssertEqual(reference.along(atElapsed: d / 4), d, accuracy: 0.05, "at \(d / 4) s")
        }
        // The ghost's dot: 100 s after the start it is 400 m up the course.
        let at100 = reference.position(atElapsed: 100)
        XCTAssertEqual(Geodesy.distance(from: start, to: at100), 400, accuracy: 0.05)
    }

    func testAFasterBoatGainsAsItsSpeedsSay() throws {
        let reference = try XCTUnwrap(GhostReference.read(file: try file, fixes: track(lead: 22) { _ in 4 }, session: "ref"))
        let events = race(reference, boat: track(lead: 22) { _ in 5 })
        guard case .reference(let info) = events.first else { return XCTFail("no reference announced") }
        XCTAssertEqual(info.session, "ref")
        XCTAssertEqual(info.time, 250, accuracy: 0.01)
        // At a gate d: the boat took d / 5 s, the ghost d / 4 s.
        let gates = events.compactMap { if case .gate(let g) = $0 { g } else { nil } }
        XCTAssertEqual(gates.map(\.gate), ["250 m", "500 m", "750 m", "Finish"])
        for g in gates {
            XCTAssertEqual(g.time, g.distance / 5, accuracy: 0.01)
            XCTAssertEqual(try XCTUnwrap(g.gapSeconds), g.distance / 5 - g.distance / 4, accuracy: 0.01, g.gate)
        }
        guard case .finished(let time, let gap) = events.last else { return XCTFail("no finish") }
        XCTAssertEqual(time, 200, accuracy: 0.01)
        XCTAssertEqual(gap, -50, accuracy: 0.01)
        // At each catch: the boat's place is its last fix's (whole seconds, 22 m short at t = 0,
        // so its start crossing at 4.4 s), `along` metres done in along / 5 s against the ghost's
        // along / 4; in metres the ghost had done 4 m for each of the boat's 5.
        let statuses = events.compactMap { if case .status(let s) = $0 { s } else { nil } }
        XCTAssertGreaterThan(statuses.count, 90)
        for s in statuses {
            let fixTime = s.time.rounded(.down)
            let along = min(1000, 5 * fixTime - 22)
            XCTAssertEqual(s.along, along, accuracy: 0.05)
            XCTAssertEqual(s.elapsed, s.time - 4.4, accuracy: 0.01)
            XCTAssertEqual(s.gapSeconds, along / 5 - along / 4, accuracy: 0.01, "at \(s.time) s")
            XCTAssertEqual(s.gapMetres, 4 * (fixTime - 4.4) - along, accuracy: 0.05, "at \(s.time) s")
            // The ghost at the same instant: the fix's.
            XCTAssertEqual(s.ghostAlong, 4 * (fixTime - 4.4), accuracy: 0.05)
            XCTAssertEqual(Geodesy.distance(from: start, to: s.ghostPosition), 4 * (fixTime - 4.4), accuracy: 0.05)
        }
        // No status before the start or after the finish.
        XCTAssertTrue(statuses.allSatisfy { $0.time > 4.4 && $0.time < 204.4 })
    }

    func testEvenThenFasterGapOpensInTheSecondHalf() throws {
        let reference = try XCTUnwrap(GhostReference.read(file: try file, fixes: track(lead: 22) { _ in 4 }, session: "ref"))
        // Level with the ghost to 498 m (a fix falls there: −22 + 4 × 130), then 5 m/s: each metre
        // beyond at 5 instead of 4 m/s saves 1/4 − 1/5 = 0.05 s.
        let events = race(reference, boat: track(lead: 22) { $0 < 498 ? 4 : 5 })
        let gaps = events.compactMap { if case .gate(let g) = $0 { g.gapSeconds } else { nil } }
        XCTAssertEqual(gaps.count, 4)
        for (gap, d) in zip(gaps, [250.0, 500, 750, 1000]) { XCTAssertEqual(gap, -max(0, d - 498) * 0.05, accuracy: 0.01, "at \(d) m") }
    }

    func testNoRaceWithoutAStartTheRightWay() throws {
        let reference = try XCTUnwrap(GhostReference.read(file: try file, fixes: track(lead: 22) { _ in 4 }, session: "ref"))
        // Rowed south, finish to start: every gate the wrong way — nothing is timed.
        let southward = track(lead: 22) { _ in 5 }.reversed().enumerated().map { i, f in
            GPSFix(time: Double(i), latitude: f.latitude, longitude: f.longitude, mode: .threeD)
        }
        let events = race(reference, boat: southward)
        XCTAssertEqual(events.count, 1, "only the reference announced: \(events.dropFirst())")
    }

    func testAReferenceIsReadAtTheStartAsked() throws {
        // Two passages in one session: 4 m/s, then (after rowing back) 5 m/s; ask for the second.
        var fixes = track(lead: 22) { _ in 4 }
        let back = fixes.reversed().map { $0 }
        let t0 = fixes.last!.time + 1
        fixes += back.enumerated().map { i, f in GPSFix(time: t0 + Double(i), latitude: f.latitude, longitude: f.longitude, mode: .threeD) }
        let t1 = fixes.last!.time + 1
        fixes += track(lead: 22) { _ in 5 }.map { GPSFix(time: t1 + $0.time, latitude: $0.latitude, longitude: $0.longitude, mode: .threeD) }
        let first = try XCTUnwrap(GhostReference.read(file: try file, fixes: fixes, session: "s"))
        XCTAssertEqual(first.time, 250, accuracy: 0.01)
        let second = try XCTUnwrap(GhostReference.read(file: try file, fixes: fixes, startTime: t1 + 4.4, session: "s"))
        XCTAssertEqual(second.startTime, t1 + 4.4, accuracy: 0.01)
        XCTAssertEqual(second.time, 200, accuracy: 0.01)
        XCTAssertNil(GhostReference.read(file: try file, fixes: fixes, startTime: 1000, session: "s"))
    }

    func testALongAttemptIsThinnedToItsCap() throws {
        // 10 Hz at 0.25 m/s: 4,000 s, 40,000 fixes over the 1,000 m — more than the cap.
        let fixes = track(lead: 1, hz: 10) { _ in 0.25 }
        let reference = try XCTUnwrap(GhostReference.read(file: try file, fixes: fixes, session: "slow"))
        XCTAssertGreaterThan(fixes.count, GhostReference.maximumSamples)
        XCTAssertLessThanOrEqual(reference.samples.count, GhostReference.maximumSamples)
        XCTAssertEqual(reference.time, 4000, accuracy: 0.1)
        for d in stride(from: 5.0, to: 1000, by: 99) {
            XCTAssertEqual(reference.elapsed(atAlong: d), d / 0.25, accuracy: 0.1, "at \(d) m")
        }
    }
}
