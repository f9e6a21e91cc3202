import Foundation
import XCTest
import OarlogCore
import OarlogDSP
import OarlogExport
import OarlogPipeline
import OarlogSimulator
import OarlogTrace
import OarlogWorkouts

/// Exports of a session that rows a workout plan: a simulated crew rows steadily at 24 spm (and
/// keeps rowing through the rests, which is fine for the exports) while the pipeline's tracker
/// times the plan. Each file is read back by an independent reader (Garmin's FIT SDK, Oarlog's
/// own FIT decoder, xmllint with the TCX v2 schema) and its laps compared with the plan (the
/// lengths, kinds and targets written in the test), the simulator's catches and the tracker's
/// intervals.
final class WorkoutExportTests: XCTestCase {
    struct Rowed {
        var run: ExportRun
        var truth: GroundTruth
        var plan: WorkoutPlan
        var origin: Double
        var intervals: [WorkoutInterval] { run.recorder.intervals }
    }

    /// `plan` (nil: none) over a steady row of `minutes` at 24 spm, exported in every format.
    func row(_ plan: WorkoutPlan?, minutes: Double = 5) throws -> Rowed {
        var configuration = SimulationConfiguration(minutes: minutes, rate: 24)
        configuration.seed = 7
        var simulator = try BoatSimulator(configuration: configuration)
        let run = try ExportRun.make(&simulator, in: try temporaryDirectory(self), workout: plan.map { WorkoutTracker(plan: $0) })
        let origin = try XCTUnwrap(ExportTextParse.startUTC(run.recorder))
        return Rowed(run: run, truth: simulator.groundTruth, plan: plan ?? WorkoutPlan(name: "", steps: []), origin: origin)
    }

    /// The whiteboard plan of most tests: three one-minute pieces with 30 s rests.
    func threeByOneMinute() throws -> WorkoutPlan {
        let plan = try WorkoutSpec.parse("3x1:00/0:30r")
        XCTAssertEqual(plan.steps.map(\.kind), [.work, .rest, .work, .rest, .work])
        XCTAssertEqual(plan.steps.map(\.length), [.time(60), .time(30), .time(60), .time(30), .time(60)])
        return plan
    }

    func skipUnlessGarminSDK() throws {
        guard (try? OarlogExportTests.run(["python3", "-c", "import garmin_fit_sdk"]))?.status == 0 else {
            throw XCTSkip("Garmin's FIT SDK for Python is not installed (pip install garmin-fit-sdk, or scripts/setup.sh): not run")
        }
    }

    /// Simulated catches at or after `start` and before `end` (trace seconds).
    func truthStrokes(_ truth: GroundTruth, from start: Double, to end: Double) -> Int {
        truth.strokes.filter { $0.catchTime >= start && $0.catchTime < end }.count
    }

    func testGarminSDKReadsOneLapPerIntervalAndThePlan() throws {
        try skipUnlessGarminSDK()
        let rowed = try row(try threeByOneMinute())
        let decoded = try decodeFIT(rowed.run.fit)
        XCTAssertEqual(decoded["integrity"] as? Bool, true, "FIT CRC / size check failed")
        XCTAssertEqual((decoded["errors"] as? [Any])?.count, 0, "decoder errors: \(decoded["errors"] ?? "")")
        let intervals = rowed.intervals
        XCTAssertEqual(intervals.count, 5, "the tracker timed every step")
        XCTAssertEqual(intervals.map(\.completed), Array(repeating: true, count: 5))

        let laps = messages(decoded, "lap")
        let stepLaps = laps.filter { $0["wkt_step_index"] != nil }
        XCTAssertEqual(stepLaps.count, 5, "one lap per interval")
        XCTAssertEqual(stepLaps.map { $0.double("wkt_step_index") }, [0, 1, 2, 3, 4])
        XCTAssertEqual(stepLaps.map { $0.string("intensity") }, ["active", "rest", "active", "rest", "active"])
        XCTAssertEqual(stepLaps.map { $0.string("lap_trigger") }, Array(repeating: "time", count: 5))
        // The plan starts at the first catch: each step then starts where the plan's lengths say.
        var expectedStart = try XCTUnwrap(rowed.truth.strokes.first?.catchTime)
        for (k, (lap, interval)) in zip(stepLaps, intervals).enumerated() {
            let length = try XCTUnwrap(rowed.plan.steps[k].length.seconds)
            XCTAssertEqual(try XCTUnwrap(lap.double("total_elapsed_time")), length, accuracy: 0.0006, "lap of step \(k)")
            XCTAssertEqual(try XCTUnwrap(lap.double("total_timer_time")), length, accuracy: 0.0006, "lap of step \(k)")
            // FIT start times are whole seconds (rounded down); the detector's catch within 0.3 s.
            let start = try XCTUnwrap(unixTime(lap.double("start_time"))) - rowed.origin
            XCTAssertEqual(start, expectedStart, accuracy: 1.3, "step \(k) starts \(start) s, plan says \(expectedStart) s")
            XCTAssertEqual(start, interval.start.rounded(.down), accuracy: 0.0001, "the tracker's start, whole seconds")
            expectedStart += length
            let cycles = try XCTUnwrap(lap.double("total_cycles"))
            XCTAssertEqual(cycles, Double(interval.strokes), "the interval's strokes")
            XCTAssertEqual(cycles, Double(truthStrokes(rowed.truth, from: interval.start, to: interval.end)), accuracy: 1,
                           "the simulated catches in the step")
            XCTAssertEqual(try XCTUnwrap(lap.double("total_distance")), try XCTUnwrap(interval.distance), accuracy: 0.006)
            XCTAssertEqual(try XCTUnwrap(lap.double("avg_cadence")), 24, accuracy: 1, "the crew rows at 24 throughout")
            XCTAssertEqual(lap.string("sport"), "rowing")
        }
        try checkMargins(laps: laps, stepLaps: stepLaps, summary: rowed.run.summary)
        try checkPlanMessages(decoded, rowed.plan)
    }

    /// The laps before and after the plan, and the laps partitioning the session.
    func checkMargins(laps: [[String: Any]], stepLaps: [[String: Any]], summary: SessionSummary) throws {
        let leadIn = laps.first?["wkt_step_index"] == nil
        XCTAssertEqual(laps.count, stepLaps.count + 1 + (leadIn ? 1 : 0), "a lap before the first catch (if any), one after the plan")
        if leadIn { XCTAssertEqual(laps.first?.string("intensity"), "rest", "waiting for the start") }
        let after = try XCTUnwrap(laps.last)
        XCTAssertNil(after["wkt_step_index"])
        XCTAssertEqual(after.string("intensity"), "active", "rowing on after the plan")
        XCTAssertEqual(after.string("lap_trigger"), "session_end")
        // 5 min rowed, the plan lasts 4:00 from the first catch.
        XCTAssertGreaterThan(try XCTUnwrap(after.double("total_elapsed_time")), 50)
        let n = Double(laps.count)
        XCTAssertEqual(laps.compactMap { $0.double("total_elapsed_time") }.reduce(0, +), try XCTUnwrap(summary.elapsed),
                       accuracy: 0.001 * n)
        XCTAssertEqual(laps.compactMap { $0.double("total_distance") }.reduce(0, +), try XCTUnwrap(summary.distance),
                       accuracy: 0.01 * n)
        XCTAssertEqual(laps.compactMap { $0.double("total_cycles") }.reduce(0, +), Double(summary.strokes))
    }

    /// The `workout` and `workout_step` messages of `3x1:00/0:30r` as the SDK reads them.
    func checkPlanMessages(_ decoded: [String: Any], _ plan: WorkoutPlan) throws {
        let workouts = messages(decoded, "workout")
        XCTAssertEqual(workouts.count, 1)
        let workout = try XCTUnwrap(workouts.first)
        XCTAssertEqual(workout.string("sport"), "rowing")
        XCTAssertEqual(workout.double("num_valid_steps"), 5)
        XCTAssertEqual(workout.string("wkt_name"), "3x1:00/0:30r")
        let steps = messages(decoded, "workout_step")
        XCTAssertEqual(steps.map { $0.double("message_index") }, [0, 1, 2, 3, 4])
        XCTAssertEqual(steps.map { $0.string("duration_type") }, Array(repeating: "time", count: 5))
        XCTAssertEqual(steps.map { $0.double("duration_time") }, [60, 30, 60, 30, 60])
        XCTAssertEqual(steps.map { $0.string("intensity") }, ["active", "rest", "active", "rest", "active"])
        XCTAssertEqual(steps.map { $0.string("target_type") }, Array(repeating: "open", count: 5))
    }

    /// A plan with a warm-up, a distance piece with a rate and a split band, a rest, a timed piece
    /// with a split band and a cool-down, read back by Oarlog's own FIT decoder (what
    /// `oarlog fit FILE --message lap` prints).
    func testOwnDecoderReadsTheStepsTargetsAndADistancePiece() throws {
        let plan = WorkoutPlan(name: "500 m and 1:00", steps: [
            WorkoutStep(kind: .warmup, length: .time(30), label: "warm-up"),
            WorkoutStep(kind: .work, length: .distance(500), target: WorkoutTarget(strokeRate: 24...26, split: 120...130)),
            WorkoutStep(kind: .rest, length: .time(30)),
            WorkoutStep(kind: .work, length: .time(60), target: WorkoutTarget(split: 115...125)),
            WorkoutStep(kind: .cooldown, length: .time(30), label: "cool-down"),
        ])
        let rowed = try row(plan, minutes: 6)
        var decoder = try FITDecoder(path: rowed.run.fit)
        var all: [FITMessage] = []
        while let m = try decoder.next() { all.append(m) }
        func kind(_ number: UInt16) -> [FITMessage] { all.filter { $0.globalNumber == number } }

        let workout = try XCTUnwrap(kind(26).first)
        XCTAssertEqual(workout.integer(4), 15, "sport rowing")
        XCTAssertEqual(workout.integer(6), 5, "num_valid_steps")
        XCTAssertEqual(workout[8]?.text, "500 m and 1:00", "wkt_name")
        let steps = kind(27)
        XCTAssertEqual(steps.map { $0.integer(254) }, [0, 1, 2, 3, 4], "message_index")
        XCTAssertEqual(steps.map { $0[0]?.text }, ["warm-up", nil, nil, nil, "cool-down"], "wkt_step_name")
        XCTAssertEqual(steps.map { $0.integer(1) }, [0, 1, 0, 0, 0], "duration_type time, distance")
        XCTAssertEqual(steps.map { $0.integer(2) }, [30_000, 50_000, 30_000, 60_000, 30_000], "duration_value ms / cm")
        XCTAssertEqual(steps.map { $0.integer(7) }, [2, 0, 1, 0, 3], "intensity warmup, active, rest, active, cooldown")
        XCTAssertEqual(steps.map { $0.integer(3) }, [2, 3, 2, 0, 2], "target_type open, cadence, open, speed, open")
        XCTAssertEqual(steps.map { $0.integer(4) }, [nil, 0, nil, 0, nil], "target_value 0: a custom band")
        // Rate band 24–26 spm; split band 1:55–2:05 as speeds 500/125 and 500/115 m/s, in mm/s.
        XCTAssertEqual(steps.map { $0.integer(5) }, [nil, 24, nil, 4000, nil], "custom_target_value_low")
        XCTAssertEqual(steps.map { $0.integer(6) }, [nil, 26, nil, 4348, nil], "custom_target_value_high")
        // The piece with both bands has the split (2:00–2:10: 3.846–4.167 m/s) as its secondary target.
        XCTAssertEqual(steps.map { $0.integer(19) }, [nil, 0, nil, nil, nil], "secondary_target_type speed")
        XCTAssertEqual(steps[1].integer(21), 3846)
        XCTAssertEqual(steps[1].integer(22), 4167)

        let laps = kind(19)
        let stepLaps = laps.filter { $0.integer(71) != nil }
        let intervals = rowed.intervals
        XCTAssertEqual(intervals.count, 5)
        XCTAssertEqual(stepLaps.map { $0.integer(71) }, [0, 1, 2, 3, 4], "wkt_step_index")
        XCTAssertEqual(stepLaps.map { $0.integer(23) }, [2, 0, 1, 0, 3], "intensity")
        XCTAssertEqual(stepLaps.map { $0.integer(24) }, [1, 2, 1, 1, 1], "lap_trigger time, distance")
        for (k, (lap, interval)) in zip(stepLaps, intervals).enumerated() {
            let elapsed = try XCTUnwrap(lap.value(7, scale: 1000))
            if let seconds = plan.steps[k].length.seconds { XCTAssertEqual(elapsed, seconds, accuracy: 0.0006, "step \(k)") }
            XCTAssertEqual(elapsed, interval.elapsed, accuracy: 0.0006, "step \(k)")
            XCTAssertEqual(lap.integer(10), Int64(interval.strokes), "step \(k) strokes")
            XCTAssertEqual(try XCTUnwrap(lap.value(9, scale: 100)), try XCTUnwrap(interval.distance), accuracy: 0.006)
        }
        // The distance piece ends where the GPS distance reaches 500 m (interpolated between fixes).
        XCTAssertEqual(try XCTUnwrap(stepLaps[1].value(9, scale: 100)), 500, accuracy: 0.02)
        let session = try XCTUnwrap(kind(18).first)
        XCTAssertEqual(session.integer(26), Int64(laps.count), "num_laps")
        XCTAssertEqual(laps.compactMap { $0.integer(10) }.reduce(0, +), Int64(rowed.run.summary.strokes))
    }

    /// One TCX lap per interval with its intensity, time and its own track points; valid TCX v2.
    /// The plan only regroups the points: the track points are those of the same session
    /// exported without a plan.
    func testTCXLapsCarryIntensityAndTheirTrackpoints() throws {
        let rowed = try row(try threeByOneMinute())
        try assertSchemaValid(rowed.run.tcx, schema: "TrainingCenterDatabasev2.xsd")
        try assertSchemaValid(rowed.run.gpx, schema: "gpx-1.1.xsd")
        let laps = try tcxLaps(rowed.run.tcx)
        let intervals = rowed.intervals
        XCTAssertEqual(intervals.count, 5)
        let stepLaps = laps.filter { lap in intervals.contains { abs(rowed.origin + $0.start - lap.start) < 0.0006 } }
        XCTAssertEqual(stepLaps.count, 5, "one lap per interval")
        XCTAssertEqual(stepLaps.map(\.intensity), ["Active", "Resting", "Active", "Resting", "Active"])
        XCTAssertEqual(stepLaps.map(\.total), [60, 30, 60, 30, 60])
        XCTAssertEqual(stepLaps.map(\.trigger), Array(repeating: "Time", count: 5))
        for (lap, interval) in zip(stepLaps, intervals) {
            XCTAssertEqual(try XCTUnwrap(lap.cadence), try XCTUnwrap(interval.averageStrokeRate), accuracy: 0.5)
            XCTAssertEqual(lap.distance, try XCTUnwrap(interval.distance), accuracy: 0.005)
        }
        XCTAssertEqual(laps.last?.intensity, "Active", "rowing on after the plan")
        XCTAssertEqual(laps.count, 6 + (laps.first?.start ?? 0 < stepLaps.first?.start ?? 0 ? 1 : 0))
        if laps.count == 7 { XCTAssertEqual(laps.first?.intensity, "Resting", "waiting for the first catch") }
        for (k, lap) in laps.enumerated() {
            for t in lap.points {
                XCTAssertTrue(t >= lap.start - 0.0005 && t <= lap.start + lap.total + 0.0005, "lap \(k): point at \(t) outside it")
            }
        }
        let plain = try tcxLaps(try row(nil).run.tcx)
        XCTAssertEqual(laps.flatMap(\.points), plain.flatMap(\.points), "the same track points, regrouped")
        XCTAssertEqual(laps.flatMap(\.points).count, rowed.run.recorder.fixes.count - rowed.run.summary.rejectedFixes)
    }

    /// A session stopped inside its plan (`2x2:00/1:00r` over 4 minutes: the second piece has
    /// about a minute left): the last lap is that piece, cut short at the session's end, and there
    /// is no lap after the plan.
    func testASessionStoppedInsideThePlanEndsWithThatPiece() throws {
        let rowed = try row(try WorkoutSpec.parse("2x2:00/1:00r"), minutes: 4)
        var decoder = try FITDecoder(path: rowed.run.fit)
        var laps: [FITMessage] = []
        while let m = try decoder.next() {
            if m.globalNumber == 19 { laps.append(m) }
        }
        let intervals = rowed.intervals
        XCTAssertEqual(intervals.map(\.completed), [true, true, false])
        let stepLaps = laps.filter { $0.integer(71) != nil }
        XCTAssertEqual(stepLaps.map { $0.integer(71) }, [0, 1, 2])
        XCTAssertEqual(laps.last?.integer(71), 2, "no lap after the plan")
        XCTAssertEqual(laps.last?.integer(24), 7, "lap_trigger session_end")
        XCTAssertEqual(laps.last?.integer(23), 0, "intensity active")
        // The piece began 3:00 after the first catch; the session ends at 4:00 (its last record).
        let firstCatch = try XCTUnwrap(rowed.truth.strokes.first?.catchTime)
        let elapsed = try XCTUnwrap(laps.last?.value(7, scale: 1000))
        XCTAssertEqual(elapsed, 240 - (firstCatch + 180), accuracy: 0.35, "the piece's minute less the detector's catch offset")
        XCTAssertEqual(elapsed, try XCTUnwrap(intervals.last?.elapsed), accuracy: 0.0006)
    }

    struct TCXLap {
        var start: Double
        var total: Double
        var distance: Double
        var intensity: String
        var cadence: Double?
        var trigger: String
        var points: [Double]
    }

    /// The laps of a TCX export (as this project writes it: one element a line, a lap's totals
    /// before its track).
    func tcxLaps(_ path: String) throws -> [TCXLap] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        func time(_ s: String) throws -> Double { try XCTUnwrap(iso.date(from: s), s).timeIntervalSince1970 }
        func value(_ tag: String, in part: Substring) -> String? {
            part.components(separatedBy: "<\(tag)>").dropFirst().first.map { String($0.prefix { $0 != "<" }) }
        }
        return try text.split(separator: "<Lap StartTime=\"").dropFirst().map { part in
            let totals = part.components(separatedBy: "<Track>").first.map { Substring($0) } ?? part
            return TCXLap(start: try time(String(part.prefix { $0 != "\"" })),
                          total: try XCTUnwrap(value("TotalTimeSeconds", in: totals).flatMap(Double.init)),
                          distance: try XCTUnwrap(value("DistanceMeters", in: totals).flatMap(Double.init)),
                          intensity: try XCTUnwrap(value("Intensity", in: totals)),
                          cadence: value("Cadence", in: totals).flatMap(Double.init),
                          trigger: try XCTUnwrap(value("TriggerMethod", in: totals)),
                          points: try part.components(separatedBy: "<Trackpoint><Time>").dropFirst().map {
                              try time(String($0.prefix { $0 != "<" }))
                          })
        }
    }
}
