import Foundation
import OarlogApp
import OarlogCore
import OarlogTestSupport
import XCTest

/// The coach's plan through a real mosquitto with the shipped ACL and persistence: it reaches a
/// boat that was there, one that joins after it was sent (retained) and one that comes up after
/// the broker restarted (the plan kept in its database); a boat that reconnects after the restart
/// is sent it again but not offered it twice; each cox's answer reaches the coach, and a coach that starts again.
final class FleetPlanBrokerTests: XCTestCase {
    static let shippedACL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("hardware/mosquitto/acl")
    var work: URL!

    override func setUpWithError() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-fleet-plans-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(at: work) }

    struct TimedOut: Error { var what: String }

    struct Boat {
        var link: FleetLink
        var station: LiveStation
    }

    func waitFor(_ what: String, timeout: Double = 10, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return }
            usleep(20_000)
        }
        XCTFail("timed out after \(timeout) s waiting for \(what)")
        throw TimedOut(what: what)
    }

    func testAPlanReachesEveryBoatAndTheirAnswersTheCoach() throws {
        let started = Date()
        let users = ["coach", "alpha", "bravo", "charlie"].map { (user: $0, password: "\($0)-pw") }
        let broker = try MosquittoBroker(users: users, acl: try String(contentsOf: Self.shippedACL, encoding: .utf8), persistence: true)
        try broker.start()
        defer { broker.stop() }
        func connection(_ user: String) throws -> FleetConnection {
            try FleetConnection(url: "mqtt://\(user):\(user)-pw@127.0.0.1:\(broker.port)")
        }
        func boat(_ name: String) throws -> Boat {
            let link = try FleetLink(try connection(name), boatName: name, deliveryTimeout: 5, plans: true)
            let station = try LiveStation(source: .replay(path: "none.csv", speed: 1),
                                          sessions: SessionStore(sessionsPath: work.appendingPathComponent(name).path), log: { _ in })
            link.offerPlans(to: station)
            try link.start()
            return Boat(link: link, station: station)
        }
        let coach = try FleetCoach(try connection("coach"), clientID: "coach-\(UUID().uuidString.prefix(8))")
        try coach.start()
        defer { coach.stop() }
        try waitFor("the coach's subscriptions") { coach.brokerStatus?.subscribed == true }

        let alpha = try boat("alpha")
        try waitFor("alpha's subscriptions") { alpha.link.client.status.subscribed }
        let plan = try WorkoutSpec.parse("3x4:00@24-26spm/2:00r")
        let offer = try coach.sendPlan(plan, to: nil)
        try waitFor("the plan at alpha") { alpha.station.workoutOffer?.id == offer.id }
        XCTAssertEqual(alpha.station.workoutOffer, WorkoutOffer(id: offer.id, from: "coach", plan: plan), "the plan as sent")

        // Bravo joins after it was sent: the broker kept it.
        let bravo = try boat("bravo")
        try waitFor("the retained plan at bravo") { bravo.station.workoutOffer?.id == offer.id }
        XCTAssertEqual(bravo.station.workoutOffer?.plan, plan)

        // The broker restarts (its retained messages kept in its database); charlie comes up after.
        try broker.restart()
        let charlie = try boat("charlie")
        try waitFor("the plan at charlie after the broker's restart", timeout: 15) { charlie.station.workoutOffer?.id == offer.id }
        XCTAssertEqual(charlie.station.workoutOffer?.plan, plan)
        // Alpha reconnected and was sent the retained plan again: offered once all the same.
        try waitFor("alpha back", timeout: 15) { alpha.link.client.status.connections >= 2 && alpha.link.client.status.subscribed }
        try waitFor("the retained plan at alpha again") { alpha.link.client.status.received == 2 }
        XCTAssertEqual(alpha.link.planCounts.offered, 1)
        XCTAssertEqual(alpha.link.planCounts.refused, 0)

        // The coxes answer; the coach sees who accepted.
        try alpha.station.answerWorkoutOffer(id: offer.id, accept: true)
        try bravo.station.answerWorkoutOffer(id: offer.id, accept: false)
        try charlie.station.answerWorkoutOffer(id: offer.id, accept: true)
        try waitFor("the three answers at the coach") {
            coach.plan(for: "alpha")?.answer == .accepted && coach.plan(for: "bravo")?.answer == .declined
                && coach.plan(for: "charlie")?.answer == .accepted
        }
        XCTAssertEqual(alpha.station.workout, plan, "accepted: the next recording rows it")
        XCTAssertNil(bravo.station.workout, "declined")

        // A plan for bravo alone reaches bravo and nobody else.
        let second = try coach.sendPlan(try WorkoutSpec.parse("8x500m/1:30r"), to: "bravo")
        try waitFor("bravo's own plan") { bravo.station.workoutOffer?.id == second.id }
        usleep(300_000)
        XCTAssertNil(alpha.station.workoutOffer)
        XCTAssertEqual(alpha.link.planCounts.offered, 1)
        XCTAssertEqual(coach.plan(for: "bravo")?.offer.id, second.id)
        XCTAssertEqual(coach.plan(for: "bravo")?.answer, .waiting)
        XCTAssertEqual(coach.plan(for: "alpha")?.offer.id, offer.id)

        // A coach that starts again (another id) reads what was sent and who answered from the broker.
        let again = try FleetCoach(try connection("coach"), clientID: "coach-again-\(UUID().uuidString.prefix(8))")
        try again.start()
        defer { again.stop() }
        try waitFor("the retained plans and answers at the new coach") {
            again.plan(for: "charlie")?.answer == .accepted && again.plan(for: "bravo")?.offer.id == second.id
        }
        XCTAssertEqual(again.plan(for: "alpha")?.answer, .accepted)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(again.json().utf8)) as? [String: Any])
        let plans = try XCTUnwrap(json["plans"] as? [String: Any])
        let answers = try XCTUnwrap(plans["answers"] as? [[String: Any]])
        XCTAssertEqual(answers.map { $0["boat"] as? String ?? "" }, ["alpha", "bravo", "charlie"])
        XCTAssertEqual(answers.map { $0["accepted"] as? Bool ?? false }, [true, false, true])
        XCTAssertEqual((plans["sent"] as? [[String: Any]])?.map { $0["to"] as? String ?? "" }, ["bravo", "all"])
        for b in [alpha, bravo, charlie] { XCTAssertNil(b.link.finish()) }
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "seconds, not minutes")
    }

    /// `serve --publish`: the plan the cox accepted is rowed by the recording, and where the crew
    /// is in it reaches the coach's board through the boat's stream.
    func testTheRecordingsWorkoutReachesTheCoach() throws {
        let broker = try MosquittoBroker()
        try broker.start()
        defer { broker.stop() }
        let connection = try FleetConnection(url: "mqtt://127.0.0.1:\(broker.port)")
        let coach = try FleetCoach(connection, clientID: "coach-\(UUID().uuidString.prefix(8))")
        try coach.start()
        defer { coach.stop() }
        try waitFor("the coach's subscriptions") { coach.brokerStatus?.subscribed == true }
        let link = try FleetLink(connection, boatName: "Delta", deliveryTimeout: 5, plans: true)
        let station = try LiveStation(source: .replay(path: try samplePath("sim-workout.csv"), speed: 20),
                                      sessions: SessionStore(sessionsPath: work.appendingPathComponent("delta").path),
                                      sinks: { utc in [link.publisher(title: "Delta (live)", startUTC: utc)] }, log: { _ in })
        link.offerPlans(to: station)
        try link.start()
        try waitFor("delta's subscriptions") { link.client.status.subscribed }
        let offer = try coach.sendPlan(try WorkoutSpec.parse("2x0:15/0:10r"), to: "delta")
        try waitFor("the plan at delta") { station.workoutOffer?.id == offer.id }
        try station.answerWorkoutOffer(id: offer.id, accept: true)
        try station.start()
        defer { station.stop() }
        _ = try station.startRecording(title: "two pieces")
        var seen: [[String: Any]] = []
        func delta() throws -> [String: Any]? {
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(coach.json().utf8)) as? [String: Any])
            return (json["boats"] as? [[String: Any]])?.first { $0["id"] as? String == "delta" }
        }
        try waitFor("the plan rowed, at the coach", timeout: 20) {
            guard let boat = try? delta() else { return false }
            if let w = boat["workout"] as? [String: Any] { seen.append(w) }
            return (boat["workout"] as? [String: Any])?["phase"] as? String == "finished" && boat["intervals_done"] as? Int == 3
        }
        let boat = try XCTUnwrap(try delta())
        let plan = try XCTUnwrap(boat["plan"] as? [String: Any])
        XCTAssertEqual(plan["answer"] as? String, "accepted")
        XCTAssertEqual(plan["id"] as? String, offer.id)
        // On the way: piece 1 of 2, the rest, piece 2 of 2, each with its time counting down.
        let pieces = seen.compactMap { $0["phase"] as? String == "rowing" ? "\($0["kind"] ?? "") \($0["piece"] ?? "-")" : nil }
        XCTAssertEqual(pieces.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }, ["work 1", "rest <null>", "work 2"]
            .map { $0.replacingOccurrences(of: "<null>", with: "\(NSNull())") })
        for w in seen where w["phase"] as? String == "rowing" {
            let left = try XCTUnwrap(w["remaining_s"] as? Double), elapsed = try XCTUnwrap(w["elapsed_s"] as? Double)
            XCTAssertEqual(left + elapsed, w["kind"] as? String == "rest" ? 10 : 15, accuracy: 0.11, "\(w)")
            XCTAssertEqual(w["pieces"] as? Int, 2)
        }
        _ = try station.stopRecording()
        XCTAssertNil(link.finish())
    }
}
