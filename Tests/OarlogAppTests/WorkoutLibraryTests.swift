import Foundation
import OarlogApp
import OarlogCore
import XCTest

/// Saved plans (`WorkoutLibrary`): kept in `workouts.json` beside the sessions as they were
/// given, read back to the same steps; a plan argument resolves to a saved name, a .json file or
/// the whiteboard form, in that order, with an error that says what was tried; names, duplicates
/// and the 500-plan bound are refused with why; changes from many threads at once all land.
final class WorkoutLibraryTests: XCTestCase {
    private var temporary: TemporarySessions!
    private var library: WorkoutLibrary!

    override func setUp() {
        temporary = TemporarySessions()
        library = WorkoutLibrary(sessionsPath: temporary.directory.path)
    }

    override func tearDown() { temporary.remove() }

    func testPlansAreKeptBesideTheSessionsAsGiven() throws {
        XCTAssertEqual(library.path, temporary.directory.path + "/workouts.json")
        XCTAssertEqual(try library.list(), [], "no file yet: no plans")
        let (tuesday, replaced) = try library.add(name: "Tuesday 8s", .spec("8 x 500m @ 1:48-1:52 / 1:30r"))
        XCTAssertFalse(replaced)
        XCTAssertEqual(tuesday.plan, WorkoutPlan(name: "Tuesday 8s", steps: try WorkoutSpec.parse("8x500m@1:48-1:52/1:30r").steps))
        try library.add(name: "Saturday pyramid", .json(Array(WorkoutPlanJSONTests.pyramid.utf8)))

        let listed = try library.list()
        XCTAssertEqual(listed.map(\.name), ["Saturday pyramid", "Tuesday 8s"], "by name")
        XCTAssertEqual(listed[1].savedSpec, "8 x 500m @ 1:48-1:52 / 1:30r", "the text as it was given")
        XCTAssertEqual(listed[1].spec, "8 x 500m @ 1:48-1:52 / 1:30r")
        XCTAssertEqual(listed[1].summary, "8 × 500 m at 1:48–1:52 split / 1:30 rest")
        XCTAssertEqual(listed[0].plan.steps, try WorkoutPlanJSON.decode(Array(WorkoutPlanJSONTests.pyramid.utf8)).steps)
        XCTAssertEqual(listed[0].plan.name, "Saturday pyramid")
        XCTAssertNil(listed[0].spec)
        XCTAssertNotNil(listed[0].planJSON?.range(of: #"{"repeat":3,"steps":["#), "the repeat kept as given: \(listed[0].planJSON ?? "")")

        // The file a person may read: version 1, each plan as given.
        let file = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: library.path))) as? [String: Any]
        XCTAssertEqual(file?["version"] as? Int, 1)
        let entries = try XCTUnwrap(file?["workouts"] as? [[String: Any]])
        XCTAssertEqual(entries.map { $0["name"] as? String }, ["Saturday pyramid", "Tuesday 8s"])
        XCTAssertEqual(entries[1]["spec"] as? String, "8 x 500m @ 1:48-1:52 / 1:30r")
        XCTAssertNotNil(entries[0]["plan"] as? [String: Any])
        // Another library over the same directory (another process) reads the same.
        XCTAssertEqual(try WorkoutLibrary(sessionsPath: temporary.directory.path + "/").list(), listed)
        XCTAssertTrue(try FileManager.default.contentsOfDirectory(atPath: temporary.directory.path).allSatisfy { !$0.contains(".tmp-") },
                      "no temporary file left behind")
    }

    func testDuplicatesReplacingAndRemoving() throws {
        try library.add(name: "Pieces", .spec("3x4:00/2:00r"))
        XCTAssertThrowsError(try library.add(name: "Pieces", .spec("2x2000m/5:00r"))) { error in
            XCTAssertEqual(error as? WorkoutLibraryError,
                           .duplicate("a workout named ‘Pieces’ is saved already: remove it first, or replace it"))
        }
        XCTAssertEqual(try library.workout(named: "Pieces").plan.pieceCount, 3, "the first is kept")
        let (saved, replaced) = try library.add(name: "Pieces", .spec("2x2000m/5:00r"), replacing: true)
        XCTAssertTrue(replaced)
        XCTAssertEqual(saved.plan.steps.first?.length, .distance(2000))
        XCTAssertEqual(try library.list().count, 1)
        try library.remove(name: "Pieces")
        XCTAssertEqual(try library.list(), [])
        XCTAssertThrowsError(try library.remove(name: "Pieces")) { error in
            XCTAssertEqual(error as? WorkoutLibraryError, .notFound("no saved workout named ‘Pieces’"))
        }
    }

    func testNamesAndPlansAreChecked() throws {
        let bad: [(String, String)] = [
            ("", "name: a name needs at least one character"),
            (String(repeating: "a", count: 81), "name: a name of 81 characters: at most 80"),
            (" padded", "name: a name of printable characters only, without spaces at its ends"),
            ("bell\u{07}", "name: a name of printable characters only, without spaces at its ends"),
            ("two\nlines", "name: a name of printable characters only, without spaces at its ends"),
        ]
        for (name, message) in bad {
            XCTAssertThrowsError(try library.add(name: name, .spec("20:00"))) { XCTAssertEqual(($0 as? WorkoutLibraryError)?.description, message) }
        }
        XCTAssertNoThrow(try library.add(name: String(repeating: "é", count: 80), .spec("20:00")), "80 characters, accents and all")
        XCTAssertNoThrow(try library.add(name: "8x500m/1:30r", .spec("8x500m/1:30r")), "a name may look like a plan")
        XCTAssertThrowsError(try library.add(name: "bad", .spec("3x4:00/2:00"))) { error in
            let error = error as? WorkoutLibraryError
            XCTAssertEqual(error?.description, "spec: rest needs a trailing r at column 11")
            XCTAssertEqual(error?.pointer, "3x4:00/2:00\n          ^")
        }
        XCTAssertThrowsError(try library.add(name: "bad", .json(Array(#"{"steps":[{"kind":"work","time_s":172800}]}"#.utf8)))) {
            XCTAssertEqual(($0 as? WorkoutLibraryError)?.description, "steps[0].time_s: 172800 s is outside 1–14400 s (0:01–4:00:00)")
        }
        XCTAssertEqual(try library.list().count, 2, "nothing refused was kept")
    }

    func testAPlanArgumentResolvesInOrder() throws {
        try library.add(name: "20:00", .spec("2x10:00/1:00r"))
        XCTAssertEqual(try library.resolve("20:00").pieceCount, 2, "a saved name comes first, even one that reads as a plan")
        XCTAssertEqual(try library.resolve("20:00").name, "20:00")
        XCTAssertEqual(try library.resolve("3x4:00/2:00r").steps, try WorkoutSpec.parse("3x4:00/2:00r").steps)

        let file = temporary.path("pyramid.json")
        try Data(WorkoutPlanJSONTests.pyramid.utf8).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(try library.resolve(file).pieceCount, 3)
        XCTAssertEqual(try library.resolve(file).name, "Saturday pyramid")
        let unnamed = temporary.path("short.json")
        try Data(#"{"steps":[{"spec":"1x1000m"}]}"#.utf8).write(to: URL(fileURLWithPath: unnamed))
        XCTAssertEqual(try library.resolve(unnamed).name, "short", "named by its file")

        XCTAssertThrowsError(try library.resolve("3x4:00/2:00")) { error in
            XCTAssertEqual((error as? WorkoutLibraryError)?.description,
                           "‘3x4:00/2:00’: no saved workout has that name, it is no .json file, and as a plan: rest needs a trailing r at column 11")
        }
        XCTAssertThrowsError(try library.resolve(temporary.path("missing.json"))) { error in
            XCTAssertEqual((error as? WorkoutLibraryError)?.description,
                           "‘\(self.temporary.path("missing.json"))’: no saved workout has that name, and there is no such file")
        }
        try library.add(name: "Tuesday 8s", .spec("8x500m/1:30r"))
        XCTAssertThrowsError(try library.resolve("tuesday 8s")) { error in
            XCTAssertEqual((error as? WorkoutLibraryError)?.description, "‘tuesday 8s’: no saved workout has that name (one is named ‘Tuesday 8s’), "
                           + "it is no .json file, and as a plan: expected a piece's time (4:00) or distance (500m) at column 1")
        }
        let broken = temporary.path("broken.json")
        try Data(#"{"steps":[{"kind":"work","time_s":-5}]}"#.utf8).write(to: URL(fileURLWithPath: broken))
        XCTAssertThrowsError(try library.resolve(broken)) { error in
            XCTAssertEqual((error as? WorkoutLibraryError)?.description, "\(broken): steps[0].time_s: -5 s is outside 1–14400 s (0:01–4:00:00)")
        }
        // The command line's SPEC: a .json file's plan is kept in the JSON form.
        let (saved, _) = try library.add(name: "From a file", .argument(file))
        XCTAssertNil(saved.savedSpec)
        XCTAssertEqual(saved.plan.pieceCount, 3)
    }

    func testADamagedFileIsNamedAndNeverOverwritten() throws {
        try FileManager.default.createDirectory(atPath: temporary.directory.path, withIntermediateDirectories: true)
        try Data("{\"version\":1,\"workouts\":[{\"name\":\"x\",\"spec\":\"3x4:00/2:00\"}]}".utf8).write(to: URL(fileURLWithPath: library.path))
        XCTAssertThrowsError(try library.list()) { error in
            XCTAssertEqual((error as? WorkoutLibraryError)?.description, "workouts.json: workouts[0]: spec: rest needs a trailing r at column 11")
        }
        XCTAssertThrowsError(try library.add(name: "y", .spec("20:00")))
        XCTAssertEqual(try String(contentsOfFile: library.path, encoding: .utf8).contains("3x4:00/2:00\""), true, "left as it was")
        try Data("{\"version\":2,\"workouts\":[]}".utf8).write(to: URL(fileURLWithPath: library.path))
        XCTAssertThrowsError(try library.list()) { error in
            XCTAssertEqual((error as? WorkoutLibraryError)?.description, "workouts.json is of version 2, newer than this oarlog reads (1)")
        }
    }

    func testTheLibraryIsBounded() throws {
        // Filled through the file (500 changes, each synced, would take a while on an SD card).
        try FileManager.default.createDirectory(atPath: temporary.directory.path, withIntermediateDirectories: true)
        let entries = (1...WorkoutLibrary.maximumPlans).map { #"{"name":"plan \#($0)","spec":"20:00"}"# }
        try Data(("{\"version\":1,\"workouts\":[" + entries.joined(separator: ",") + "]}").utf8).write(to: URL(fileURLWithPath: library.path))
        XCTAssertEqual(try library.list().count, 500)
        XCTAssertThrowsError(try library.add(name: "one more", .spec("20:00"))) { error in
            XCTAssertEqual(error as? WorkoutLibraryError, .full("500 workouts are saved, the most kept: remove one first"))
        }
        XCTAssertNoThrow(try library.add(name: "plan 7", .spec("1x1000m"), replacing: true), "replacing one is no new one")
        XCTAssertEqual(try library.workout(named: "plan 7").plan.steps.first?.length, .distance(1000))
    }

    func testChangesFromManyThreadsAllLand() throws {
        let library = self.library!
        DispatchQueue.concurrentPerform(iterations: 24) { i in
            do { try library.add(name: "plan \(i)", .spec("\(i % 5 + 1)x500m/1:00r")) } catch { XCTFail("plan \(i): \(error)") }
        }
        let listed = try library.list()
        XCTAssertEqual(Set(listed.map(\.name)), Set((0..<24).map { "plan \($0)" }))
        for workout in listed {
            let i = Int(workout.name.dropFirst(5))!
            XCTAssertEqual(workout.plan.pieceCount, i % 5 + 1, workout.name)
        }
    }

    func testTheRequestBodyOfThePhone() throws {
        let (saved, replaced) = try library.add(requestBody: Array(#"{"name":"Race prep","spec":"2x2000m/5:00r"}"#.utf8))
        XCTAssertFalse(replaced)
        XCTAssertEqual(saved.plan.pieceCount, 2)
        let again = Array(#"{"name":"Race prep","plan":{"steps":[{"kind":"work","time_s":600}]},"replace":true}"#.utf8)
        XCTAssertTrue(try library.add(requestBody: again).replaced)
        let refusals: [(String, String)] = [
            (#"{"name":"a","spec":"3x4:00/2:00"}"#, "spec: rest needs a trailing r at column 11"),
            (#"{"name":"a","plan":{"steps":[{"kind":"work","time_s":60},{"kind":"rest","time_s":60},{"kind":"work","time_s":172800}]}}"#,
             "plan.steps[2].time_s: 172800 s is outside 1–14400 s (0:01–4:00:00)"),
            (#"{"spec":"20:00"}"#, "name: the plan's name is needed"),
            (#"{"name":"a"}"#, "the plan is needed: spec (3x4:00/2:00r) or plan (the JSON form)"),
            (#"{"name":"a","spec":"20:00","plan":{}}"#, "give spec or plan, not both"),
            (#"{"name":"a","spec":"20:00","replace":"yes"}"#, "replace: true or false, not a string"),
            (#"{"name":"a","spec":20}"#, "spec: a string, not a number"),
            (#"{"name":"a","spec":"20:00","colour":"red"}"#, "colour: unknown key (the body takes name, spec or plan, and replace)"),
        ]
        for (body, message) in refusals {
            XCTAssertThrowsError(try library.add(requestBody: Array(body.utf8)), body) {
                XCTAssertEqual(($0 as? WorkoutLibraryError)?.description, message, body)
            }
        }
        XCTAssertEqual(try library.list().map(\.name), ["Race prep"])
    }
}
