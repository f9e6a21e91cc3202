import OarlogCore
import OarlogFences
import XCTest
import OarlogTestSupport

/// The fence tests' random source: SplitMix64 from a scrambled `seed`.
func seededRandom(seed: UInt64) -> SplitMix64 { SplitMix64(state: seed &* 0x9E37_79B9_7F4A_7C15 &+ 1) }

/// Fixes along straight motion in a tangent plane at `origin`: position `start + velocity·t`
/// metres (east, north) at `rate` Hz for `duration` s.
func straightTrack(origin: GeoPoint, start: (Double, Double), velocity: (Double, Double), rate: Hertz,
                   duration: Seconds, t0: Seconds = 0, accuracy: Metres? = 3) -> [GPSFix] {
    let plane = LocalTangentPlane(origin: origin)
    let n = Int((duration * rate).rounded())
    return (0...n).map { k in
        let t = Double(k) / rate
        let p = plane.unproject(east: start.0 + velocity.0 * t, north: start.1 + velocity.1 * t)
        return GPSFix(time: t0 + t, latitude: p.latitude, longitude: p.longitude,
                      speed: (velocity.0 * velocity.0 + velocity.1 * velocity.1).squareRoot(),
                      horizontalAccuracy: accuracy, mode: .threeD)
    }
}

/// A gate from (e0, n0) to (e1, n1) metres in the tangent plane at `origin`.
func gate(_ index: Int, _ name: String, origin: GeoPoint, _ e0: Double, _ n0: Double, _ e1: Double, _ n1: Double,
          direction: GateDirection = .either, role: CourseRole? = nil, distance: Metres? = nil) -> Fence {
    let plane = LocalTangentPlane(origin: origin)
    return Fence(id: FenceID(index: index, name: name),
                 shape: .gate(line: [plane.unproject(east: e0, north: n0), plane.unproject(east: e1, north: n1)],
                              direction: direction),
                 courseRole: role, courseDistance: distance)
}

final class FenceBehaviourTests: XCTestCase {
    let thames = GeoPoint(latitude: 51.4873, longitude: -0.2241)

    // MARK: Areas

    func testEnterDwellExitThroughACircle() throws {
        // 4 m/s due east through a 50 m circle centred 200 m east: truth enter at 150 m (37.5 s),
        // exit at 250 m (62.5 s).
        let centre = LocalTangentPlane(origin: thames).unproject(east: 200, north: 0)
        let fence = Fence(id: FenceID(index: 0, name: "boathouse"), shape: .circle(centre: centre, radius: 50), dwellTime: 10)
        let fixes = straightTrack(origin: thames, start: (0, 0), velocity: (4, 0), rate: 1, duration: 100)
        let (events, _) = monitor([fence], course: nil, fixes: fixes)
        guard events.count == 3, case .enter(let f, let tIn) = events[0], case .dwell(_, let tDwell, _) = events[1],
              case .exit(_, let tOut, let inside) = events[2] else {
            return XCTFail("expected enter, dwell, exit; got \(events)")
        }
        XCTAssertEqual(f.name, "boathouse")
        XCTAssertEqual(tIn, 37.5, accuracy: 0.01)
        XCTAssertEqual(tDwell, 47.5, accuracy: 0.01)
        XCTAssertEqual(tOut, 62.5, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(inside), 25, accuracy: 0.02)
    }

    func testPolygonWithHole() throws {
        // A 100 m square (x 100…200) with a 20 m hole (x 140…160), crossed along y = 50 at 5 m/s.
        let plane = LocalTangentPlane(origin: thames)
        func ring(_ pts: [(Double, Double)]) -> [GeoPoint] { pts.map { plane.unproject(east: $0.0, north: $0.1) } }
        let fence = Fence(id: FenceID(index: 0, name: "pond"),
                          shape: .polygon(outer: ring([(100, 0), (200, 0), (200, 100), (100, 100)]),
                                          holes: [ring([(140, 40), (160, 40), (160, 60), (140, 60)])]), hysteresis: 1)
        let fixes = straightTrack(origin: thames, start: (0, 50), velocity: (5, 0), rate: 1, duration: 60, accuracy: 1)
        let (events, _) = monitor([fence], course: nil, fixes: fixes)
        let times = events.map(\.time)
        let kinds = events.map { e -> String in
            switch e { case .enter: return "enter" case .exit: return "exit" default: return "other" }
        }
        XCTAssertEqual(kinds, ["enter", "exit", "enter", "exit"])
        for (t, truth) in zip(times, [20.0, 28, 32, 40]) { XCTAssertEqual(t, truth, accuracy: 0.01) }
    }

    /// A boat idling on a fence edge for 10 minutes with 3 m GPS noise: at most one enter and
    /// one exit. Noise: a wandering error (Gauss–Markov, 30 s) of σ 3 m per axis plus 0.5 m white
    /// jitter, at 1 Hz, the receiver reporting its 95 % radius (6 m); and pure white 3 m noise.
    func testNoChatterOnTheEdge() throws {
        let centre = thames
        let fence = Fence(id: FenceID(index: 0, name: "pontoon"), shape: .circle(centre: centre, radius: 40))
        let plane = LocalTangentPlane(origin: centre)
        var worstEnters = 0, worstExits = 0, runsWithEvents = 0
        for model in ["wander", "white", "no accuracy"] {
            for seed: UInt64 in 1...20 {
                var random = seededRandom(seed: seed)
                var we = 3 * random.standardNormal(), wn = 3 * random.standardNormal()
                let decay = exp(-1.0 / 30), innovation = 3 * (1 - decay * decay).squareRoot()
                var fixes: [GPSFix] = []
                for k in 0...600 {
                    var e = 40.0, n = 0.0  // on the edge, east of the centre
                    if model == "white" {
                        e += 3 * random.standardNormal(); n += 3 * random.standardNormal()
                    } else {
                        we = decay * we + innovation * random.standardNormal()
                        wn = decay * wn + innovation * random.standardNormal()
                        e += we + 0.5 * random.standardNormal(); n += wn + 0.5 * random.standardNormal()
                    }
                    let p = plane.unproject(east: e, north: n)
                    fixes.append(GPSFix(time: Double(k), latitude: p.latitude, longitude: p.longitude, speed: 0,
                                        horizontalAccuracy: model == "no accuracy" ? nil : 6, mode: .threeD))
                }
                let (events, _) = monitor([fence], course: nil, fixes: fixes)
                let enters = events.filter { if case .enter = $0 { return true } else { return false } }.count
                let exits = events.filter { if case .exit = $0 { return true } else { return false } }.count
                XCTAssertLessThanOrEqual(enters, 1, "\(model) seed \(seed)")
                XCTAssertLessThanOrEqual(exits, 1, "\(model) seed \(seed)")
                worstEnters = max(worstEnters, enters)
                worstExits = max(worstExits, exits)
                if enters + exits > 0 { runsWithEvents += 1 }
            }
        }
        print("[fences] chatter: 60 ten-minute runs on the edge, at most \(worstEnters) enter / \(worstExits) exit per run; "
              + "\(runsWithEvents) runs had any event")
    }

    // MARK: Gates

    func testLowRateCrossingWithNoFixNearTheLine() throws {
        // 5.5 m/s at 1 Hz; fixes at 2.75 m either side of the line at x = 30.25 (no fix within 2 m):
        // truth crossing at 5.5 s.
        let g = gate(0, "start", origin: thames, 30.25, -10, 30.25, 10, direction: .bearing(90))
        let fixes = straightTrack(origin: thames, start: (0, 0), velocity: (5.5, 0), rate: 1, duration: 20)
        let (events, statistics) = monitor([g], course: nil, fixes: fixes)
        let c = try XCTUnwrap(events.crossings.first)
        XCTAssertEqual(events.crossings.count, 1)
        XCTAssertEqual(c.time, 5.5, accuracy: 1e-3)
        XCTAssertEqual(c.speed, 5.5, accuracy: 1e-6)
        XCTAssertEqual(c.heading, 90, accuracy: 0.01)
        XCTAssertFalse(c.wrongWay)
        XCTAssertEqual(statistics.rejectedCrossings, 0)
        // The same the other way: wrong way.
        let back = straightTrack(origin: thames, start: (60, 0), velocity: (-5.5, 0), rate: 1, duration: 20)
        let (eventsBack, _) = monitor([g], course: nil, fixes: back)
        XCTAssertEqual(eventsBack.crossings.map(\.wrongWay), [true])
        XCTAssertEqual(try XCTUnwrap(eventsBack.crossings.first).heading, 270, accuracy: 0.01)
    }

    func testGapsAndJumpsAreRejectedAndCounted() throws {
        let g = gate(0, "marker", origin: thames, 50, -15, 50, 15)
        // A 30 s outage across the line: not timed, counted.
        var fixes = straightTrack(origin: thames, start: (0, 0), velocity: (4, 0), rate: 1, duration: 40)
        fixes.removeAll { $0.time > 5 && $0.time < 35 }
        let (events, statistics) = monitor([g], course: nil, fixes: fixes)
        XCTAssertTrue(events.crossings.isEmpty)
        XCTAssertEqual(statistics.rejectedCrossings, 1)
        guard case .rejectedCrossing(let r)? = events.first, case .gap(let gap) = r.reason else {
            return XCTFail("expected a rejected crossing for the gap, got \(events)")
        }
        XCTAssertEqual(gap, 30, accuracy: 1e-9)

        // One wild fix 300 m away (a multipath jump) while the boat crosses: the crossing is still
        // timed from the good fixes, the outlier is counted.
        var jumpy = straightTrack(origin: thames, start: (0, 0), velocity: (4, 0), rate: 1, duration: 30)
        let plane = LocalTangentPlane(origin: thames)
        let wild = plane.unproject(east: 200, north: 250)
        jumpy[12].latitude = wild.latitude
        jumpy[12].longitude = wild.longitude
        let (jumpEvents, jumpStatistics) = monitor([g], course: nil, fixes: jumpy)
        XCTAssertEqual(jumpEvents.crossings.count, 1)
        XCTAssertEqual(try XCTUnwrap(jumpEvents.crossings.first).time, 12.5, accuracy: 0.01)
        XCTAssertEqual(jumpStatistics.jumpFixes, 1)
        XCTAssertEqual(jumpStatistics.rejectedCrossings, 0)
    }

    func testOutOfOrderAndDuplicateFixesAreIgnored() throws {
        let g = gate(0, "finish", origin: thames, 50, -15, 50, 15)
        let centre = LocalTangentPlane(origin: thames).unproject(east: 100, north: 0)
        let area = Fence(id: FenceID(index: 1, name: "landing"), shape: .circle(centre: centre, radius: 20))
        let clean = straightTrack(origin: thames, start: (0, 0), velocity: (4, 0), rate: 1, duration: 60)
        var messy: [GPSFix] = []
        var random = seededRandom(seed: 7)
        for (k, fix) in clean.enumerated() {
            messy.append(fix)
            if random.uniformOpen() < 0.3 { messy.append(fix) }  // duplicate
            if k > 2, random.uniformOpen() < 0.3 { messy.append(clean[k - 1 - Int(random.uniformOpen() * 2)]) }  // late
        }
        let (a, _) = monitor([g, area], course: nil, fixes: clean)
        let (b, statistics) = monitor([g, area], course: nil, fixes: messy)
        XCTAssertEqual(a, b)
        XCTAssertEqual(statistics.outOfOrderFixes, messy.count - clean.count)
        XCTAssertEqual(a.count, 3)  // cross, enter, exit
    }

    // MARK: Geometry anywhere on Earth

    func testAntimeridianAndHighLatitude() throws {
        // A gate on the antimeridian near Fiji, a boat crossing it eastward at 4 m/s.
        let fiji = GeoPoint(latitude: -16.8, longitude: 179.9995)
        let plane = LocalTangentPlane(origin: fiji)
        let onLine = plane.project(GeoPoint(latitude: -16.8, longitude: 180))
        let g = gate(0, "dateline", origin: fiji, onLine.east, -20, onLine.east, 20, direction: .bearing(90))
        let fixes = straightTrack(origin: fiji, start: (0, 0), velocity: (4, 0), rate: 1, duration: 40)
        XCTAssertTrue(fixes.contains { $0.longitude < -179.9 }, "the track does cross to negative longitudes")
        let (events, _) = monitor([g], course: nil, fixes: fixes)
        XCTAssertEqual(events.crossings.count, 1)
        XCTAssertEqual(try XCTUnwrap(events.crossings.first).time, onLine.east / 4, accuracy: 0.01)

        // A circle at 78.2° N (Longyearbyen), crossed at 3 m/s: enter/exit when the geodesic
        // distance to the centre equals the radius.
        let svalbard = GeoPoint(latitude: 78.23, longitude: 15.6)
        let circle = Fence(id: FenceID(index: 0, name: "harbour"), shape: .circle(centre: svalbard, radius: 60))
        let passing = straightTrack(origin: svalbard, start: (-150, 20), velocity: (3, 0), rate: 1, duration: 100, accuracy: 1)
        let (circleEvents, _) = monitor([circle], course: nil, fixes: passing)
        let truthHalfChord = (60.0 * 60 - 20 * 20).squareRoot()
        let times = circleEvents.map(\.time)
        XCTAssertEqual(times.count, 2)
        if times.count == 2 {
            XCTAssertEqual(times[0], (150 - truthHalfChord) / 3, accuracy: 0.02)
            XCTAssertEqual(times[1], (150 + truthHalfChord) / 3, accuracy: 0.02)
        }
        // And near the pole, the prefilter box must not hide the fence.
        let pole = GeoPoint(latitude: 89.9995, longitude: 0)
        let polar = Fence(id: FenceID(index: 0, name: "pole"), shape: .circle(centre: pole, radius: 30))
        let polarTrack = straightTrack(origin: pole, start: (-100, 0), velocity: (4, 0), rate: 1, duration: 50, accuracy: 1)
        XCTAssertEqual(monitor([polar], course: nil, fixes: polarTrack).events.count, 2)
    }

    // MARK: Courses

    func testCourseRowedWrongWayAndMissedGate() throws {
        let fences = [
            gate(0, "Start", origin: thames, 0, -15, 0, 15, direction: .bearing(90), role: .start, distance: 0),
            gate(1, "250 m", origin: thames, 250, -15, 250, 15, direction: .bearing(90), role: .marker, distance: 250),
            gate(2, "Finish", origin: thames, 500, -15, 500, 15, direction: .bearing(90), role: .finish, distance: 500),
        ]
        let course = Course(name: "course", gates: fences.map(\.id), distances: [0, 250, 500])
        // Rowed the wrong way (west): three wrong-way crossings, no piece.
        let west = straightTrack(origin: thames, start: (520, 0), velocity: (-4, 0), rate: 1, duration: 140)
        let wrong = monitor(fences, course: course, fixes: west).events
        XCTAssertEqual(wrong.pieces.count, 0)
        XCTAssertEqual(wrong.problems.count, 3)
        XCTAssertTrue(wrong.problems.allSatisfy { if case .wrongWay = $0 { return true } else { return false } })

        // Rowed east but wide of the marker (it is only 30 m wide): the marker is missed, the
        // piece still finishes with one leg spanning it.
        var offset = fences
        offset[1] = gate(1, "250 m", origin: thames, 250, 20, 250, 50, direction: .bearing(90), role: .marker, distance: 250)
        let east = straightTrack(origin: thames, start: (-20, 0), velocity: (4, 0), rate: 1, duration: 140)
        let missed = monitor(offset, course: course, fixes: east).events
        let piece = try XCTUnwrap(missed.pieces.first)
        XCTAssertEqual(piece.segments.count, 1)
        XCTAssertEqual(piece.missedGates.map(\.name), ["250 m"])
        XCTAssertEqual(piece.duration, 125, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(piece.split), 125, accuracy: 0.01)
        XCTAssertTrue(missed.problems.contains(.missedGate(gate: offset[1].id, time: piece.finishTime)))

        // Stopped before the finish: the piece is reported incomplete at the end.
        let short = straightTrack(origin: thames, start: (-20, 0), velocity: (4, 0), rate: 1, duration: 80)
        let incomplete = monitor(fences, course: course, fixes: short).events
        XCTAssertTrue(incomplete.problems.contains { if case .incomplete(_, let reached, _) = $0 { return reached.name == "250 m" } else { return false } })
    }

    // MARK: Cost

    func testHundredsOfFencesCostLittlePerFix() throws {
        var random = seededRandom(seed: 3)
        let plane = LocalTangentPlane(origin: thames)
        var fences: [Fence] = []
        for k in 0..<600 {
            let p = plane.unproject(east: (random.uniformOpen() - 0.5) * 40_000, north: (random.uniformOpen() - 0.5) * 40_000)
            if k % 3 == 0 {
                fences.append(gate(k, "g\(k)", origin: p, -15, 0, 15, 0))
            } else {
                fences.append(Fence(id: FenceID(index: k, name: "c\(k)"), shape: .circle(centre: p, radius: 30 + 100 * random.uniformOpen())))
            }
        }
        // Twenty more along the boat's path, so that some are near it all the time.
        for k in 0..<20 {
            let p = plane.unproject(east: -10_000 + Double(k) * 120, north: Double(k) * 9 + 20)
            fences.append(Fence(id: FenceID(index: 600 + k, name: "path\(k)"), shape: .circle(centre: p, radius: 40)))
        }
        let fixes = straightTrack(origin: thames, start: (-10_000, 0), velocity: (4, 0.3), rate: 10, duration: 600)
        let clock = ContinuousClock()
        var statistics = FenceStatistics()
        let elapsed = clock.measure { statistics = monitor(fences, course: nil, fixes: fixes).statistics }
        let perFix = elapsed / fixes.count
        let nearPerFix = Double(statistics.nearChecks) / Double(fixes.count)
        print("[fences] 600 fences, \(fixes.count) fixes: \(perFix) per fix (debug build), \(fmt(nearPerFix, 2)) near checks per fix")
        XCTAssertGreaterThan(nearPerFix, 0.5, "fences along the path are checked")
        XCTAssertLessThan(nearPerFix, 5, "the prefilter leaves only the fences near the boat")
        // The time per fix is printed, not asserted (Benchmarks/ measures it in release builds).
        XCTAssertGreaterThan(perFix, .zero)
    }
}
