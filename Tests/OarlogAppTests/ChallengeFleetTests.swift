import Foundation
import OarlogApp
import OarlogCore
import OarlogTestSupport
import XCTest

/// Courses and challenges through a real mosquitto with the shipped ACL and persistence, between
/// a coach and two boats, each with its own data directory: the coach's course reaches both
/// boats' libraries; the coach challenges alpha (10:30: met by the NK sample's 10:08.3; 10:00:
/// not) and bravo (10:30); bravo's attempt does not count for alpha's challenge; the coach sees
/// the attempts waiting, accepts alpha's and rejects bravo's with a note; the boats see the
/// answers. Then all three start again over the same directories and broker, and a boat that
/// joins late with an empty directory gets the courses and every challenge in its state.
final class ChallengeFleetTests: XCTestCase {
    static let shippedACL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("hardware/mosquitto/acl")
    var work: URL!

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-challenges-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: work) }

    struct TimedOut: Error { var what: String }

    func waitFor(_ what: String, timeout: Double = 15, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return }
            usleep(50_000)
        }
        XCTFail("timed out after \(timeout) s waiting for \(what)")
        throw TimedOut(what: what)
    }

    func store(_ name: String) -> SessionStore { SessionStore(sessionsPath: work.appendingPathComponent(name).appendingPathComponent("sessions").path) }

    func state(_ store: SessionStore, _ id: String) throws -> Challenge.State? {
        try store.challenges.list().first { $0.id == id }?.state(now: Date().timeIntervalSince1970)
    }

    func challenge(_ store: SessionStore, _ id: String) throws -> Challenge? { try store.challenges.list().first { $0.id == id } }

    func testChallengesBetweenACoachAndTwoBoatsSurviveRestarts() throws {
        let users = ["coach", "alpha", "bravo", "charlie"].map { (user: $0, password: "\($0)-pw") }
        let broker = try MosquittoBroker(users: users, acl: try String(contentsOf: Self.shippedACL, encoding: .utf8), persistence: true)
        try broker.start()
        defer { broker.stop() }
        func link(_ user: String, coach: Bool = false) throws -> ChallengeLink {
            let connection = try FleetConnection(url: "mqtt://\(user):\(user)-pw@127.0.0.1:\(broker.port)")
            let l = try ChallengeLink(connection, me: user, store: store(user), sharesCourses: coach)
            try l.start(interval: 0.5)
            return l
        }
        let coachStore = store("coach"), alphaStore = store("alpha"), bravoStore = store("bravo")
        try ChallengeBookTests.keepCourse(in: coachStore)
        // Each boat rows the course (before it knows it: found when the club's course arrives).
        try ChallengeBookTests.keepCourse(in: alphaStore)
        let alphaAttempt = try ChallengeBookTests.rowSample(boat: "Alpha", in: alphaStore)
        try alphaStore.removeCourse(name: "NK course")
        try ChallengeBookTests.keepCourse(in: bravoStore)
        let bravoAttempt = try ChallengeBookTests.rowSample(boat: "Bravo", in: bravoStore)
        try bravoStore.removeCourse(name: "NK course")
        XCTAssertEqual(try alphaStore.courses.list().count, 0)
        let rowed = try XCTUnwrap(alphaAttempt.startUTC) + alphaAttempt.start
        let setAt = rowed - 86_400

        var coach = try link("coach", coach: true)
        var alpha = try link("alpha")
        var bravo = try link("bravo")
        try waitFor("the club's course in both boats' libraries") {
            try alphaStore.courses.list().map(\.name) == ["NK course"] && bravoStore.courses.list().map(\.name) == ["NK course"]
        }

        func set(_ under: String, boat: String) throws -> Challenge {
            try coachStore.setChallenge(SessionStore.ChallengeRequest(course: "NK course", target: under, boat: boat, setBy: "Coach"), now: setAt)
        }
        let forAlpha = try set("10:30", boat: "Alpha")
        let tooFast = try set("10:00", boat: "alpha")
        let forBravo = try set("10:30", boat: "Bravo")
        // Set as `oarlog challenges set` sets it (the book changed behind the link): the link's
        // timer finds the change and publishes it.
        try waitFor("alpha's attempt waiting at the coach") { try self.state(coachStore, forAlpha.id) == .waiting }
        try waitFor("bravo's attempt waiting at the coach") { try self.state(coachStore, forBravo.id) == .waiting }
        try waitFor("alpha's try of the 10:00 challenge at the coach") { try self.challenge(coachStore, tooFast.id)?.tried.count == 1 }
        let atCoach = try XCTUnwrap(try challenge(coachStore, forAlpha.id))
        XCTAssertEqual(atCoach.attempt?.session, alphaAttempt.session)
        XCTAssertEqual(atCoach.attempt?.boat, "Alpha")
        XCTAssertEqual(try XCTUnwrap(atCoach.attempt?.time), ChallengeBookTests.courseTime, accuracy: 0.05)
        XCTAssertTrue(atCoach.tried.isEmpty, "bravo's attempt is not alpha's: \(atCoach.tried)")
        XCTAssertEqual(try state(coachStore, tooFast.id), .open, "10:08.3 is not under 10:00")
        XCTAssertEqual(try challenge(coachStore, forBravo.id)?.attempt?.session, bravoAttempt.session)
        XCTAssertEqual(try state(alphaStore, forAlpha.id), .waiting, "alpha linked it itself")
        // Bravo hears alpha's attempt too (everyone reads every challenge); its own session never counts for alpha.
        try waitFor("alpha's attempt at bravo") { try self.challenge(bravoStore, forAlpha.id)?.attempt != nil }
        XCTAssertEqual(try challenge(bravoStore, forAlpha.id)?.attempt?.session, alphaAttempt.session)
        XCTAssertNotEqual(alphaAttempt.session, bravoAttempt.session)
        XCTAssertEqual(try challenge(bravoStore, forAlpha.id)?.tried.count, 0)

        // The coach answers; the boats see it.
        _ = try coachStore.challenges.answer(id: forAlpha.id, accept: true, note: "well rowed", by: nil)
        _ = try coachStore.challenges.answer(id: forBravo.id, accept: false, note: "cut the corner at the buoy", by: nil)
        try waitFor("the acceptance at alpha") { try self.state(alphaStore, forAlpha.id) == .accepted }
        try waitFor("the rejection at bravo") { try self.state(bravoStore, forBravo.id) == .rejected }
        XCTAssertEqual(try challenge(bravoStore, forBravo.id)?.lastAnswer?.note, "cut the corner at the buoy")
        XCTAssertEqual(try challenge(alphaStore, forAlpha.id)?.lastAnswer?.note, "well rowed")
        alpha.tickNow(); bravo.tickNow()
        usleep(500_000)
        coach.settle()
        XCTAssertEqual(try state(coachStore, forBravo.id), .rejected, "the rejected attempt is not linked again")
        for l in [coach, alpha, bravo] { XCTAssertEqual(l.counts.refused, 0, "\(l.me): \(l.counts.lastProblem ?? "")") }

        // Everyone starts again over the same directories and broker (the broker too).
        let expected: [String: Challenge.State] = [forAlpha.id: .accepted, tooFast.id: .open, forBravo.id: .rejected]
        for l in [coach, alpha, bravo] { l.stop() }
        try broker.restart()
        coach = try link("coach", coach: true)
        alpha = try link("alpha")
        bravo = try link("bravo")
        let charlie = try link("charlie")
        let charlieStore = store("charlie")
        try waitFor("charlie (joining late, empty) has the course and every challenge in its state") {
            try charlieStore.courses.list().count == 1
                && expected.allSatisfy { id, s in try self.state(charlieStore, id) == s }
        }
        for l in [coach, alpha, bravo, charlie] { l.tickNow() }
        usleep(500_000)
        for (name, s) in [("coach", coachStore), ("alpha", alphaStore), ("bravo", bravoStore), ("charlie", charlieStore)] {
            for (id, want) in expected { XCTAssertEqual(try state(s, id), want, "\(name): \(id)") }
        }
        XCTAssertEqual(try challenge(charlieStore, forBravo.id)?.lastAnswer?.note, "cut the corner at the buoy")
        XCTAssertEqual(try challenge(charlieStore, forAlpha.id)?.attempt?.session, alphaAttempt.session)
        for l in [coach, alpha, bravo, charlie] {
            XCTAssertEqual(l.counts.refused, 0, "\(l.me): \(l.counts.lastProblem ?? "")")
            l.stop()
        }
    }
}
