import Foundation
import OarlogApp
import OarlogCore
import OarlogFences
import OarlogSimulator
import OarlogTestSupport
import OarlogTrace
import XCTest

/// Simulated outings up and down the NK course (`oarlog simulate --course`: an hour at 24 spm,
/// three passages up, the rest back the wrong way), kept as sessions: the attempt search finds
/// every complete passage up and none rowed back or past a marker, each timed against the
/// simulator's truth (the instant the true track crosses each gate).
final class CourseAttemptSimulationTests: XCTestCase {
    var temp: TemporarySessions!
    var store: SessionStore!

    override func setUp() {
        temp = TemporarySessions()
        store = SessionStore(sessionsPath: temp.directory.path)
    }

    override func tearDown() { temp.remove() }

    var nkPath: String { TestPaths.packageRoot.appendingPathComponent("samples/nk-course.geojson").path }

    /// An hour up and down the course at 1 Hz GPS, saved as a session: its id and the truth.
    func saveOuting(seed: UInt64, positionNoise: Double) throws -> (id: String, truth: GroundTruth) {
        let file = try FenceFile.load(path: nkPath)
        let course = try XCTUnwrap(file.course)
        let gates = try course.gates.enumerated().map { k, id -> GatePath.Gate in
            guard case .gate(let line, _)? = file.fences.first(where: { $0.id == id })?.shape else { throw AppError("not a gate") }
            return GatePath.Gate(name: id.name, line: line, courseDistance: course.distances[k])
        }
        var c = SimulationConfiguration(minutes: 60, rate: 24)
        c.course = .gates(GatePath(name: course.name, gates: gates))
        c.accelRate = 25
        c.gpsRate = 1
        c.gpsDropoutsPerHour = 0
        c.gpsWander *= positionNoise
        c.gpsJitter *= positionNoise
        c.seed = seed
        var simulator = try BoatSimulator(configuration: c)
        let trace = temp.path("outing-\(seed).csv")
        var writer = try TraceWriter(path: trace, metadata: [])
        _ = try simulator.run { try writer.write($0) }
        try writer.close()
        var replay = try TraceReplay(path: trace)
        let kept = try store.keeping(replay, title: "outing \(seed)", boat: "Eight")
        _ = try replay.run(sinks: [], keeping: kept)
        return (kept.id, simulator.groundTruth)
    }

    func testEveryCompletePassageIsFoundAndTimedAt1Hz() throws {
        let clean = try saveOuting(seed: 1, positionNoise: 0)
        let noisy = try saveOuting(seed: 2, positionNoise: 1)
        _ = try store.addCourse(name: "NK 2k", file: nkPath)
        let attempts = try store.attempts(course: "NK 2k")
        var worst: [String: Seconds] = [:]
        // Noise-free positions: only the 1 Hz sampling and the interpolation between fixes are
        // tested (0.1 s). With the receiver's default errors (a wander of σ 1.5 m, at 4 m/s about
        // 0.4 s a crossing) each crossing is within 1 s and a time, the difference of two, 1.5 s.
        for (outing, tolerance, label) in [(clean, 0.1, "noise-free positions"), (noisy, 1.0, "the receiver's default errors")] {
            let truth = outing.truth.completeForwardPassages(gateCount: 5)
            XCTAssertEqual(truth.count, 3, "an hour at 24 spm rows three passages up")
            let found = attempts.filter { $0.session == outing.id }.sorted { $0.start < $1.start }
            XCTAssertEqual(found.count, truth.count, "every passage up, none of those rowed back (\(label))")
            for (attempt, passage) in zip(found, truth) {
                let starts = passage.first!.time, finishes = passage.last!.time
                worst[label] = max(worst[label] ?? 0, abs(attempt.start - starts), abs(attempt.finish - finishes))
                XCTAssertEqual(attempt.start, starts, accuracy: tolerance, label)
                XCTAssertEqual(attempt.finish, finishes, accuracy: tolerance, label)
                let span = tolerance == 0.1 ? 0.1 : 1.5
                XCTAssertEqual(attempt.time, finishes - starts, accuracy: span, label)
                for (k, leg) in attempt.legs.enumerated() {
                    XCTAssertEqual(leg.time, passage[k + 1].time - passage[k].time, accuracy: span, "leg \(k + 1), \(label)")
                }
            }
        }
        print("[course attempts] worst start or finish error at 1 Hz: \(worst)")
    }

    /// The same outing against the course with its 500 m marker 100 m off the line: every
    /// passage skipped it, so none is an attempt of that course (the true course still has three).
    func testAPassagePastAMarkerIsNoAttempt() throws {
        let outing = try saveOuting(seed: 3, positionNoise: 1)
        var text = try String(contentsOfFile: nkPath, encoding: .utf8)
        let file = try FenceFile.load(path: nkPath)
        let marker = CourseCheck.gateLines(file)[1]
        for p in marker {
            let out = Geodesy.destination(from: p, distance: 100, bearing: 310.3 + 90)
            text = text.replacingOccurrences(of: "[\(p.longitude), \(p.latitude)]", with: "[\(out.longitude), \(out.latitude)]")
        }
        XCTAssertNotEqual(try CourseCheck.gateLines(FenceFile.parse(text))[1], marker, "the marker moved")
        _ = try store.addCourse(name: "Off the line", geoJSON: text)
        XCTAssertEqual(try store.attempts(course: "Off the line"), [])
        _ = try store.addCourse(name: "NK 2k", file: nkPath)
        XCTAssertEqual(try store.attempts(course: "NK 2k").filter { $0.session == outing.id }.count,
                       outing.truth.completeForwardPassages(gateCount: 5).count)
    }
}
