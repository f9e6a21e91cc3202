import Foundation
import OarlogApp
import OarlogCore
import OarlogFences
import OarlogPipeline
import OarlogTestSupport
import XCTest

/// The course library and its attempts through the one door, on the real NK LiNK Logbook
/// export and its 2 km course (`oarlog course` times the piece at 10:08.3).
final class CourseAttemptTests: XCTestCase {
    var temp: TemporarySessions!
    var store: SessionStore!

    override func setUp() {
        temp = TemporarySessions()
        store = SessionStore(sessionsPath: temp.directory.path)
    }

    override func tearDown() { temp.remove() }

    var nkCourse: String { TestPaths.packageRoot.appendingPathComponent("samples/nk-course.geojson").path }

    /// Replays the NK export and keeps it as a session; its id.
    @discardableResult
    func saveNK(boat: String? = nil) throws -> String {
        var replay = try TraceReplay(path: try samplePath("rowingdata/nk_logbook.csv"))
        let kept = try store.keeping(replay, title: nil, boat: boat)
        _ = try replay.run(sinks: [], keeping: kept)
        return kept.id
    }

    /// What `oarlog course` gives: the pieces of a replay with the course's fences.
    func courseCommandPieces() throws -> [CoursePiece] {
        var replay = try TraceReplay(path: try samplePath("rowingdata/nk_logbook.csv"), fences: try FenceFile.load(path: nkCourse))
        let table = CourseTable { _ in }
        _ = try replay.run(sinks: [table])
        return table.pieces
    }

    func testTheNKSampleSavedTwiceGivesTwoAttemptsOfTheCourseCommandsTime() throws {
        let first = try saveNK()
        let second = try saveNK(boat: "Eight")
        let added = try store.addCourse(name: "NK 2k", file: nkCourse)
        XCTAssertEqual(added.sessionsSearched, 2)
        let reference = try courseCommandPieces()
        XCTAssertEqual(reference.count, 1)
        XCTAssertEqual(RowingFormat.duration(reference[0].duration), "10:08.3")

        let attempts = try store.attempts(course: "NK 2k")
        XCTAssertEqual(attempts.count, 2)
        XCTAssertEqual(Set(attempts.map(\.session)), [first, second])
        for a in attempts {
            XCTAssertEqual(a.time, reference[0].duration, accuracy: 1e-9, "exactly oarlog course's time")
            XCTAssertEqual(a.start, reference[0].startTime, accuracy: 1e-9)
            XCTAssertEqual(RowingFormat.duration(a.time), "10:08.3")
            XCTAssertEqual(a.legs.map(\.to), ["500 m", "1000 m", "1500 m", "Finish"])
            XCTAssertEqual(a.legs.map(\.time), reference[0].segments.map(\.duration))
            XCTAssertEqual(a.strokes, reference[0].strokes)
        }
        XCTAssertEqual(try store.attempts(course: "nk 2K", boat: "eight").map(\.session), [second], "names and boats are matched ignoring case")
        XCTAssertEqual(try store.attempts(boat: "Four"), [])
    }

    func testASessionSavedAfterTheCourseIsSearchedWhenSaved() throws {
        _ = try store.addCourse(name: "NK 2k", file: nkCourse)
        XCTAssertEqual(try store.attempts().count, 0)
        let id = try saveNK()
        XCTAssertEqual(try store.searchCourses(inSession: id).map(\.course), ["NK 2k"])
        // A session changed (retitled) is read again: still one attempt, not two.
        _ = try store.retitle(id: id, to: "Canal 2k")
        XCTAssertEqual(try store.attempts().count, 1)
        try store.delete(id: id)
        XCTAssertEqual(try store.attempts().count, 0, "a deleted session's attempts go with it")
    }

    func testTheLibraryRefusesWhatIsNotANewCourse() throws {
        _ = try store.addCourse(name: "NK 2k", file: nkCourse)
        XCTAssertThrowsError(try store.addCourse(name: "NK 2k", file: nkCourse)) { error in
            XCTAssertEqual("\(error)", "a course named \"NK 2k\" is kept already")
        }
        XCTAssertThrowsError(try store.addCourse(name: "Canal", file: nkCourse)) { error in
            XCTAssertEqual("\(error)", "the course \"NK 2k\" has the same gates")
        }
        let short = StraightCourse(start: GeoPoint(latitude: 52.2, longitude: 6.8), heading: 0, length: 60, markerInterval: 0).geoJSON()
        XCTAssertThrowsError(try store.addCourse(name: "Short", geoJSON: short)) { error in
            XCTAssertTrue("\(error)".contains("a course is at least 100 m"), "\(error)")
        }
        XCTAssertThrowsError(try store.addCourse(name: "Broken", geoJSON: "{\"type\": \"FeatureCollection\", \"features\": [")) { error in
            XCTAssertTrue("\(error)".contains("Broken"), "the error names the course: \(error)")
        }
        XCTAssertThrowsError(try store.addCourse(name: " ", file: nkCourse))
        XCTAssertEqual(try store.courses.list().map(\.name), ["NK 2k"])
        // Replacing it under its own name is allowed; deleting forgets it.
        _ = try store.addCourse(name: "nk 2k", file: nkCourse, replacing: true)
        XCTAssertEqual(try store.courses.list().map(\.name), ["nk 2k"])
        try store.removeCourse(name: "NK 2K")
        XCTAssertEqual(try store.courses.list(), [])
        XCTAssertThrowsError(try store.removeCourse(name: "NK 2k"))
    }

    func testADamagedLibraryFileIsNamed() throws {
        try FileManager.default.createDirectory(atPath: temp.directory.path, withIntermediateDirectories: true)
        try Data("{\"version\": 1, \"courses\": [{\"name\": \"x\"}]}".utf8).write(to: URL(fileURLWithPath: store.courses.path))
        XCTAssertThrowsError(try store.courses.list()) { error in
            XCTAssertEqual("\(error)", "courses.json: courses[0] needs a name and its geojson")
        }
    }

    /// A course made on the session's map: start and finish tapped near the track, gates square
    /// to it; the session itself then holds one attempt of about the distance between the taps.
    func testACourseMadeFromASessionsTrackFindsThatSession() throws {
        let id = try saveNK()
        let file = try FenceFile.load(path: nkCourse)
        let centres = CourseCheck.gateCentres(file)
        let start = Geodesy.destination(from: centres[0], distance: 8, bearing: 45)
        let made = try store.makeCourse(fromSession: id, start: start, finish: centres[4], name: "Tapped")
        XCTAssertNil(CourseCheck.problem(made.course.file))
        XCTAssertEqual(made.course.length, 2000, accuracy: 60, "the track's distance between the taps")
        XCTAssertEqual(made.course.course.gates.count, 5, "start, three markers, finish")
        XCTAssertEqual(made.attempts.map(\.session), [id])
        XCTAssertEqual(made.attempts[0].time, 608.3, accuracy: 15, "about the NK course's time")
        XCTAssertThrowsError(try store.makeCourse(fromSession: id, start: GeoPoint(latitude: 52.0, longitude: 6.0), finish: centres[4], name: "Far")) { error in
            XCTAssertTrue("\(error)".contains("from the session's track"), "\(error)")
        }
    }
}

extension CourseAttemptTests {
    /// Two searches of the same sessions at once (the server and a command): each session's
    /// attempts are kept once.
    func testSearchesAtOnceKeepEachAttemptOnce() throws {
        try saveNK()
        try saveNK()
        _ = try store.courses.add(name: "NK 2k", geoJSON: try String(contentsOfFile: nkCourse, encoding: .utf8))
        let other = SessionStore(sessionsPath: temp.directory.path)
        let group = DispatchGroup()
        for s in [store!, other] {
            group.enter()
            DispatchQueue.global().async {
                _ = try? s.attempts(course: "NK 2k")
                group.leave()
            }
        }
        group.wait()
        XCTAssertEqual(try store.attempts(course: "NK 2k").count, 2)
    }
}
