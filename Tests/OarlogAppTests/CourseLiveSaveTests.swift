import Foundation
import OarlogApp
import OarlogCore
import OarlogTestSupport
import XCTest

/// A session recorded live (the station replaying the NK export as if live, the phone's Start
/// and Stop) is searched for the club's courses when it is stopped: its attempt is on the
/// leaderboard at once, timed as the course is timed over the trace.
final class CourseLiveSaveTests: XCTestCase {
    func testARecordingStoppedIsSearchedForTheCourses() throws {
        let temp = TemporarySessions()
        defer { temp.remove() }
        let store = SessionStore(sessionsPath: temp.directory.path)
        _ = try store.addCourse(name: "NK 2k", file: TestPaths.packageRoot.appendingPathComponent("samples/nk-course.geojson").path)
        let logs = LockedLines()
        let station = try LiveStation(source: .replay(path: try samplePath("rowingdata/nk_logbook.csv"), speed: 400), sessions: store,
                                      log: { logs.append($0) })
        try station.start()
        defer { station.stop() }
        let id = try station.startRecording(title: "Canal")
        // The 2 km piece ends 21 minutes in: wait for the replay to pass 22 minutes.
        let deadline = Date().addingTimeInterval(60)
        while (station.status.figures?.elapsed ?? 0) < 22 * 60, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertGreaterThan(station.status.figures?.elapsed ?? 0, 22 * 60, "the replay passed the piece within a minute")
        XCTAssertEqual(try station.stopRecording(), id)
        // The stop searched it (the log line below says so); the leaderboard has it.
        let attempts = try store.attempts(course: "NK 2k")
        XCTAssertEqual(attempts.map(\.session), [id])
        XCTAssertEqual(attempts.first?.time ?? 0, 608.3, accuracy: 0.1, "10:08.3, as oarlog course times it")
        XCTAssertTrue(logs.lines.contains("attempt of NK 2k: 10:08.3"), logs.lines.joined(separator: "\n"))
    }
}

/// Log lines from any thread.
final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ line: String) { lock.lock(); stored.append(line); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return stored }
}
