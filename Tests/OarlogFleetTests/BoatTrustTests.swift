import OarlogCore
import OarlogFleet
import XCTest

/// The coach's board keeps each boat's own stream (issue 23, finding 9): what someone else
/// publishes under a boat's topic — a message of another session, sequence numbers far ahead, a
/// name of another boat, an id outside the rule — is refused and counted, not applied; a boat
/// that really starts again is still followed; the board holds a bounded number of boats.
final class BoatTrustTests: XCTestCase {
    let s1 = "2026-06-06T09:00:00.000Z"
    let s2 = "2026-06-06T10:00:00.000Z"
    var t0: Double { UTCTime.parseISO8601(s1)! }

    /// Message `seq` of a boat rowing east from the origin: a fix at 1 Hz, `seq` seconds in.
    func fix(_ boat: String = "alpha", session: String? = nil, seq: Int, elapsed: Double? = nil, latitude: Double? = nil) -> FleetMessage {
        let start = UTCTime.parseISO8601(session ?? s1)!
        let e = elapsed ?? Double(seq)
        return FleetMessage(boat: boat, session: session ?? s1, sequence: seq, utc: start + e, elapsed: e,
                            content: .position(FleetPosition(latitude: latitude ?? 51.5, longitude: -0.22 + Double(seq) * 1e-5, distance: Double(seq) * 4)))
    }

    func sessionEvent(_ boat: String = "alpha", session: String, seq: Int, started: Bool, title: String = "Outing", name: String? = nil) -> FleetMessage {
        FleetMessage(boat: boat, boatName: name, session: session, sequence: seq, utc: UTCTime.parseISO8601(session)! + Double(seq),
                     elapsed: Double(seq), content: .session(FleetSessionEvent(started: started, title: title)))
    }

    /// Boat alpha's first `count` fixes, one a second from `t0`.
    func rowing(_ board: inout FleetBoard, _ range: ClosedRange<Int>) {
        for k in range { board.apply(fix(seq: k), now: t0 + Double(k)) }
    }

    func testOneMessageOfAnotherSessionDoesNotWipeTheBoat() throws {
        var board = FleetBoard()
        rowing(&board, 1...60)
        // Someone publishes one fix of a newer session, far away, on alpha's topic.
        XCTAssertEqual(board.apply(fix(session: s2, seq: 1, latitude: 10), now: t0 + 60.5), [])
        XCTAssertEqual(board.boats["alpha"]?.pending?.session, s2, "shown to the coach as a warning")
        rowing(&board, 61...200)
        _ = board.tick(now: t0 + 201)
        let alpha = try XCTUnwrap(board.boats["alpha"])
        XCTAssertEqual(alpha.session, s1)
        XCTAssertEqual(alpha.messages, 200, "every real message applied")
        XCTAssertEqual(alpha.latitude, 51.5)
        XCTAssertEqual(alpha.distance, 800)
        XCTAssertEqual(alpha.duplicates, 0)
        XCTAssertEqual(alpha.missed, 0)
        XCTAssertNil(alpha.pending)
        XCTAssertEqual(board.refused[.otherSession], 1)
    }

    func testSequenceNumbersFarAheadDoNotTurnTheBoatsMessagesIntoDuplicates() throws {
        var board = FleetBoard()
        rowing(&board, 1...50)
        // 2,001 messages at 10¹⁵: more than a boat could have sent in its session.
        for k in 0...2000 { board.apply(fix(seq: 1_000_000_000_000_000 + k, elapsed: 50), now: t0 + 50.5) }
        // 2,001 more, plausible for their elapsed time but 5,000 ahead, while the boat talks on.
        for k in 0...2000 { board.apply(fix(seq: 5050 + k, elapsed: 3600), now: t0 + 51) }
        rowing(&board, 51...300)
        _ = board.tick(now: t0 + 301)
        let alpha = try XCTUnwrap(board.boats["alpha"])
        XCTAssertEqual(alpha.messages, 300)
        XCTAssertEqual(alpha.duplicates, 0)
        XCTAssertEqual(alpha.missed, 0)
        XCTAssertEqual(alpha.distance, 1200)
        XCTAssertEqual(board.refused[.sequenceJump], 4002, "the first 2,001 at once, the held ones when they expired")
    }

    func testOneMessageFarAheadWithinTheWindowCannotMakeTheGapBeGivenUp() throws {
        var board = FleetBoard()
        rowing(&board, 1...10)
        board.apply(fix(seq: 1500, elapsed: 600), now: t0 + 10.5)
        rowing(&board, 11...200)   // three minutes: more than the minute a real gap waits
        _ = board.tick(now: t0 + 201)
        let alpha = try XCTUnwrap(board.boats["alpha"])
        XCTAssertEqual(alpha.messages, 200)
        XCTAssertEqual(alpha.missed, 0, "the boat's stream kept moving: nothing given up")
    }

    func testABoatThatStartsAgainIsFollowedWithNothingLost() throws {
        var board = FleetBoard()
        rowing(&board, 1...30)
        // The board restarts (no end said); its new session starts 20 s later at seq 1.
        let s = UTCTime.iso8601(t0 + 50)
        for k in 1...10 {
            board.apply(FleetMessage(boat: "alpha", session: s, sequence: k, utc: t0 + 50 + Double(k), elapsed: Double(k),
                                     content: .position(FleetPosition(latitude: 51.6, longitude: -0.2, distance: Double(k)))),
                        now: t0 + 50 + Double(k))
        }
        let alpha = try XCTUnwrap(board.boats["alpha"])
        XCTAssertEqual(alpha.session, s, "taken up: the old stream was silent")
        XCTAssertEqual(alpha.messages, 10, "the held messages too")
        XCTAssertEqual(alpha.distance, 10)
        XCTAssertEqual(alpha.track.count, 10)
        XCTAssertEqual(board.refused.values.reduce(0, +), 0)

        // A boat that said it ended is followed into its next session at once.
        var ended = FleetBoard()
        rowing(&ended, 1...5)
        ended.apply(sessionEvent(session: s1, seq: 6, started: false), now: t0 + 6)
        for k in 1...3 { ended.apply(fix(session: s2, seq: k), now: t0 + 7) }
        XCTAssertEqual(ended.boats["alpha"]?.session, s2)
        XCTAssertEqual(ended.boats["alpha"]?.messages, 3)
    }

    func testAJumpAfterTheCoachsQueueOverflowedIsTakenUpOnceTheOldStreamIsSilent() throws {
        var board = FleetBoard()
        rowing(&board, 1...100)
        // The broker dropped 4,899 queued messages for the coach: the stream resumes at 5,000.
        for k in 5000...5010 { board.apply(fix(seq: k, elapsed: Double(k) / 3), now: t0 + 101 + Double(k - 5000)) }
        XCTAssertEqual(board.boats["alpha"]?.messages, 100, "held while the old stream could still go on")
        _ = board.tick(now: t0 + 118)
        let alpha = try XCTUnwrap(board.boats["alpha"])
        XCTAssertEqual(alpha.messages, 111)
        XCTAssertEqual(alpha.missed, 4899)
        board.apply(fix(seq: 5011, elapsed: 5011 / 3), now: t0 + 119)
        XCTAssertEqual(board.boats["alpha"]?.messages, 112)
    }

    func testIdsOutsideTheRuleAndNamesOfOtherBoatsAreRefused() throws {
        var board = FleetBoard()
        let topics = try FleetTopics()
        func send(_ topic: String, _ m: FleetMessage) { board.receive(topic: topic, payload: SignalKDelta.payload(of: m), topics: topics, now: t0) }
        for id in ["B", "a.b", String(repeating: "x", count: 65), "ß"] {
            send("oarlog/\(id)/position", fix(id, seq: 1))
        }
        XCTAssertTrue(board.boats.isEmpty)
        XCTAssertEqual(board.refused[.badID], 4)
        // Boat x calls itself "B" (boat b's name) in a retained status: its own figures, under its own id.
        let status = FleetMessage(boat: "x", boatName: "B", session: s1, sequence: 1, utc: t0, elapsed: 1,
                                  content: .status(FleetStatus(state: .rowing, strokes: 99, strokeRate: 40, split: 80, speed: 6, distance: 5000)))
        send("oarlog/x/status", status)
        XCTAssertEqual(board.boats["x"]?.name, "x")
        XCTAssertEqual(board.refused[.nameClaimed], 1)
        send("oarlog/women-s-8-a/session", sessionEvent("women-s-8-a", session: s1, seq: 1, started: true, name: "Women's 8+ A"))
        XCTAssertEqual(board.boats["women-s-8-a"]?.name, "Women's 8+ A", "a boat's own name is shown")
    }

    func testTheBoardHoldsAtMostItsBoatsAndForgetsTheSilentOnes() throws {
        var board = FleetBoard(maximumBoats: 64, expiry: 1800)
        for k in 0..<10_000 { board.apply(fix("fake-\(k)", seq: 1), now: t0) }
        XCTAssertEqual(board.boats.count, 64)
        XCTAssertEqual(board.refused[.tooManyBoats], 10_000 - 64)
        board.apply(fix("fake-1", seq: 2), now: t0 + 1000)
        XCTAssertEqual(Set(board.expire(now: t0 + 1801)).count, 63, "silent for more than 30 minutes")
        XCTAssertEqual(Array(board.boats.keys), ["fake-1"])
        board.apply(fix("alpha", seq: 1), now: t0 + 1802)
        XCTAssertEqual(board.boats.count, 2, "room again")
    }

    func testCrossedPathsForgetABoatThatLeft() {
        var paths = CrossedPaths(distanceLimit: 10)
        for k in 0..<10 {
            paths.add(boat: "a", utc: Double(k), latitude: 51.5, longitude: -0.22 + Double(k) * 1e-5)
            paths.add(boat: "b", utc: Double(k) + 0.5, latitude: 51.5, longitude: -0.22 + Double(k) * 1e-5)
        }
        XCTAssertEqual(paths.all.filter(\.ongoing).count, 1)
        paths.forget(boat: "b")
        XCTAssertEqual(paths.all.count, 1)
        XCTAssertFalse(paths.all[0].ongoing, "closed as it stood")
    }
}

/// What a boat may send, its receivers accept (finding 10): every text is cut on the boat to the
/// byte limits the receivers apply, on a character boundary.
final class FleetTextTests: XCTestCase {
    func testAnEmojiTitleOfAValidLengthArrivesWhole() throws {
        let title = String(repeating: "🚣", count: 150)
        XCTAssertEqual(title.utf8.count, 600)
        let m = FleetMessage(boat: "alpha", boatName: "Alpha", session: "2026-06-06T09:00:00.000Z", sequence: 1,
                             utc: 1_780_736_400, elapsed: 0, content: .session(FleetSessionEvent(started: true, title: title)))
        let back = try SignalKDelta.message(boat: "alpha", kind: .session, payload: SignalKDelta.payload(of: m))
        XCTAssertEqual(back, m)
        var board = FleetBoard()
        board.receive(topic: "oarlog/alpha/session", payload: SignalKDelta.payload(of: m), topics: try FleetTopics(), now: 1_780_736_400)
        XCTAssertEqual(board.boats["alpha"]?.title, title)
    }

    func testLongerTextsAreCutOnACharacterBoundaryToWhatReceiversTake() throws {
        let family = "👩‍👩‍👧‍👦"   // one character of 25 bytes
        let cases: [(FleetContent, FleetMessageKind)] = [
            (.session(FleetSessionEvent(started: true, title: String(repeating: family, count: 100))), .session),
            (.note(String(repeating: "é", count: 5000)), .note),
            (.fence(FleetFenceEvent(name: "fence.enter", fence: String(repeating: "🚣", count: 100), text: String(repeating: "x", count: 5000),
                                    fields: (0..<40).map { .init("k\($0)", String(repeating: "v", count: 500)) })), .fence),
        ]
        for (content, kind) in cases {
            let m = FleetMessage(boat: "alpha", boatName: String(repeating: "Å", count: 150), session: "2026-06-06T09:00:00.000Z",
                                 sequence: 1, utc: 1_780_736_400, elapsed: 0, content: content)
            let back = try SignalKDelta.message(boat: "alpha", kind: kind, payload: SignalKDelta.payload(of: m))
            XCTAssertEqual(back.boatName, String(repeating: "Å", count: 100), "200 bytes")
            switch back.content {
            case .session(let s): XCTAssertEqual(s.title, String(repeating: family, count: 40), "1,024 bytes hold 40 whole families, not 41")
            case .note(let text): XCTAssertEqual(text, String(repeating: "é", count: 4096))
            case .fence(let f):
                XCTAssertEqual(f.fence, String(repeating: "🚣", count: 50))
                XCTAssertEqual(f.text.utf8.count, FleetText.fenceTextBytes)
                XCTAssertEqual(f.fields.count, FleetText.fenceFields)
            default: XCTFail("\(back.content)")
            }
        }
        XCTAssertEqual(FleetText.clip("ab🚣", bytes: 5), "ab")
    }

    func testABoatsTopicIDIsItsCutNamesID() {
        let publisher = FleetPublisher(boatName: String(repeating: "🚣", count: 60) + " Alpha", topics: try! FleetTopics(), title: "t",
                                       wallClock: { 0 }, describeFence: { _ in FleetFenceEvent(name: "", fence: "", text: "") }, send: { _, _ in })
        XCTAssertEqual(publisher.boatName, String(repeating: "🚣", count: 50))
        XCTAssertEqual(FleetTopics.boatID(publisher.boatName), publisher.boat)
    }
}
