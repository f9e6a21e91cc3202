import OarlogApp
import OarlogCore
import XCTest

/// The JSON form (docs/WORKOUTS.md): the issue's pyramid reads to the steps written out by hand
/// here, repeats unrolled; the whiteboard form inside a `spec` step; each refusal names its path
/// and the limit; a plan written out (`encode`) reads back to the same steps.
final class WorkoutPlanJSONTests: XCTestCase {
    private func plan(_ text: String) throws -> WorkoutPlan { try WorkoutPlanJSON.decode(Array(text.utf8)) }

    private func failure(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            let plan = try WorkoutPlanJSON.decode(Array(text.utf8))
            XCTFail("read as \(plan.steps)", file: file, line: line)
            return nil
        } catch { return error.description }
    }

    static let pyramid = """
        {"name":"Saturday pyramid","steps":[{"kind":"warmup","time_s":600},
         {"repeat":3,"steps":[{"kind":"work","distance_m":500,"rate_spm":[22,24],"split_s_per_500m":[108,112],"label":"race pace"},
                              {"kind":"rest","time_s":90}]},
         {"kind":"cooldown","time_s":600}]}
        """

    func testTheIssuesPyramid() throws {
        let read = try plan(Self.pyramid)
        XCTAssertEqual(read.name, "Saturday pyramid")
        let piece = WorkoutStep(kind: .work, length: .distance(500), target: WorkoutTarget(strokeRate: 22...24, split: 108...112), label: "race pace")
        let rest = WorkoutStep(kind: .rest, length: .time(90))
        XCTAssertEqual(read.steps, [WorkoutStep(kind: .warmup, length: .time(600)), piece, rest, piece, rest, piece, rest,
                                    WorkoutStep(kind: .cooldown, length: .time(600))])
        XCTAssertEqual(read.pieceCount, 3)
        XCTAssertNil(read.spec, "a warm-up has no whiteboard form")
    }

    func testSpecStepsNestedRepeatsAndSingleValues() throws {
        let read = try plan("""
            {"steps":[{"spec":"2x1:00/0:30r"},{"kind":"rest","time_s":120},
                      {"repeat":2,"steps":[{"repeat":2,"steps":[{"kind":"work","time_s":30,"rate_spm":30}]},{"kind":"rest","time_s":60}]},
                      {"kind":"work","distance_m":250.5,"split_s_per_500m":105.5,"label":"  sprint\\n finish "}]}
            """)
        XCTAssertEqual(read.name, "workout", "named by the caller when the plan names itself not")
        let sprint = WorkoutStep(kind: .work, length: .time(30), target: WorkoutTarget(strokeRate: 30...30))
        XCTAssertEqual(read.steps, [
            WorkoutStep(kind: .work, length: .time(60)), WorkoutStep(kind: .rest, length: .time(30)), WorkoutStep(kind: .work, length: .time(60)),
            WorkoutStep(kind: .rest, length: .time(120)),
            sprint, sprint, WorkoutStep(kind: .rest, length: .time(60)), sprint, sprint, WorkoutStep(kind: .rest, length: .time(60)),
            WorkoutStep(kind: .work, length: .distance(250.5), target: WorkoutTarget(split: 105.5...105.5), label: "sprint  finish"),
        ])
    }

    func testEncodedPlansReadBack() throws {
        for text in [Self.pyramid, #"{"name":"x","steps":[{"spec":"3x10:00@20spm,22spm,24spm/2:00r"}]}"#] {
            let read = try plan(text)
            let encoded = WorkoutPlanJSON.encode(read)
            let again = try plan(encoded)
            XCTAssertEqual(again, read, encoded)
        }
        let spec = try WorkoutSpec.parse("8x500m@1:48-1:52@34-36spm/2:00r")
        XCTAssertTrue(WorkoutPlanJSON.encode(spec).hasPrefix(
            #"{"name":"8x500m@1:48-1:52@34-36spm/2:00r","steps":[{"kind":"work","distance_m":500,"rate_spm":[34,36],"split_s_per_500m":[108,112]},{"kind":"rest","time_s":120},"#))
    }

    func testRefusalsNameThePathAndTheLimit() {
        let cases: [(String, String)] = [
            (#"{"steps":[{"kind":"work","time_s":240},{"kind":"rest","time_s":60},{"kind":"work","time_s":172800}]}"#,
             "steps[2].time_s: 172800 s is outside 1–14400 s (0:01–4:00:00)"),
            (#"{"steps":[{"kind":"work","distance_m":60000}]}"#, "steps[0].distance_m: 60000 m is outside 10–50000 m"),
            (#"{"steps":[{"kind":"work","time_s":0}]}"#, "steps[0].time_s: 0 s is outside 1–14400 s (0:01–4:00:00)"),
            (#"{"steps":[{"repeat":0,"steps":[{"kind":"work","time_s":60}]}]}"#, "steps[0].repeat: 0 is outside 1–100"),
            (#"{"steps":[{"repeat":10000,"steps":[{"kind":"work","time_s":60}]}]}"#, "steps[0].repeat: 10000 is outside 1–100"),
            (#"{"steps":[{"repeat":2.5,"steps":[{"kind":"work","time_s":60}]}]}"#, "steps[0].repeat: a whole number, not a fraction"),
            (#"{"steps":[{"repeat":100,"steps":[{"kind":"work","time_s":60},{"kind":"rest","time_s":60},{"kind":"work","time_s":60}]}]}"#,
             "steps[0]: the plan would have more than 200 steps"),
            (#"{"steps":[{"repeat":60,"steps":[{"kind":"work","time_s":60},{"kind":"work","time_s":60}]}]}"#,
             "steps: 120 pieces: a workout has at most 100"),
            (#"{"steps":[{"kind":"work","tme_s":60}]}"#, "steps[0].tme_s: unknown key (a step takes kind, time_s or distance_m, rate_spm, split_s_per_500m and label; a repeat, repeat and steps)"),
            (#"{"steps":[{"kind":"sprint","time_s":60}]}"#, "steps[0].kind: the kind is warmup, work, rest or cooldown"),
            (#"{"steps":[{"time_s":60}]}"#, "steps[0]: a step needs a kind: warmup, work, rest or cooldown (or is a repeat or a spec)"),
            (#"{"steps":[{"kind":"work"}]}"#, "steps[0]: a step needs its length: time_s or distance_m"),
            (#"{"steps":[{"kind":"work","time_s":60,"distance_m":500}]}"#, "steps[0]: a step is a time or a distance: give time_s or distance_m, not both"),
            (#"{"steps":[{"kind":"work","time_s":"4:00"}]}"#, "steps[0].time_s: a number, not a string"),
            (#"{"steps":[{"kind":"work","time_s":true}]}"#, "steps[0].time_s: a number, not a boolean"),
            (#"{"steps":[{"kind":"work","time_s":60,"rate_spm":[24,22]}]}"#, "steps[0].rate_spm: a band runs from low to high: [22, 24]?"),
            (#"{"steps":[{"kind":"work","time_s":60,"rate_spm":[22,24,26]}]}"#, "steps[0].rate_spm: a number or a band [low, high], not an array"),
            (#"{"steps":[{"kind":"work","time_s":60,"rate_spm":[22,80]}]}"#, "steps[0].rate_spm[1]: 80 spm is outside 10–60 spm"),
            (#"{"steps":[{"kind":"work","time_s":60,"split_s_per_500m":30}]}"#, "steps[0].split_s_per_500m: 30 s is outside 60–600 s (1:00–10:00)"),
            (#"{"steps":[{"kind":"rest","distance_m":500}]}"#, "steps[0].distance_m: a rest is a time: give time_s"),
            (#"{"steps":[{"kind":"rest","time_s":60,"rate_spm":20}]}"#, "steps[0]: a rest has no target"),
            (#"{"steps":[{"kind":"warmup","time_s":600}]}"#, "steps: a workout needs at least one work step"),
            (#"{"steps":[]}"#, "steps: no steps: give at least one"),
            (#"{"name":"x"}"#, "a plan needs steps"),
            (#"{"name":"","steps":[{"kind":"work","time_s":60}]}"#, "name: a name needs at least one character"),
            (#"{"steps":[{"spec":"3x4:00/2:00"}]}"#, "steps[0].spec: rest needs a trailing r at column 11"),
            (#"{"steps":[{"spec":"3x4:00/2:00r","kind":"work"}]}"#, "steps[0].kind: unknown key (a spec step takes only spec)"),
            (#"{"steps":[{"repeat":2,"steps":[{"repeat":2,"steps":[{"repeat":2,"steps":[{"repeat":2,"steps":[{"kind":"work","time_s":60}]}]}]}]}]}"#,
             "steps[0].steps[0].steps[0].steps[0]: repeats nest at most 3 deep"),
            (#"[1,2]"#, "an object, not an array"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(failure(text), expected, text)
        }
        XCTAssertTrue(failure("{\"steps\": [")?.hasPrefix("not valid JSON (") ?? false)
        XCTAssertTrue(failure("")?.hasPrefix("not valid JSON (") ?? false)
        let big = "{\"steps\":[" + String(repeating: " ", count: WorkoutPlanJSON.maximumBytes) + "]}"
        XCTAssertEqual(failure(big), "a plan of \(big.utf8.count) bytes: at most 32 KiB")
    }

    /// Hostile input is refused with a message, never a trap: nesting as deep as 32 KiB allows,
    /// repeats nested deep, numbers beyond a Double.
    func testHostileInputIsRefused() {
        let brackets = String(repeating: "[", count: 16_000) + String(repeating: "]", count: 16_000)
        XCTAssertNotNil(failure(brackets))
        let objects = String(repeating: #"{"a":"#, count: 5000) + "1" + String(repeating: "}", count: 5000)
        XCTAssertNotNil(failure(objects))
        var repeats = #"{"kind":"work","time_s":60}"#
        for _ in 0..<200 { repeats = #"{"repeat":2,"steps":["# + repeats + "]}" }
        XCTAssertEqual(failure(#"{"steps":["# + repeats + "]}"), "steps[0]" + String(repeating: ".steps[0]", count: 3) + ": repeats nest at most 3 deep")
        XCTAssertNotNil(failure(#"{"steps":[{"kind":"work","time_s":1e400}]}"#))
        XCTAssertEqual(failure(#"{"steps":[{"kind":"work","time_s":1e300}]}"#), "steps[0].time_s: 1e+300 s is outside 1–14400 s (0:01–4:00:00)")
    }

    /// The limits hold at their edges: 100 pieces and 199 steps read.
    func testAPlanAtTheLimitsReads() throws {
        let read = try plan(#"{"steps":[{"repeat":99,"steps":[{"kind":"work","time_s":60},{"kind":"rest","time_s":60}]},{"kind":"work","time_s":14400}]}"#)
        XCTAssertEqual(read.pieceCount, 100)
        XCTAssertEqual(read.steps.count, 199)
        XCTAssertEqual(read.steps.last?.length, .time(WorkoutLimits.maximumStepTime))
    }
}
