import Foundation
import OarlogApp
import OarlogCore
import OarlogTestSupport
import XCTest

/// The challenges page (#challenges) in headless Chromium at 390×844 over `oarlog serve` with
/// the NK logbook sample kept as boat "M8+ Alpha"'s session on the sample course (10:08.3) and
/// three challenges: one met and waiting (10:30), one not met (10:00, tried), one accepted (10:20).
/// The cards' states are the API's; the map draws the linked attempt's trail between its start
/// and finish crossings (the trail's points in that time, from `/api/sessions/{id}/trail`); the
/// attempt waiting is accepted with a note and a challenge is set through the form, both seen by
/// `oarlog challenges --json`. Screenshots in `.build/screenshots/challenges-*.png`.
final class ChallengesPageTests: XCTestCase {
    func testTheChallengesPageListsAnswersAndSets() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-challenges-page-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let sessions = SessionStore(sessionsPath: data.appendingPathComponent("sessions").path)
        let sample = try ChallengesRoutesTests.keepSample(in: sessions)
        func set(_ under: String, _ hoursBefore: Double) throws -> Challenge {
            try sessions.setChallenge(SessionStore.ChallengeRequest(course: "NK course", target: under, boat: "M8+ Alpha", setBy: "Coach Ann",
                                                                    note: "before the head"), now: sample.date - hoursBefore * 3600)
        }
        let waiting = try set("10:30", 1)
        let tooFast = try set("10:00", 2)
        let accepted = try set("10:20", 3)
        _ = try sessions.listChallenges()
        _ = try sessions.challenges.answer(id: accepted.id, accept: true, note: "good", by: nil)

        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "5"], dataDirectory: data)
        let trail = try XCTUnwrap(try JSONSerialization.jsonObject(with: try server.download("/api/sessions/\(sample.session)/trail?points=5000").body)
                                  as? [String: Any])
        let attempt = try XCTUnwrap(try sessions.attempts(course: "NK course").first)
        let inAttempt = (trail["t_s"] as? [Double] ?? []).filter { $0 >= attempt.start - 1 && $0 <= attempt.finish + 1 }.count

        let shots = try BrowserScript.screenshots()
        let result = try BrowserScript.run("challenges_page.py", [server.base, server.token, shots.path, waiting.id],
                                           detail: "\n" + server.log.suffix(2000))
        let first = try XCTUnwrap(result["first"] as? [String: Any])
        let cards = try XCTUnwrap(first["cards"] as? [[String: Any]])
        XCTAssertEqual(cards.map { $0["id"] as? String }, [waiting.id, tooFast.id, accepted.id], "newest first")
        XCTAssertEqual(cards.map { $0["state"] as? String }, ["waiting", "open", "accepted"])
        XCTAssertEqual(cards[0]["time"] as? String, "10:08.3")
        XCTAssertEqual(cards[0]["buttons"] as? [String], ["Map", "Accept", "Reject"])
        XCTAssertEqual(cards[2]["answer"] as? String, "Accepted by Coach Ann: good")
        XCTAssertEqual(first["map_points"] as? Int, inAttempt, "the map draws the trail from the start crossing to the finish")
        XCTAssertGreaterThan(inAttempt, 100, "a 10-minute attempt at 1 Hz GPS or more")
        XCTAssertEqual(first["outside"] as? [String], [], "nothing cut off at 390 px")
        XCTAssertEqual(first["nav_active"] as? Bool, true)
        XCTAssertLessThanOrEqual(first["link_right"] as? Double ?? 999, 390, "the tabs and the sensors fit the bar at 390 px")

        let after = try XCTUnwrap((result["after_accept"] as? [String: Any])?["cards"] as? [[String: Any]])
        XCTAssertEqual(after.map { $0["state"] as? String }, ["accepted", "open", "accepted"])
        let set = try XCTUnwrap((result["after_set"] as? [String: Any])?["cards"] as? [[String: Any]])
        XCTAssertEqual(set.first?["state"] as? String, "open", "set now: the sample was rowed before it")
        XCTAssertEqual(result["form_error"] as? String, "")
        XCTAssertEqual(result["console_errors"] as? [String], [])
        BrowserScript.checkScreenshots(result, minimumBytes: 10_000)

        let listed = try oarlogCLI(["challenges", "--json"], dataDirectory: data)
        XCTAssertEqual(listed.status, 0, listed.err)
        let all = try XCTUnwrap(try jsonObject(listed.out) as? [[String: Any]])
        XCTAssertEqual(all.count, 4)
        let answered = try XCTUnwrap(all.first { $0["id"] as? String == waiting.id })
        XCTAssertEqual((answered["answer"] as? [String: Any])?["note"] as? String, "well rowed, Alpha")
        XCTAssertEqual(all.first?["target_s"] as? Double, 585)
        XCTAssertEqual(all.first?["set_by"] as? String, "Coach Ann")
    }
}
