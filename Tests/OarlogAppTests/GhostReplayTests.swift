import Foundation
import OarlogApp
import OarlogCore
import OarlogFences
import OarlogPipeline
import OarlogSimulator
import OarlogTestSupport
import OarlogTrace
import XCTest

/// Racing a ghost in a replay, through the one door (issue 26): the reference read from a kept
/// session's fixes, the race run by the replay's pipeline. Against its own attempt the real NK
/// logbook outing is level at every gate; a simulated crew rowing slower than a simulated
/// reference loses what the simulator's truth says it loses, gate by gate.
final class GhostReplayTests: XCTestCase {
    var temp: TemporarySessions!
    var store: SessionStore!

    override func setUp() {
        temp = TemporarySessions()
        store = SessionStore(sessionsPath: temp.directory.path)
    }

    override func tearDown() { temp.remove() }

    /// Replays `trace` (kept as a session when `save`) racing `ghost`; the race as gathered.
    func replay(_ trace: String, ghost: GhostReference?, save: Bool = false) throws -> (race: GhostCollector, id: String?) {
        var replay = try TraceReplay(path: trace)
        replay.ghost = ghost
        let race = GhostCollector()
        let kept = save ? try store.keeping(replay, title: nil, boat: nil) : nil
        _ = try replay.run(sinks: [race], keeping: kept)
        return (race, kept?.id)
    }

    func testTheNKOutingRacedAgainstItsOwnAttemptIsLevelAtEveryGate() throws {
        let nk = try samplePath("rowingdata/nk_logbook.csv")
        let saved = try XCTUnwrap(try replay(nk, ghost: nil, save: true).id)
        _ = try store.addCourse(name: "NK 2k", file: TestPaths.packageRoot.appendingPathComponent("samples/nk-course.geojson").path)
        let best = try XCTUnwrap(try store.attempts(course: "NK 2k").first)
        XCTAssertEqual(RowingFormat.duration(best.time), "10:08.3", "oarlog course's time of the piece")

        for choice in [GhostChoice.best, .session(saved, attempt: 1)] {
            let reference = try store.ghostReference(course: "NK 2k", choice: choice, boat: nil)
            XCTAssertEqual(reference.session, saved)
            XCTAssertEqual(reference.startTime, best.start, accuracy: 1e-6)
            XCTAssertEqual(reference.time, best.time, accuracy: 1e-6)
            let race = try replay(nk, ghost: reference).race
            XCTAssertEqual(race.reference?.session, saved)
            XCTAssertEqual(race.gates.map(\.gate), ["500 m", "1000 m", "1500 m", "Finish"])
            for gate in race.gates {
                XCTAssertEqual(try XCTUnwrap(gate.gapSeconds), 0, accuracy: 0.1, "\(choice) at \(gate.gate)")
                XCTAssertEqual(gate.time, try XCTUnwrap(gate.referenceTime), accuracy: 0.1)
            }
            XCTAssertEqual(try XCTUnwrap(race.finalGap), 0, accuracy: 0.1)
        }
        // A session has one attempt here: a second is not found, and says how many there are.
        XCTAssertThrowsError(try store.ghostReference(course: "NK 2k", choice: .session(saved, attempt: 2), boat: nil)) { error in
            XCTAssertTrue("\(error)".contains("1 attempt"), "\(error)")
        }
    }

    /// A simulated outing written as a trace, with the true distance rowed at every sample.
    struct Outing {
        var path: String
        var times: [Seconds] = []
        var distances: [Metres] = []

        init(_ configuration: SimulationConfiguration, path: String) throws {
            self.path = path
            var simulator = try BoatSimulator(configuration: configuration)
            var writer = try TraceWriter(path: path, metadata: configuration.metadata)
            while let record = try simulator.next() {
                try writer.write(record)
                if case .accel = record, let frame = simulator.lastBoatFrame {
                    times.append(frame.time)
                    distances.append(frame.distance)
                }
            }
            try writer.close()
        }

        /// When the boat truly had rowed `distance` (linear between samples 20 ms apart).
        func time(atDistance distance: Metres) throws -> Seconds {
            let k = try XCTUnwrap(distances.firstIndex { $0 >= distance }, "the outing is shorter than \(distance) m")
            let f = (distance - distances[k - 1]) / (distances[k] - distances[k - 1])
            return times[k - 1] + f * (times[k] - times[k - 1])
        }
    }

    /// Two crews from the same place on the same heading (the simulator's straight course, 1 Hz
    /// GPS), both at 26 spm: the reference at full pressure, the other at 96.5 % of it, about 5 s
    /// slower over 2 km. The
    /// course: 2 km from 100 m down the water, markers every 500 m. The gap at each gate against
    /// the truth: each crew's true time from its start line to the gate, the difference.
    ///
    /// GPS noise sets what any gate timing can do: a gap is four crossings (each crew's start and
    /// gate), and the simulator's default receiver wanders 1.5 m (σ per axis), a third of a second
    /// at 4.5 m/s on every crossing — more than the issue's ±0.3 s. So the ±0.3 s is held on the
    /// noise-free track (the timing and the race's arithmetic), and a quarter of the default noise
    /// (a good receiver in open water, as SimulatedCourseTests has it) is held to ±0.6 s.
    func testASlowerCrewLosesToItsGhostWhatTheTruthSays() throws {
        // Noise-free, the same crew (seed) at two pressures: the truth's gap grows steadily.
        try raceSimulated(noise: 0, seeds: (1, 1), tolerance: 0.3, steady: true)
        // A quarter of the noise, another crew's strokes and another receiver's error: the gap
        // follows the truth however it goes.
        try raceSimulated(noise: 0.25, seeds: (1, 2), tolerance: 0.6, steady: false)
    }

    func raceSimulated(noise: Double, seeds: (UInt64, UInt64), tolerance: Seconds, steady: Bool) throws {
        func outing(power: Double, seed: UInt64) -> SimulationConfiguration {
            var c = SimulationConfiguration(duration: 720, profile: .constant(rate: 26, power: power, duration: 720))
            c.accelRate = 50
            c.gpsDropoutsPerHour = 0
            c.seed = seed
            return c.withNoise(scale: noise)
        }
        let fast = outing(power: 1, seed: seeds.0), slow = outing(power: 0.965, seed: seeds.1)
        let start = Geodesy.destination(from: GeoPoint(latitude: fast.startLatitude, longitude: fast.startLongitude), distance: 100, bearing: fast.heading)
        let course = StraightCourse(start: start, heading: fast.heading, length: 2000, markerInterval: 500, name: "Tideway 2k")
        let reference = try Outing(fast, path: temp.path("fast-\(noise).csv"))
        let racer = try Outing(slow, path: temp.path("slow-\(noise).csv"))
        let saved = try XCTUnwrap(try replay(reference.path, ghost: nil, save: true).id)
        if (try? store.courses.course(named: "Tideway 2k")) == nil { _ = try store.addCourse(name: "Tideway 2k", geoJSON: course.geoJSON()) }

        let ghost = try store.ghostReference(course: "Tideway 2k", choice: .session(saved, attempt: 1), boat: nil)
        let race = try replay(racer.path, ghost: ghost).race
        XCTAssertEqual(race.gates.map(\.gate), ["500 m", "1000 m", "1500 m", "Finish"])
        func truthGap(_ d: Metres) throws -> Seconds {
            (try racer.time(atDistance: 100 + d) - racer.time(atDistance: 100))
                - (try reference.time(atDistance: 100 + d) - reference.time(atDistance: 100))
        }
        let slower = try truthGap(2000)
        if steady { XCTAssertEqual(slower, 5, accuracy: 1, "the slower crew is about 5 s slower over 2 km") }
        var previous = 0.0
        for gate in race.gates {
            let truth = try truthGap(gate.distance)
            if steady { XCTAssertGreaterThan(truth, previous, "the truth's gap grows") }
            previous = truth
            XCTAssertEqual(try XCTUnwrap(gate.gapSeconds), truth, accuracy: tolerance, "noise \(noise) at \(gate.gate)")
            print("[ghost] noise \(noise): gap at \(gate.gate) \(GhostCollectorText.gap(gate.gapSeconds)) s, truth \(GhostCollectorText.gap(truth)) s")
        }
        XCTAssertEqual(try XCTUnwrap(race.finalGap), slower, accuracy: tolerance)
    }
}

/// A gap as the tests print it.
enum GhostCollectorText {
    static func gap(_ s: Seconds?) -> String { s.map { ($0 >= 0 ? "+" : "") + RowingFormat.fixed($0, places: 2) } ?? "—" }
}
