import Foundation
import OarlogCore
@testable import OarlogSimulator
import OarlogTestSupport
import XCTest

/// The simulated crew rowing a workout plan (`SimulationConfiguration.workout`): the truth's
/// intervals against the plan's times and distances, the truth's own catches and the noise-free
/// samples the sensor was given (semantics in docs/SIMULATOR.md, "Rowing a workout plan").
final class WorkoutSimulationTests: XCTestCase {
    /// A plan's session at `rate` (steps without a rate target), noise-free.
    private func configuration(_ spec: String, rate: StrokesPerMinute, accelHz: Hertz = 25) throws -> SimulationConfiguration {
        var configuration = noiseFree(SimulationConfiguration(workout: try WorkoutSpec.parse(spec), rate: rate))
        configuration.accelRate = accelHz
        return configuration
    }

    /// Every interval's strokes are the truth's catches with start ≤ catch < end, its rate from
    /// the first and last of them; the intervals follow each other with no gap.
    private func assertIntervalsAgreeWithStrokes(_ truth: GroundTruth, file: StaticString = #filePath, line: UInt = #line) {
        for (i, interval) in truth.intervals.enumerated() {
            let inside = truth.strokes.filter { $0.catchTime >= interval.start && $0.catchTime < interval.end }
            XCTAssertEqual(interval.strokes, inside.count, "interval \(interval.index)", file: file, line: line)
            XCTAssertEqual(interval.firstCatch, inside.first?.catchTime, file: file, line: line)
            XCTAssertEqual(interval.lastCatch, inside.last?.catchTime, file: file, line: line)
            if inside.count >= 2 {
                let rate = 60 * Double(inside.count - 1) / (inside.last!.catchTime - inside.first!.catchTime)
                XCTAssertEqual(interval.averageRate!, rate, accuracy: 1e-9, file: file, line: line)
            } else {
                XCTAssertNil(interval.averageRate, file: file, line: line)
            }
            if interval.kind == .rest { XCTAssertEqual(interval.strokes, 0, "a catch inside rest \(interval.index)", file: file, line: line) }
            if interval.kind.isRowed {
                XCTAssertEqual(inside.first?.catchTime, interval.start, "a rowed step starts with a catch", file: file, line: line)
                XCTAssertNil(inside.last?.recoveryDuration, "the piece's last stroke has no recovery", file: file, line: line)
            }
            XCTAssertEqual(interval.index, i + 1, file: file, line: line)
            if i > 0 { XCTAssertEqual(interval.start, truth.intervals[i - 1].end, file: file, line: line) }
        }
        let counted = truth.intervals.reduce(0) { $0 + $1.strokes }
        XCTAssertEqual(counted, truth.strokeCount, "every catch is in an interval", file: file, line: line)
    }

    /// The noise-free sample at exactly `t` (on the accelerometer's grid).
    private func frame(at t: Seconds, in session: SimulatedSession, rate: Hertz) -> BoatSimulator.BoatFrameSample {
        session.boatFrames[Int((t * rate).rounded())]
    }

    func testTimedPiecesLastTheirTimesAndRestsHaveNoCatches() throws {
        for rate in [20.0, 30.0] {
            let session = try simulate(try configuration("3x1:00/0:30r", rate: rate, accelHz: 100))
            let truth = session.truth
            XCTAssertEqual(truth.intervals.map(\.kind), [.work, .rest, .work, .rest, .work])
            // Step 1 at the first catch (0.5 s from rest); each step exactly its time after the last.
            XCTAssertEqual(truth.intervals.map(\.start), [0.5, 60.5, 90.5, 150.5, 180.5])
            XCTAssertEqual(truth.intervals.map(\.end), [60.5, 90.5, 150.5, 180.5, 240.5])
            XCTAssertEqual(truth.strokes.first?.catchTime, 0.5)
            assertIntervalsAgreeWithStrokes(truth)
            for piece in truth.intervals where piece.kind == .work {
                XCTAssertEqual(Double(piece.strokes), rate, accuracy: 1, "a minute at \(rate) spm")
                XCTAssertEqual(piece.averageRate!, rate, accuracy: 0.5)
            }
            // Distances against the noise-free samples at the boundaries (on the 100 Hz grid).
            for interval in truth.intervals {
                let along = frame(at: interval.end, in: session, rate: 100).distance - frame(at: interval.start, in: session, rate: 100).distance
                XCTAssertEqual(interval.distance, along, accuracy: 1e-9)
            }
            // The rests: no stroke force, the boat only glides (its speed never rises).
            for rest in truth.intervals where rest.kind == .rest {
                let gliding = session.boatFrames.filter { $0.time > rest.start + 1.2 && $0.time < rest.end - 0.2 }
                for (a, b) in zip(gliding, gliding.dropFirst()) { XCTAssertLessThanOrEqual(b.speed, a.speed + 1e-12) }
            }
            // The session ends 20 s after the plan, and says so in its metadata.
            XCTAssertEqual(truth.elapsed, 260.5, accuracy: 1e-9)
            XCTAssertEqual(session.metadata.first { $0.key == "duration_s" }?.value, "260.500")
            XCTAssertEqual(session.metadata.first { $0.key == "workout" }?.value, "3x1:00/0:30r")
        }
    }

    func testDistancePiecesEndWhereTheTrueDistanceReachesThem() throws {
        for rate in [20.0, 32.0] {
            let session = try simulate(try configuration("2x500m/1:00r", rate: rate, accelHz: 100))
            let truth = session.truth
            XCTAssertEqual(truth.intervals.map(\.kind), [.work, .rest, .work])
            assertIntervalsAgreeWithStrokes(truth)
            let rest = truth.intervals[1]
            XCTAssertEqual(rest.end - rest.start, 60, accuracy: 1e-9)
            for piece in [truth.intervals[0], truth.intervals[2]] {
                XCTAssertEqual(piece.distance, 500, accuracy: 0.01)
                // The true distance at the piece's first catch is its start's; the samples either
                // side of the end bracket start + 500 m, and interpolate to the end within 5 ms.
                let startDistance = try XCTUnwrap(truth.strokes.first { $0.catchTime == piece.start }).distance
                let index = Int((piece.end * 100).rounded(.down))
                let before = session.boatFrames[index], after = session.boatFrames[index + 1]
                XCTAssertLessThan(before.distance, startDistance + 500)
                XCTAssertGreaterThanOrEqual(after.distance, startDistance + 500)
                let interpolated = before.time + (startDistance + 500 - before.distance) / (after.distance - before.distance) * 0.01
                XCTAssertEqual(interpolated, piece.end, accuracy: 0.005)
                // The crew stopped there: its last catch came before, and the next is the next piece's.
                XCTAssertLessThan(piece.lastCatch!, piece.end)
                XCTAssertEqual(piece.averageRate!, rate, accuracy: 0.5)
                let speed = BoatResponse.targetSpeed(rate: rate, power: 1)
                XCTAssertEqual(piece.duration, 500 / speed, accuracy: 0.1 * 500 / speed, "about 500 m at the crew's speed")
            }
            let later = truth.strokes.filter { $0.catchTime >= truth.intervals[0].end }
            XCTAssertEqual(later.first?.catchTime, truth.intervals[2].start)
        }
    }

    func testRateTargetsSetEachPiecesRate() throws {
        let truth = try simulate(try configuration("3x1:00@20spm,24spm,28spm/0:30r", rate: 32), keepBoatFrames: false).truth
        assertIntervalsAgreeWithStrokes(truth)
        let pieces = truth.intervals.filter { $0.kind == .work }
        XCTAssertEqual(pieces.count, 3)
        for (piece, target) in zip(pieces, [20.0, 24, 28]) {
            XCTAssertEqual(piece.averageRate!, target, accuracy: 0.5)
            let strokes = truth.strokes.filter { $0.catchTime >= piece.start && $0.catchTime < piece.end }
            XCTAssertTrue(strokes.allSatisfy { $0.profileRate == target })
        }
        // A band rows at its middle; a split target sets the pressure for that mean speed.
        let banded = try simulate(try configuration("1x1:30@22-26spm@2:00", rate: 32), keepBoatFrames: false).truth
        let piece = try XCTUnwrap(banded.intervals.first)
        XCTAssertEqual(piece.averageRate!, 24, accuracy: 0.5)
        let settled = banded.strokes.filter { $0.catchTime >= 30 && $0.catchTime < piece.end }
        let speed = (settled.last!.distance - settled.first!.distance) / (settled.last!.catchTime - settled.first!.catchTime)
        XCTAssertEqual(500 / speed, 120, accuracy: 3, "2:00/500 m, within 3 s")
    }

    /// Warm-up, a distance piece and a cool-down with no rests between: each rowed step starts with
    /// a catch at the end of the one before, a distance-ended one too.
    func testRowedStepsStraightAfterEachOther() throws {
        let plan = WorkoutPlan(name: "warm-up, 300 m, cool-down", steps: [
            WorkoutStep(kind: .warmup, length: .time(30), target: WorkoutTarget(strokeRate: 18...18)),
            WorkoutStep(kind: .work, length: .distance(300), target: WorkoutTarget(strokeRate: 30...30)),
            WorkoutStep(kind: .cooldown, length: .time(20)),
        ])
        var configuration = noiseFree(SimulationConfiguration(workout: plan, rate: 20, power: 0.5))
        configuration.accelRate = 25
        let truth = try simulate(configuration, keepBoatFrames: false).truth
        XCTAssertEqual(truth.intervals.map(\.kind), [.warmup, .work, .cooldown])
        assertIntervalsAgreeWithStrokes(truth)
        XCTAssertEqual(truth.intervals[0].end, 30.5)
        XCTAssertEqual(truth.intervals[1].distance, 300, accuracy: 0.01)
        XCTAssertEqual(truth.intervals[2].end - truth.intervals[2].start, 20, accuracy: 1e-9)
        for (interval, rate) in zip(truth.intervals, [18.0, 30, 20]) {
            XCTAssertEqual(interval.averageRate!, rate, accuracy: 0.6, "\(interval.kind)")
        }
    }

    /// The truth is the boat's, not the sensors': the same intervals and catches at every sensor
    /// rate, mounting and noise, and streamed with a small window.
    func testSensorRatesAndOptionsDoNotChangeTheIntervals() throws {
        let plan = try WorkoutSpec.parse("1:00,400m/0:20r")
        var reference = SimulationConfiguration(workout: plan, rate: 26)
        reference.accelRate = 25
        reference.gpsRate = 1
        let expected = try simulate(reference, keepBoatFrames: false).truth
        XCTAssertEqual(expected.intervals.count, 3)
        XCTAssertEqual(expected.intervals[2].distance, 400, accuracy: 0.01)
        for (accelHz, gpsHz) in [(100.0, 10.0), (500.0, 10.0), (500.0, 1.0)] {
            var other = reference
            other.accelRate = accelHz
            other.gpsRate = gpsHz
            other.mounting = try Mounting.parse("tilted")
            other.course = .curving(amplitude: 25, wavelength: 3000)
            other = other.withNoise(scale: 2.5)
            var simulator = try BoatSimulator(configuration: other, truthRetention: .recent(4))
            var catches: [Seconds] = []
            while try simulator.next() != nil {
                if let last = simulator.groundTruth.lastStroke, last.catchTime != catches.last { catches.append(last.catchTime) }
            }
            XCTAssertEqual(simulator.groundTruth.intervals, expected.intervals, "\(accelHz) Hz, GPS \(gpsHz) Hz")
            XCTAssertEqual(catches, expected.strokes.map(\.catchTime))
            XCTAssertEqual(simulator.sessionDuration, expected.intervals.last!.end + 20, accuracy: 1e-9)
        }
    }

    func testConfiguredDurationIsTheLeastLengthAndBadPlansAreRefused() throws {
        var longer = try configuration("1:00", rate: 24)
        longer.duration = 120
        let truth = try simulate(longer, keepBoatFrames: false).truth
        XCTAssertEqual(truth.elapsed, 120)
        XCTAssertEqual(truth.intervals.map(\.end), [60.5])
        XCTAssertTrue(truth.strokes.allSatisfy { $0.catchTime < 60.5 })

        var distanceRest = try configuration("2x500m/1:00r", rate: 24)
        distanceRest.workout!.steps[1].length = .distance(100)
        XCTAssertThrowsError(try distanceRest.validate()) { XCTAssertTrue("\($0)".contains("a rest is a time"), "\($0)") }
        var empty = distanceRest
        empty.workout!.steps = []
        XCTAssertThrowsError(try empty.validate())
        var noPlanNoTime = empty
        noPlanNoTime.workout = nil
        XCTAssertThrowsError(try noPlanNoTime.validate(), "a session without a plan needs a duration")
    }

    /// `oarlog simulate --workout` as a person runs it: the truth file's interval rows, and a bad
    /// plan shown with a caret under the column.
    func testCommandLineWritesTheIntervalRows() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-workout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("sim.csv").path
        let run = try runOarlog(["simulate", "--workout", "2x1:00/0:30r", "--rate", "22", "--accel-hz", "25", "-o", trace],
                                dataDirectory: directory.path)
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.err.contains("3 intervals"), run.err)
        let file = try GroundTruthFile.read(path: GroundTruthWriter.truthPath(forTracePath: trace))
        XCTAssertEqual(file.metadata["workout"], "2x1:00/0:30r")
        XCTAssertEqual(file.metadata["duration_s"], "170.500")
        XCTAssertEqual(file.intervals.map(\.kind), [.work, .rest, .work])
        XCTAssertEqual(file.intervals.map(\.start), [0.5, 60.5, 90.5])
        XCTAssertEqual(file.intervals.map(\.end), [60.5, 90.5, 150.5])
        for interval in file.intervals {
            let inside = file.strokes.filter { $0.catchTime >= interval.start && $0.catchTime < interval.end }
            XCTAssertEqual(interval.strokes, inside.count)
        }
        XCTAssertEqual(file.intervals.reduce(0) { $0 + $1.strokes }, file.totalStrokes)
        XCTAssertEqual(file.intervals[0].averageRate!, 22, accuracy: 0.5)
        XCTAssertEqual(file.duration, 170.5)

        let bad = try runOarlog(["simulate", "--workout", "3x4:00/2:00", "-o", trace], dataDirectory: directory.path)
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.err.contains("rest needs a trailing r at column 11"), bad.err)
        XCTAssertTrue(bad.err.contains("3x4:00/2:00\n            ^"), bad.err)
    }
}
