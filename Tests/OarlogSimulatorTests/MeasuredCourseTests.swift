import Foundation
import OarlogCore
import OarlogFences
@testable import OarlogSimulator
import OarlogTestSupport
import XCTest

/// The boat on a measured course (`--course FILE`) without the pipeline: its line through every
/// gate centre, the lead-in, the turns, and the truth's gate crossings against the positions.
final class MeasuredCourseTests: XCTestCase {
    /// Noise-free positions at 50 Hz: between fixes 20 ms apart the track is straight to well
    /// under a millimetre, so the fixes are the true line.
    func testTheBoatRowsThroughEveryGateCentreAndTurnsAtTheEnds() throws {
        let path = try gatePath(try nkCourse())
        var configuration = outing(on: path, gpsRate: 50).withNoise(scale: 0)
        configuration.accelRate = 10
        let session = try simulate(configuration, keepBoatFrames: false)
        let centres = path.gates.map(\.centre)
        let firstLeg = Geodesy.initialBearing(from: centres[0], to: centres[1])

        // It starts the lead-in before the start gate, on the line of the first leg.
        let first = try XCTUnwrap(session.fixes.first).point
        let lead = offsets(of: first, from: centres[0], bearing: firstLeg)
        XCTAssertEqual(lead.along, -path.leadIn, accuracy: 0.01)
        XCTAssertEqual(lead.left, 0, accuracy: 0.01)

        // Every crossing in the truth is at the gate's centre (to 2 cm: the fixes are 20 ms apart).
        let crossings = session.truth.gateCrossings
        XCTAssertFalse(crossings.isEmpty)
        for crossing in crossings {
            let there = try XCTUnwrap(position(at: crossing.time, in: session.fixes))
            XCTAssertEqual(Geodesy.distance(from: there, to: centres[crossing.gate - 1]), 0, accuracy: 0.02,
                           "\(crossing.name) at \(crossing.time) s, passage \(crossing.passage)")
        }

        // Passages alternate up and down the course, each gate in course order up and in reverse down.
        let passages = Dictionary(grouping: crossings, by: \.passage)
        for (number, run) in passages {
            XCTAssertTrue(run.allSatisfy { $0.direction == (number % 2 == 1 ? .forward : .back) }, "passage \(number)")
            let expected = number % 2 == 1 ? Array(1...5) : Array((1...5).reversed())
            XCTAssertEqual(run.map(\.gate), Array(expected.prefix(run.count)), "passage \(number)")
        }
        XCTAssertEqual(crossings.map(\.time), crossings.map(\.time).sorted())
        // How many passages each way the true distance covers, from the course's geometry alone:
        // a lap is the line (lead-in, legs, run-out) twice and two turns of 7π/3 × r.
        let legs = zip(centres, centres.dropFirst()).reduce(0) { $0 + Geodesy.distance(from: $1.0, to: $1.1) }
        let line = path.leadIn + legs + path.runOut
        let turn = 7 * Double.pi / 3 * path.turnRadius
        let lap = 2 * (line + turn)
        let total = session.truth.distance
        let upFinishes = (0..<10).filter { Double($0) * lap + path.leadIn + legs <= total }.count
        let backStarts = (0..<10).filter { Double($0) * lap + line + turn + path.runOut + legs <= total }.count
        XCTAssertGreaterThanOrEqual(upFinishes, 3, "an hour at 24 spm: three passages up or more")
        XCTAssertEqual(session.truth.completeForwardPassages(gateCount: 5).count, upFinishes)
        XCTAssertEqual(passages.filter { $0.key % 2 == 0 && $0.value.count == 5 }.count, backStarts, "complete passages back")

        try checkTurns(session, path: path)
    }

    /// At each end the boat turns beyond the last gate: at most the turn radius off the line,
    /// slowed to under 60 % of its speed on the course, then back up to speed.
    private func checkTurns(_ session: SimulatedSession, path: GatePath) throws {
        let centres = path.gates.map(\.centre)
        let lastLeg = Geodesy.initialBearing(from: centres[3], to: centres[4])
        let r = path.turnRadius
        let beyond = session.fixes.filter { offsets(of: $0.point, from: centres[4], bearing: lastLeg).along > path.runOut + 0.01 }
        XCTAssertFalse(beyond.isEmpty, "the boat turns past the finish")
        let sideways = beyond.map { abs(offsets(of: $0.point, from: centres[4], bearing: lastLeg).left) }
        let farthest = beyond.map { offsets(of: $0.point, from: centres[4], bearing: lastLeg).along }
        XCTAssertEqual(sideways.max() ?? 0, r, accuracy: 0.05, "a keyhole turn goes out to its radius off the line")
        XCTAssertLessThanOrEqual(farthest.max() ?? 0, path.runOut + (1 + 3.0.squareRoot()) * r + 0.05)
        let onCourse = session.fixes.filter { fix in
            let along = offsets(of: fix.point, from: centres[0], bearing: Geodesy.initialBearing(from: centres[0], to: centres[1])).along
            return along > 100 && along < 1800 && fix.time > 60
        }
        let cruising = onCourse.compactMap(\.speed).reduce(0, +) / Double(onCourse.count)
        let turning = beyond.compactMap(\.speed).reduce(0, +) / Double(beyond.count)
        print("[measured course] mean speed on the course \(cruising) m/s, in the turns \(turning) m/s")
        XCTAssertGreaterThan(cruising, 4)
        XCTAssertLessThan(turning, 0.7 * cruising, "the boat slows in the turn")
        XCTAssertGreaterThan(turning, 0.4 * cruising, "the crew rows light, it does not stop")
    }

    /// The truth is the boat's, not the receiver's: the same crossings at 1 Hz and 10 Hz GPS,
    /// with and without noise; and 1 Hz GPS gives a fix a second all along the loop.
    func testTheCrossingsDoNotDependOnTheGPSRate() throws {
        let path = try gatePath(try nkCourse())
        let slow = try simulate(outing(on: path, gpsRate: 1, positionNoise: 1, minutes: 20), keepBoatFrames: false)
        let fast = try simulate(outing(on: path, gpsRate: 10, minutes: 20), keepBoatFrames: false)
        XCTAssertEqual(slow.truth.gateCrossings, fast.truth.gateCrossings)
        XCTAssertEqual(slow.truth.gateCrossings.prefix(5).map(\.gate), [1, 2, 3, 4, 5])
        XCTAssertEqual(Set(slow.truth.gateCrossings.map(\.direction)), [.forward, .back], "20 minutes: up the course and back")
        XCTAssertEqual(slow.fixes.count, 20 * 60)
        XCTAssertEqual(fast.fixes.count, 20 * 60 * 10)
    }

    /// The truth file's gate rows read back as the crossings in memory; a name with a comma and
    /// quotes survives.
    func testTheTruthFileListsEveryGateCrossing() throws {
        var path = try gatePath(try nkCourse())
        path.gates[2].name = "halfway, \"the bridge\""
        var simulator = try BoatSimulator(configuration: outing(on: path, gpsRate: 1, minutes: 25))
        let truthPath = FileManager.default.temporaryDirectory.appendingPathComponent("course-\(UUID().uuidString).truth.csv").path
        defer { try? FileManager.default.removeItem(atPath: truthPath) }
        let truth = try simulator.run(truthPath: truthPath) { _ in }
        let file = try GroundTruthFile.read(path: truthPath)
        XCTAssertEqual(file.gateCrossings.count, truth.gateCrossings.count)
        XCTAssertGreaterThanOrEqual(file.gateCrossings.count, 9)
        for (read, kept) in zip(file.gateCrossings, truth.gateCrossings) {
            XCTAssertEqual(read.time, kept.time, accuracy: 1e-6)
            XCTAssertEqual(read.name, kept.name)
            XCTAssertEqual(read.gate, kept.gate)
            XCTAssertEqual(read.courseDistance, kept.courseDistance, accuracy: 1e-3)
            XCTAssertEqual(read.direction, kept.direction)
            XCTAssertEqual(read.passage, kept.passage)
        }
        XCTAssertTrue(file.gateCrossings.contains { $0.name == "halfway, \"the bridge\"" })
        XCTAssertEqual(file.metadata["course"], "NK logbook 2000 m")
        XCTAssertEqual(file.strokes.count, truth.strokeCount)
    }

    /// A course the boat cannot row is refused with the reason; a course file does not go with
    /// `--start` or `--heading`.
    func testACourseThatCannotBeRowedIsRefused() throws {
        let path = try gatePath(try nkCourse())
        var one = path
        one.gates = [path.gates[0]]
        XCTAssertThrowsError(try BoatSimulator(configuration: outing(on: one, gpsRate: 1))) { error in
            XCTAssertTrue("\(error)".contains("a course needs a start and a finish"), "\(error)")
        }
        var twice = path
        twice.gates[1].centre = twice.gates[0].centre
        XCTAssertThrowsError(try BoatSimulator(configuration: outing(on: twice, gpsRate: 1))) { error in
            XCTAssertTrue("\(error)".contains("less than 1 m apart"), "\(error)")
        }
        XCTAssertThrowsError(try SimulationConfiguration.fromOptions(minutes: 10, start: "52.2,6.8", measuredCourse: path)) { error in
            XCTAssertTrue("\(error)".contains("do not go with a course file"), "\(error)")
        }
        let configuration = try SimulationConfiguration.fromOptions(minutes: 10, measuredCourse: path)
        XCTAssertEqual(configuration.course, .gates(path))
        XCTAssertTrue(SimulationConfiguration.isCourseShape(" Curving"))
        XCTAssertFalse(SimulationConfiguration.isCourseShape("samples/nk-course.geojson"))
    }

    /// The centre of a gate is halfway along its line, also for a line of several pieces.
    func testAGateCentreIsHalfwayAlongItsLine() {
        let a = GeoPoint(latitude: 52.2, longitude: 6.8)
        let b = Geodesy.destination(from: a, distance: 30, bearing: 45)
        let c = Geodesy.destination(from: b, distance: 50, bearing: 135)
        let middle = GatePath.Gate.middle(of: [a, b, c])
        XCTAssertEqual(Geodesy.distance(from: b, to: middle), 10, accuracy: 1e-6)
        XCTAssertEqual(Geodesy.distance(from: middle, to: c), 40, accuracy: 1e-6)
        let two = GatePath.Gate.middle(of: [a, b])
        XCTAssertEqual(Geodesy.distance(from: a, to: two), 15, accuracy: 1e-6)
        XCTAssertEqual(Geodesy.distance(from: two, to: b), 15, accuracy: 1e-6)
    }
}
