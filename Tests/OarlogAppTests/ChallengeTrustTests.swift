import Foundation
import OarlogCore
import XCTest
@testable import OarlogApp

/// What the challenge link takes off the broker and what it refuses (docs/FLEET.md "Courses and
/// challenges"): a boat's attempts only under its own topic and for a challenge for it, answers
/// only from whoever set the challenge, a challenge's id only from its writer, payloads that are
/// JSON of the topic's id; a long list of attempts is bounded.
final class ChallengeTrustTests: XCTestCase {
    var temp: TemporarySessions!
    var book: ChallengeBook!
    let created = 1_780_000_000.0
    var id = ""

    override func setUpWithError() throws {
        temp = TemporarySessions()
        book = ChallengeBook(sessionsPath: temp.directory.path)
        var c = Challenge(id: "c-1-aa", course: "NK course", target: 630, boat: "Alpha", setBy: "Coach", created: created)
        c.from = "coach"
        id = try book.add(c).id
    }

    override func tearDown() { temp.remove() }

    func report(boat: String, time: Double, at date: Double, extra: Int = 0) -> [UInt8] {
        let one = #"{"session": "s-\#(Int(date))", "boat": "\#(boat)", "date": "\#(UTCTime.iso8601(date))", "start_s": 10, "time_s": \#(time), "handicapped_s": null, "met": true}"#
        let tried = (0..<extra).map { k in
            #"{"session": "t-\#(k)", "boat": "\#(boat)", "date": "\#(UTCTime.iso8601(date + Double(k + 1) * 60))", "start_s": 10, "time_s": 700, "handicapped_s": null, "met": false}"#
        }
        return Array(#"{"id": "\#(id)", "boat": "x", "attempt": \#(one), "tried": [\#(tried.joined(separator: ","))]}"#.utf8)
    }

    func apply(_ kind: String, _ writer: String, _ payload: [UInt8]) throws {
        try ChallengePayloads.apply(kind: kind, writer: writer, id: id, payload: payload, to: book)
    }

    func stored() throws -> Challenge { try book.challenge(id: id) }

    func testOnlyTheChallengedBoatsOwnAttemptsAndTheSettersAnswersCount() throws {
        // Bravo reports an attempt of alpha's challenge: refused.
        XCTAssertThrowsError(try apply("attempt", "bravo", report(boat: "Bravo", time: 600, at: created + 60)))
        // Alpha's topic carrying bravo's attempt: not taken.
        try apply("attempt", "alpha", report(boat: "Bravo", time: 600, at: created + 60))
        XCTAssertNil(try stored().attempt)
        // Alpha's attempt from before the challenge was set: not counted.
        try apply("attempt", "alpha", report(boat: "Alpha", time: 600, at: created - 60))
        XCTAssertNil(try stored().attempt)
        XCTAssertEqual(try stored().tried.count, 0)
        // Alpha's own, in time, under the target: linked, waiting.
        try apply("attempt", "alpha", report(boat: "Alpha", time: 600, at: created + 60))
        XCTAssertEqual(try stored().attempt?.session, "s-\(Int(created + 60))")
        XCTAssertEqual(try stored().state(now: created + 120), .waiting)

        // An answer from alpha itself: refused; from the coach: taken.
        let answer = #"{"id": "c-1-aa", "answers": [{"by": "X", "note": "yes", "at": "\#(UTCTime.iso8601(created + 100))", "accepted": true, "session": "s-\#(Int(created + 60))", "start_s": 10}]}"#
        XCTAssertThrowsError(try apply("answer", "alpha", Array(answer.utf8)))
        XCTAssertEqual(try stored().state(now: created + 120), .waiting)
        try apply("answer", "coach", Array(answer.utf8))
        XCTAssertEqual(try stored().state(now: created + 120), .accepted)

        // Another writer cannot take over the challenge's id; a payload of another id, or not JSON, is refused.
        let definition = #"{"id": "c-1-aa", "course": "NK course", "target_s": 1, "deadline": null, "boat": null, "boat_class": null, "handicap": false, "set_by": "B", "note": "", "created": "\#(UTCTime.iso8601(created))"}"#
        XCTAssertThrowsError(try apply("", "bravo", Array(definition.utf8)))
        XCTAssertEqual(try stored().target, 630)
        XCTAssertThrowsError(try ChallengePayloads.apply(kind: "", writer: "coach", id: "c-2-bb", payload: Array(definition.utf8), to: book))
        XCTAssertThrowsError(try apply("", "coach", Array("not json".utf8)))
        XCTAssertEqual(try book.list().count, 1)
    }

    func testALongListOfAttemptsIsBounded() throws {
        try apply("attempt", "alpha", report(boat: "Alpha", time: 700, at: created + 60, extra: 300))
        XCTAssertEqual(try stored().tried.count, 200, "the newest 200 kept")
        XCTAssertNil(try stored().attempt, "11:40 does not meet 10:30")
    }

    func testTopicsAreParsedByTheirRules() throws {
        let topics = try FleetConnection(url: "mqtt://127.0.0.1:1883").topics
        XCTAssertEqual(topics.parseChallenge("oarlog/coach/challenge/c-1-aa")?.kind, "")
        XCTAssertEqual(topics.parseChallenge("oarlog/alpha/challenge/c-1-aa/attempt")?.writer, "alpha")
        XCTAssertEqual(topics.parseChallenge("oarlog/coach/challenge/c-1-aa/answer")?.id, "c-1-aa")
        XCTAssertNil(topics.parseChallenge("oarlog/Alpha/challenge/c-1-aa"), "not a topic id")
        XCTAssertNil(topics.parseChallenge("oarlog/all/challenge/c-1-aa"), "no boat writes as all")
        XCTAssertNil(topics.parseChallenge("oarlog/alpha/challenge/C_1/attempt"), "not a challenge id")
        XCTAssertNil(topics.parseChallenge("oarlog/alpha/challenge/c-1/other"))
        XCTAssertEqual(topics.clubCourses, "oarlog/all/courses")
    }
}
