import Foundation
import OarlogApp
import OarlogCore
import OarlogTestSupport
import XCTest

/// Challenges over a real kept session: the NK logbook sample (samples/rowingdata/nk_logbook.csv)
/// over the sample course (samples/nk-course.geojson), which `oarlog course` times at 10:08.3
/// (608.3 s, docs/COURSES.md). A target of 10:30 is met, 10:00 is not; attempts outside the
/// challenge's time or of another boat do not count; reject, then accept; the deadline; the
/// handicap.
final class ChallengeBookTests: XCTestCase {
    /// The course time of the sample as `oarlog course` prints it (10:08.3), ±0.05 s of rounding.
    static let courseTime = 608.3
    var temp: TemporarySessions!
    var store: SessionStore!

    override func setUpWithError() throws {
        temp = TemporarySessions()
        store = SessionStore(sessionsPath: temp.directory.path)
        try Self.keepCourse(in: store)
    }

    override func tearDown() { temp.remove() }

    static func keepCourse(in store: SessionStore) throws {
        _ = try store.addCourse(name: "NK course", file: try samplePath("nk-course.geojson"))
    }

    /// Saves the NK logbook sample as a session of `boat`; its attempt.
    @discardableResult
    static func rowSample(boat: String, in store: SessionStore) throws -> CourseAttempt {
        var replay = try TraceReplay(path: try samplePath("rowingdata/nk_logbook.csv"))
        let kept = try store.keeping(replay, title: "NK \(boat)", boat: boat)
        _ = try replay.run(sinks: [], keeping: kept)
        let found = try store.attempts(course: "NK course").filter { $0.session == kept.id }
        XCTAssertEqual(found.count, 1, "one passage of the course in the sample")
        return try XCTUnwrap(found.first)
    }

    func set(_ under: String, boat: String? = "Eight", before: String? = nil, handicap: Bool = false, boatClass: String? = nil,
             at now: Double) throws -> Challenge {
        try store.setChallenge(SessionStore.ChallengeRequest(course: "nk COURSE", target: under, deadline: before, boat: boat,
                                                             boatClass: boatClass, handicap: handicap, setBy: "Coach Ann"), now: now)
    }

    func testAnAttemptThatMeetsItIsLinkedAndWaitsThenAcceptedOrRejected() throws {
        let eight = try Self.rowSample(boat: "M8+ Eight", in: store)
        XCTAssertEqual(eight.time, Self.courseTime, accuracy: 0.05)
        let date = try XCTUnwrap(eight.startUTC) + eight.start
        let before = date - 86_400
        // Set the day before it was rowed (the challenge's `now`), so the attempt came after.
        let met = try set("10:30", boat: "m8+ eight", at: before)
        let notMet = try set("10:00", boat: "M8+ Eight", at: before)
        let tooLate = try set("10:30", boat: "M8+ Eight", at: date + 60)   // set after the attempt
        let otherBoat = try set("10:30", boat: "Bravo", at: before)
        let byDeadline = try set("10:30", boat: nil, before: UTCTime.iso8601(date - 3600), at: before - 86_400)
        XCTAssertEqual(met.course, "NK course", "the library's spelling")
        XCTAssertEqual(met.target, 630)

        let now = date + 7 * 86_400
        let all = Dictionary(uniqueKeysWithValues: try store.listChallenges(now: now).map { ($0.id, $0) })
        let linked = try XCTUnwrap(all[met.id])
        XCTAssertEqual(linked.state(now: now), .waiting)
        XCTAssertEqual(linked.attempt?.session, eight.session)
        XCTAssertEqual(try XCTUnwrap(linked.attempt?.time), Self.courseTime, accuracy: 0.05)
        XCTAssertEqual(try XCTUnwrap(linked.attempt?.handicapped), Self.courseTime * BoatClass.eight.factor, accuracy: 0.05,
                       "an eight's handicap is 1")
        XCTAssertEqual(all[notMet.id]?.state(now: now), .open, "10:08.3 is not under 10:00")
        XCTAssertEqual(all[notMet.id]?.tried.map(\.session), [eight.session], "listed as tried, not met")
        XCTAssertEqual(all[tooLate.id]?.state(now: now), .open)
        XCTAssertEqual(all[tooLate.id]?.tried.count, 0, "rowed before the challenge was set: does not count")
        XCTAssertEqual(all[otherBoat.id]?.tried.count, 0, "another boat's attempt does not count")
        XCTAssertEqual(all[byDeadline.id]?.state(now: now), .expired, "the deadline passed before the attempt")

        // Rejected: the challenge stays open for another attempt; the next one that meets it waits.
        let rejected = try store.challenges.answer(id: met.id, accept: false, note: "missed the buoy", by: nil, now: now)
        XCTAssertEqual(rejected.state(now: now), .rejected)
        XCTAssertEqual(rejected.lastAnswer?.note, "missed the buoy")
        XCTAssertEqual(rejected.lastAnswer?.by, "Coach Ann", "answered by whoever set it")
        XCTAssertNil(rejected.attempt)
        XCTAssertThrowsError(try store.challenges.answer(id: met.id, accept: true, note: "", by: nil, now: now)) { error in
            XCTAssertEqual((error as? ChallengeError).map { if case .conflict = $0 { true } else { false } }, true, "nothing waits")
        }
        let again = try Self.rowSample(boat: "M8+ Eight", in: store)
        let relinked = try XCTUnwrap(try store.listChallenges(now: now).first { $0.id == met.id })
        XCTAssertEqual(relinked.state(now: now), .waiting)
        XCTAssertEqual(relinked.attempt?.session, again.session, "the new attempt, never the rejected one")
        let accepted = try store.challenges.answer(id: met.id, accept: true, note: "well rowed", by: "Ann", now: now)
        XCTAssertEqual(accepted.state(now: now), .accepted)
        XCTAssertEqual(accepted.rejected.map(\.attempt.session), [eight.session])

        // The JSON as `oarlog challenges --json` gives it.
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(Challenge.json([accepted], now: now).utf8)) as? [[String: Any]])
        let item = try XCTUnwrap(json.first)
        XCTAssertEqual(item["state"] as? String, "accepted")
        XCTAssertEqual(item["target_s"] as? Double, 630)
        XCTAssertEqual((item["attempt"] as? [String: Any])?["session"] as? String, again.session)
        XCTAssertEqual((item["answer"] as? [String: Any])?["note"] as? String, "well rowed")
        XCTAssertEqual(((item["rejected"] as? [[String: Any]])?.first?["answer"] as? [String: Any])?["note"] as? String, "missed the buoy")
    }

    func testHandicapScalesTheTimeByTheBoatClass() throws {
        let single = try Self.rowSample(boat: "Tom's single", in: store)
        let date = try XCTUnwrap(single.startUTC) + single.start
        // 608.3 s in a single is 608.3 × 318.68 / 390.74 = 496.1 s on the eight's clock.
        let expected = Self.courseTime * (5 * 60 + 18.68) / (6 * 60 + 30.74)
        let under9 = try set("9:00", boat: nil, handicap: true, at: date - 60)    // 540 s: met handicapped, not raw
        let under8 = try set("8:00", boat: nil, handicap: true, at: date - 60)    // 480 s: not met
        let raw = try set("9:00", boat: nil, at: date - 60)
        let all = Dictionary(uniqueKeysWithValues: try store.listChallenges(now: date + 60).map { ($0.id, $0) })
        XCTAssertEqual(try XCTUnwrap(all[under9.id]?.attempt?.handicapped), expected, accuracy: 0.05)
        XCTAssertEqual(all[under9.id]?.state(now: date + 60), .waiting)
        XCTAssertEqual(all[under8.id]?.state(now: date + 60), .open)
        XCTAssertEqual(all[raw.id]?.state(now: date + 60), .open, "without the handicap 10:08.3 is not under 9:00")
        XCTAssertThrowsError(try set("9:00", boat: "Bravo", handicap: true, at: date), "no class in the name, none given")
        XCTAssertNoThrow(try set("9:00", boat: "Bravo", handicap: true, boatClass: "4x", at: date))
    }

    func testWhatCannotBeSetIsRefusedWithTheReason() throws {
        let now = 1_790_000_000.0
        for (under, before, course, words) in [("9:3x", nil, "NK course", "target"), ("9:30", "2026-13-01", "NK course", "deadline"),
                                               ("9:30", "2020-01-01", "NK course", "past"), ("9:30", nil, "Nowhere", "no course")] {
            XCTAssertThrowsError(try store.setChallenge(SessionStore.ChallengeRequest(course: course, target: under, deadline: before), now: now)) {
                XCTAssertTrue("\($0)".contains(words), "\($0)")
            }
        }
        XCTAssertEqual(SessionStore.parseTarget("9:30"), 570)
        XCTAssertEqual(SessionStore.parseTarget("1:02:30.5"), 3750.5)
        XCTAssertNil(SessionStore.parseTarget("9:75"))
        XCTAssertEqual(SessionStore.parseDeadline("2026-12-20"), UTCTime.epochSeconds(year: 2026, month: 12, day: 20))
        XCTAssertEqual(try store.challenges.list().count, 0)
    }
}
