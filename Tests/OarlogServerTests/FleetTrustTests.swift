import Foundation
import OarlogTestSupport
import XCTest

/// Issue 23, findings 9 and 10, through a real mosquitto: someone on the broker publishes under a
/// rowing boat's topic, under ids outside the rule and under another boat's name, while the boat
/// replays as if live; the coach and the club archive keep the boat's own stream, count what they
/// refused, and accept the boat's valid 150-emoji title.
extension FleetTests {
    /// A Signal K delta as a boat sends it (docs/FLEET.md), written out by hand.
    func delta(_ boat: String, session: String, seq: Int, elapsed: Double, kind: String, values: String, name: String? = nil) -> String {
        let utc = ISO8601DateFormatter.withFractions.string(from: ISO8601DateFormatter.withFractions.date(from: session)!.addingTimeInterval(elapsed))
        let named = name.map { "{\"path\":\"\",\"value\":{\"name\":\"\($0)\"}}," } ?? ""
        return "{\"context\":\"vessels.urn:mrn:oarlog:boat:\(boat)\",\"updates\":[{\"source\":{\"label\":\"oarlog\",\"type\":\"oarlog\",\"src\":\"\(boat)\"},"
            + "\"timestamp\":\"\(utc)\",\"values\":[\(named){\"path\":\"performance.rowing.elapsedTime\",\"value\":\(elapsed)},\(values)]}],"
            + "\"oarlog\":{\"session\":\"\(session)\",\"seq\":\(seq),\"kind\":\"\(kind)\"}}"
    }

    func position(_ boat: String, session: String, seq: Int, elapsed: Double, latitude: Double = 10) -> String {
        delta(boat, session: session, seq: seq, elapsed: elapsed, kind: "position",
              values: "{\"path\":\"navigation.position\",\"value\":{\"latitude\":\(latitude),\"longitude\":1}}")
    }

    /// `mosquitto_pub`: each of `lines` as one message on `topic` (QoS 1).
    func publish(_ port: Int, _ topic: String, _ lines: [String], retain: Bool = false) throws {
        let file = work.appendingPathComponent("pub-\(UUID().uuidString).txt")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let run = try ChildProcess.run(try findExecutable("mosquitto_pub"),
                                       ["-h", "127.0.0.1", "-p", "\(port)", "-q", "1", "-t", topic, "-l"] + (retain ? ["-r"] : []), input: file.path)
        XCTAssertEqual(run.status, 0, "mosquitto_pub \(topic): \(run.err)")
    }

    func testTheCoachAndTheArchiveKeepEachBoatsOwnStreamAndItsEmojiTitle() throws {
        let broker = try MosquittoBroker(persistence: true)
        try broker.start()
        defer { broker.stop() }
        let url = "mqtt://127.0.0.1:\(broker.port)"
        let boat = try boats(1, minutes: 2)[0]
        let club = work.appendingPathComponent("club")
        let archive = try startArchive(url, club: club)
        let coach = try startCoach(url)
        defer { coach.stop() }
        let title = String(repeating: "🚣", count: 150)   // 600 bytes: a valid title
        let replay = try Background(["replay", boat.trace, "--publish", url, "--boat", boat.name, "--speed", "8", "--save", "--title", title],
                                    dataDirectory: boat.dataDirectory, output: work.appendingPathComponent("replay.log"))
        try waitFor("strokes at the coach", timeout: 30) { (try self.fleetBoats(coach)[boat.id]?["strokes"] as? Int ?? 0) >= 5 }
        // While the boat rows: a message of a newer session on its topic; 2,001 far ahead in its
        // own session; ids outside the rule; a boat calling itself by the rower's boat's name.
        let session = "2026-06-06T09:00:00.000Z"
        let topic = "oarlog/\(boat.id)/position"
        try publish(broker.port, topic, [position(boat.id, session: "2026-06-06T10:00:00.000Z", seq: 1, elapsed: 1)])
        try publish(broker.port, topic, (0...2000).map { position(boat.id, session: session, seq: 1_000_000_000_000_000 + $0, elapsed: 20) })
        try publish(broker.port, "oarlog/Boat.0/position", [position("Boat.0", session: session, seq: 1, elapsed: 1)])
        let long = String(repeating: "x", count: 65)
        try publish(broker.port, "oarlog/\(long)/position", [position(long, session: session, seq: 1, elapsed: 1)])
        try publish(broker.port, "oarlog/x/status", [delta("x", session: session, seq: 1, elapsed: 1, kind: "status",
            values: "{\"path\":\"performance.rowing.state\",\"value\":\"rowing\"},{\"path\":\"performance.rowing.strokeCount\",\"value\":999},"
                + "{\"path\":\"navigation.log\",\"value\":9999}", name: boat.name)], retain: true)
        try waitFor("the refusals at the coach", timeout: 20) {
            let refused = try self.fleet(coach)["refused"] as? [String: Int] ?? [:]
            return refused["seq_jump"] == 2001 && refused["bad_id"] == 2 && refused["name_claimed"] == 1
        }
        let held = try XCTUnwrap(try fleetBoats(coach)[boat.id])
        XCTAssertEqual(held["pending_session"] as? String, "2026-06-06T10:00:00.000Z", "the other stream, held and shown")
        XCTAssertEqual(held["pending_messages"] as? Int, 1)

        XCTAssertEqual(replay.wait(timeout: 90), 0, replay.text)
        XCTAssertTrue(replay.text.contains("message(s) delivered"), replay.text)
        try waitFor("the boat's end at the coach", timeout: 30) { (try self.fleetBoats(coach)[boat.id]?["state"] as? String) == "ended" }
        try checkCoach(coach, has: boat)
        let figures = try XCTUnwrap(try fleetBoats(coach)[boat.id])
        XCTAssertEqual(figures["title"] as? String, title)
        XCTAssertEqual(figures["session"] as? String, session)
        XCTAssertEqual(figures["missed"] as? Int, 0)
        XCTAssertEqual(figures["duplicates"] as? Int, 0)
        let x = try XCTUnwrap(try fleetBoats(coach)["x"])
        XCTAssertEqual(x["name"] as? String, "x", "the name of another boat is not shown")
        XCTAssertEqual(try fleetBoats(coach).count, 2)

        archive.interrupt()
        XCTAssertEqual(archive.wait(timeout: 30), 0, archive.text)
        try checkArchive(club, has: boat)
        XCTAssertTrue(archive.text.contains("2 session(s) written"), archive.text)   // the boat's, and x's under its own id
        XCTAssertTrue(archive.text.contains("2 bad_id") && archive.text.contains("2001 seq_jump"), archive.text)
        let listed = try oarlogCLI(["sessions", "--json", "--boat", boat.name], dataDirectory: club)
        let sessions = try XCTUnwrap(try jsonObject(listed.out) as? [[String: Any]])
        XCTAssertEqual(sessions.first?["title"] as? String, title, listed.out)
    }

    /// 300 sessions of one message each: the archive starts 30 files for the boat in the hour (a
    /// crew's interval outing split by long rests fits) and refuses the rest, counted.
    func testTheArchiveStartsAtMostThirtySessionsABoatAnHour() throws {
        let broker = try MosquittoBroker(persistence: true)
        try broker.start()
        defer { broker.stop() }
        let club = work.appendingPathComponent("club")
        let archive = try startArchive("mqtt://127.0.0.1:\(broker.port)", club: club)
        let start = ISO8601DateFormatter.withFractions.date(from: "2026-06-06T09:00:00.000Z")!
        let lines = (0..<300).map { k in
            delta("spam", session: ISO8601DateFormatter.withFractions.string(from: start.addingTimeInterval(Double(k))), seq: 1, elapsed: 0,
                  kind: "session", values: "{\"path\":\"performance.rowing.session\",\"value\":{\"state\":\"ended\",\"title\":\"s\(k)\"}}")
        }
        try publish(broker.port, "oarlog/spam/session", lines)
        // A last message on an id outside the rule: when it is counted, the 300 before it were.
        try publish(broker.port, "oarlog/END/session", [lines[0]])
        try waitFor("the archive's files", timeout: 20) { archive.text.contains("bad_id: 1 so far") }
        archive.interrupt()
        XCTAssertEqual(archive.wait(timeout: 30), 0, archive.text)
        XCTAssertTrue(archive.text.contains("30 session(s) written"), archive.text)
        XCTAssertTrue(archive.text.contains("refused: 1 bad_id, 270 session_limit"), archive.text)
        let files = try FileManager.default.contentsOfDirectory(atPath: club.appendingPathComponent("sessions").path)
        XCTAssertEqual(files.filter { $0.hasSuffix(".oarlog") }.count, 30, "\(files)")
    }
}
