import OarlogCore
import OarlogFences
import OarlogFleet
import XCTest

/// What the coach's launch makes of the boats' positions: crossed paths and a race on a course,
/// against tracks whose answers are known exactly.
final class CoachBoardTests: XCTestCase {
    let plane = LocalTangentPlane(origin: GeoPoint(latitude: 51.4873, longitude: -0.2241))

    func point(east: Double, north: Double) -> GeoPoint { plane.unproject(east: east, north: north) }

    func testTwoBoatsCrossingAtATurnAreOneMeetingWithItsClosestApproach() {
        // A rows east along y = 0 at 4 m/s, B north along x = 0 at 3 m/s; their fixes half a second apart.
        func a(_ t: Double) -> (Double, Double) { (4 * (t - 50), 0) }
        func b(_ t: Double) -> (Double, Double) { (0, 3 * (t - 50.5)) }
        var paths = CrossedPaths(distanceLimit: 10)
        for k in 0..<100 {
            let t = Double(k)
            let pa = a(t), pb = b(t + 0.5)
            let ga = point(east: pa.0, north: pa.1), gb = point(east: pb.0, north: pb.1)
            paths.add(boat: "alpha", utc: 1000 + t, latitude: ga.latitude, longitude: ga.longitude)
            paths.add(boat: "bravo", utc: 1000 + t + 0.5, latitude: gb.latitude, longitude: gb.longitude)
        }
        // The truth, densely: when they were within 10 m, and how close they came.
        var within: [Double] = []
        var closest = (d: Double.infinity, t: 0.0)
        for k in 0..<100_000 {
            let t = Double(k) / 1000
            let (xa, ya) = a(t), (xb, yb) = b(t)
            let d = ((xa - xb) * (xa - xb) + (ya - yb) * (ya - yb)).squareRoot()
            if d <= 10 { within.append(t) }
            if d < closest.d { closest = (d, t) }
        }
        XCTAssertEqual(paths.all.count, 1)
        let m = try! XCTUnwrap(paths.all.first)
        XCTAssertEqual(m.boats, ["alpha", "bravo"])
        XCTAssertFalse(m.ongoing)
        XCTAssertEqual(m.start - 1000, within.first!, accuracy: 1.0)
        XCTAssertEqual(m.end - 1000, within.last!, accuracy: 1.0)
        XCTAssertEqual(closest.d, 1.2, accuracy: 0.01)
        XCTAssertEqual(m.closest, closest.d, accuracy: 0.05, "both moving straight between fixes: the closest approach itself")
        XCTAssertEqual(m.closestUTC - 1000, closest.t, accuracy: 0.05)
        let place = plane.project(GeoPoint(latitude: m.latitude, longitude: m.longitude))
        XCTAssertLessThan((place.east * place.east + place.north * place.north).squareRoot(), 2, "where they met")
    }

    func testBoatsInLanesFifteenMetresApartNeverMeetAtTenMetres() {
        var paths = CrossedPaths(distanceLimit: 10)
        var near = CrossedPaths(distanceLimit: 20)
        for k in 0..<200 {
            let t = Double(k)
            for (lane, boat) in ["a", "b", "c"].enumerated() {
                let g = point(east: 4.5 * t, north: 15 * Double(lane))
                paths.add(boat: boat, utc: t + 0.1 * Double(lane), latitude: g.latitude, longitude: g.longitude)
                near.add(boat: boat, utc: t + 0.1 * Double(lane), latitude: g.latitude, longitude: g.longitude)
            }
        }
        XCTAssertTrue(paths.all.isEmpty)
        XCTAssertEqual(Set(near.all.map(\.boats)), [["a", "b"], ["b", "c"]], "side by side at 15 m: neighbours only, one ongoing meeting each")
        XCTAssertTrue(near.all.allSatisfy { $0.ongoing && abs($0.closest - 15) < 0.1 })
    }

    /// A straight course east: the start line 100 m from where the boats begin, gates every 500 m to 2,000 m.
    func course() throws -> FenceFile {
        var features: [String] = []
        for (k, d) in [0.0, 500, 1000, 1500, 2000].enumerated() {
            let x = 100 + d
            let s = point(east: x, north: -60), n = point(east: x, north: 90)
            let role = k == 0 ? "start" : d == 2000 ? "finish" : "marker"
            features.append("""
                {"type": "Feature", "properties": {"name": "\(k == 0 ? "Start" : d == 2000 ? "Finish" : "\(Int(d)) m")", "role": "\(role)", \
                "distance_m": \(d), "direction_deg": 90}, "geometry": {"type": "LineString", "coordinates": \
                [[\(s.longitude), \(s.latitude)], [\(n.longitude), \(n.latitude)]]}}
                """)
        }
        return try FenceFile.parse("{\"type\": \"FeatureCollection\", \"name\": \"Lanes 2000 m\", \"features\": [\(features.joined(separator: ",\n"))]}")
    }

    func testARaceGivesGateTimesGapsAndResultsAsTheyHappened() throws {
        let file = try course()
        var race = try XCTUnwrap(RaceStandings(file: file))
        let speeds = ["alpha": 5.0, "bravo": 4.8, "charlie": 4.5]
        let phase = ["alpha": 0.0, "bravo": 0.3, "charlie": 0.7]
        // Fixes once a second (each boat at its own instants) up to 2,100 m.
        for k in 0..<480 {
            for (lane, boat) in ["alpha", "bravo", "charlie"].enumerated() {
                let t = Double(k) + phase[boat]!
                let x = speeds[boat]! * t
                guard x < 2200 else { continue }
                let g = point(east: x, north: 15 * Double(lane))
                race.add(boat: boat, utc: 5000 + t, latitude: g.latitude, longitude: g.longitude, speed: speeds[boat], course: 90, distance: x)
            }
        }
        let gates = race.gates
        XCTAssertEqual(gates.map(\.name), ["Start", "500 m", "1000 m", "1500 m", "Finish"])
        for gate in gates.dropFirst() {
            let d = gate.distance
            XCTAssertEqual(gate.times.map(\.boat), ["alpha", "bravo", "charlie"], gate.name)
            for t in gate.times {
                let v = speeds[t.boat]!
                XCTAssertEqual(t.time, d / v, accuracy: 0.05, "\(gate.name) \(t.boat): time from its start")
                XCTAssertEqual(t.behindSeconds, d / v - d / 5.0, accuracy: 0.05)
                XCTAssertEqual(t.behindMetres ?? -1, d * (1 - v / 5.0), accuracy: 0.5, "\(gate.name) \(t.boat): metres to go when alpha crossed")
            }
        }
        let results = race.results(boats: ["charlie", "alpha", "bravo", "delta"])
        XCTAssertEqual(results.map(\.boat), ["alpha", "bravo", "charlie", "delta"])
        XCTAssertEqual(results.map(\.place), [1, 2, 3, nil])
        XCTAssertEqual(results[1].margin ?? -1, 2000 / 4.8 - 400, accuracy: 0.05)
        XCTAssertEqual(results[2].split ?? -1, 500 / 4.5, accuracy: 0.05)
        XCTAssertNil(results[3].alongCourse, "a boat never seen at the start")
    }

    func testARaceUnderWayShowsEachBoatAlongTheCourse() throws {
        var race = try XCTUnwrap(RaceStandings(file: try course()))
        for k in 0...150 {
            let t = Double(k)
            for (lane, (boat, v)) in [("alpha", 5.0), ("bravo", 4.0)].enumerated() {
                let g = point(east: v * t, north: 15 * Double(lane))
                race.add(boat: boat, utc: t, latitude: g.latitude, longitude: g.longitude, speed: v, course: 90, distance: v * t)
            }
        }
        // At 150 s: alpha at 750 m (650 m along), bravo at 600 m (500 m along, just through 500 m).
        let results = race.results(boats: ["alpha", "bravo"])
        XCTAssertEqual(results.map(\.boat), ["alpha", "bravo"])
        XCTAssertEqual(results[0].alongCourse ?? -1, 650, accuracy: 1)
        XCTAssertEqual(results[0].lastGate, "500 m")
        XCTAssertEqual(results[1].alongCourse ?? -1, 500, accuracy: 1)
        XCTAssertNil(results[0].place)
    }
}

extension CoachBoardTests {
    /// One boat's positions arrive a minute late (its backlog after a lost connection): the
    /// meeting is still found, at the time it happened.
    func testABacklogArrivingLateStillMeetsTheOthersTrack() {
        var paths = CrossedPaths(distanceLimit: 10)
        func fix(_ boat: String, _ t: Double, east: Double, north: Double) {
            let g = point(east: east, north: north)
            paths.add(boat: boat, utc: t, latitude: g.latitude, longitude: g.longitude)
        }
        // alpha live, 100 s of rowing east; bravo rowing west towards it, its fixes all sent later.
        for k in 0...100 { fix("alpha", Double(k), east: 4 * Double(k), north: 0) }
        for k in 0...100 { fix("bravo", Double(k) + 0.5, east: 400 - 4 * (Double(k) + 0.5), north: 3) }
        XCTAssertEqual(paths.all.count, 1)
        let m = paths.all[0]
        XCTAssertEqual(m.closest, 3, accuracy: 0.05)
        XCTAssertEqual(m.closestUTC, 50, accuracy: 0.05)
    }
}
