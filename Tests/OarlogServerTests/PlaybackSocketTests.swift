import Foundation
import HummingbirdWSClient
import Logging
import OarlogTestSupport
import XCTest

/// `/api/sessions/{id}/playback` with a real WebSocket client against `oarlog serve`: a saved
/// session played back, sought to 75 %, paused, at 60×.
final class PlaybackSocketTests: XCTestCase {
    /// What the phone received, and when.
    final class Inbox: @unchecked Sendable {
        private let lock = NSLock()
        private var messages: [(at: Date, object: [String: Any])] = []
        func add(_ m: [String: Any]) { lock.lock(); messages.append((Date(), m)); lock.unlock() }
        var all: [(at: Date, object: [String: Any])] { lock.lock(); defer { lock.unlock() }; return messages }
        func count(_ type: String) -> Int { all.filter { ($0.object["type"] as? String) == type }.count }
        /// Waits until `done` holds over what arrived (or fails after `timeout`).
        func wait(_ what: String, timeout: TimeInterval = 30, _ done: ([[String: Any]]) -> Bool) throws {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if done(all.map(\.object)) { return }
                usleep(10_000)
            }
            throw ServerTestError("timed out waiting for \(what)")
        }
    }

    static let logger = Logger(label: "oarlog-test-playback")

    /// The phone: everything received goes to `inbox`; every object added to `commands` is sent
    /// (until one with `hang_up`). A playback needs the token.
    static func play(port: Int, id: String, token: String, inbox: Inbox, commands: Inbox) async throws {
        try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/api/sessions/\(id)/playback",
                                          configuration: .init(additionalHeaders: [.authorization: "Bearer \(token)"]), logger: logger) { inbound, outbound, _ in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await frame in inbound.messages(maxSize: 1 << 20) {
                        guard case .text(let text) = frame,
                              let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { continue }
                        inbox.add(object)
                    }
                }
                group.addTask {
                    var sent = 0
                    while true {
                        let all = commands.all.map(\.object)
                        if all.contains(where: { $0["hang_up"] != nil }) { break }
                        for c in all.dropFirst(sent) {
                            try await outbound.write(.text(String(decoding: try JSONSerialization.data(withJSONObject: c), as: UTF8.self)))
                        }
                        sent = all.count
                        try await Task.sleep(nanoseconds: 5_000_000)
                    }
                    try await outbound.close(.normalClosure, reason: nil)
                }
                _ = try await group.next()
                group.cancelAll()
            }
        }
    }

    func testSeekPauseAndSpeedGiveTheSessionsOwnFigures() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-playback-\(UUID().uuidString)")
        let saved = try oarlogCLI(["replay", "samples/sim-workout.csv", "--save", "--title", "Head race"], dataDirectory: data)
        XCTAssertEqual(saved.status, 0, saved.err)
        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "5"], dataDirectory: data)
        let id = try XCTUnwrap((try jsonObject(try server.request("GET", "/api/sessions").body) as? [[String: Any]])?.first?["id"] as? String)
        let show = try XCTUnwrap(try jsonObject(try oarlogCLI(["show", id, "--json", "--strokes"], dataDirectory: data).out) as? [String: Any])
        let truth = try XCTUnwrap(show["stroke_list"] as? [[String: Any]])
        let elapsed = try XCTUnwrap(show["elapsed_s"] as? Double)

        // Not a session: no playback.
        XCTAssertEqual(try server.request("GET", "/api/sessions/nosuch/playback").status, 404)
        XCTAssertEqual(try server.request("GET", "/api/sessions/%2E%2E/playback").status, 404)

        let inbox = Inbox()
        let port = server.port
        let stop = Inbox()  // the test's own signal to hang up
        let token = server.token
        let client = Task.detached { try await PlaybackSocketTests.play(port: port, id: id, token: token, inbox: inbox, commands: stop) }
        defer { client.cancel() }

        // At first: where it stands (paused at 0 of the session's length) and the figures at 0.
        try inbox.wait("the first playback and status") { m in m.contains { $0["type"] as? String == "status" } }
        let first = inbox.all.map(\.object)
        XCTAssertEqual(first.first?["type"] as? String, "playback")
        XCTAssertEqual(first.first?["paused"] as? Bool, true)
        XCTAssertEqual(first.first?["duration_s"] as? Double ?? 0, elapsed, accuracy: 0.05)
        XCTAssertEqual(first.first(where: { $0["type"] as? String == "status" })?["strokes"] as? Int, 0)

        // A seek to 75 %: the figures are the session's at that time (strokes within one).
        let seekTo = (elapsed * 0.75).rounded()
        let before = inbox.all.count
        stop.add(["seek": seekTo])
        try inbox.wait("the status after the seek") { m in m.dropFirst(before).contains { $0["type"] as? String == "status" } }
        let afterSeek = inbox.all.map(\.object).dropFirst(before)
        let playbackAt = try XCTUnwrap(afterSeek.first { $0["type"] as? String == "playback" })
        XCTAssertEqual(playbackAt["t_s"] as? Double ?? -1, seekTo, accuracy: 0.001)
        XCTAssertEqual(playbackAt["paused"] as? Bool, true)
        let status = try XCTUnwrap(afterSeek.first { $0["type"] as? String == "status" })
        let expectedStrokes = truth.filter { ($0["t_s"] as? Double ?? .infinity) <= seekTo }.count
        XCTAssertEqual(status["elapsed_s"] as? Double ?? -1, seekTo, accuracy: 0.001)
        XCTAssertEqual(Double(status["strokes"] as? Int ?? -10), Double(expectedStrokes), accuracy: 1, "strokes at 75 %")
        let lastBefore = truth[expectedStrokes - 1]
        XCTAssertGreaterThanOrEqual(status["distance_m"] as? Double ?? 0, lastBefore["distance_m"] as? Double ?? .infinity)

        // Play at 60×: strokes go on from there, each once and in order, with the session's
        // own values; the elapsed time runs on from the seek.
        let playFrom = inbox.all.count
        let started = Date()
        stop.add(["speed": 60, "pause": false])
        try inbox.wait("the first frame after play") { m in m.dropFirst(playFrom).contains { ["accel", "fix"].contains($0["type"] as? String ?? "") } }
        let firstFrame = Date().timeIntervalSince(started)
        try inbox.wait("ten strokes after the seek") { m in m.dropFirst(playFrom).filter { $0["type"] as? String == "stroke" }.count >= 10 }
        let playing = inbox.all.map(\.object).dropFirst(playFrom)
        let strokes = playing.filter { $0["type"] as? String == "stroke" }
        for (k, s) in strokes.prefix(10).enumerated() {
            let expected = truth[expectedStrokes + k]
            XCTAssertEqual(s["index"] as? Int, expected["index"] as? Int)
            XCTAssertEqual(s["t_s"] as? Double, expected["t_s"] as? Double)
            XCTAssertEqual(s["rate_spm"] as? Double, expected["rate_spm"] as? Double)
            XCTAssertEqual(s["split_s_per_500m"] as? Double, expected["split_s_per_500m"] as? Double)
        }
        let statuses = playing.filter { $0["type"] as? String == "status" }.compactMap { $0["elapsed_s"] as? Double }
        XCTAssertGreaterThan(statuses.count, 2)
        XCTAssertEqual(statuses, statuses.sorted(), "elapsed runs forward")
        XCTAssertGreaterThanOrEqual(statuses.first ?? 0, seekTo)
        print("playback: first frame \(Int(firstFrame * 1000)) ms after play (seek to \(Int(seekTo)) s of \(Int(elapsed)) s)")

        // Pause: it stops where it is; nothing more comes.
        let pauseFrom = inbox.all.count
        stop.add(["pause": true])
        try inbox.wait("the pause") { m in m.dropFirst(pauseFrom).contains { $0["type"] as? String == "playback" } }
        let paused = try XCTUnwrap(inbox.all.map(\.object).dropFirst(pauseFrom).first { $0["type"] as? String == "playback" })
        XCTAssertEqual(paused["paused"] as? Bool, true)
        XCTAssertGreaterThan(paused["t_s"] as? Double ?? 0, seekTo)
        usleep(500_000)
        let quiet = inbox.all.count
        usleep(500_000)
        XCTAssertEqual(inbox.all.count, quiet, "nothing is sent while paused")

        // A command that is not one: an error message, the playback goes on.
        stop.add(["speed": 1000])
        try inbox.wait("the error") { m in m.contains { $0["type"] as? String == "error" } }
        XCTAssertTrue((inbox.all.map(\.object).last { $0["type"] as? String == "error" }?["message"] as? String ?? "").contains("speed"))

        // Seek near the end and play: it runs to the end and says so, paused there.
        stop.add(["seek": elapsed - 5, "pause": false])
        try inbox.wait("the end") { m in m.contains { $0["type"] as? String == "playback" && $0["ended"] as? Bool == true } }
        let end = try XCTUnwrap(inbox.all.map(\.object).last { $0["type"] as? String == "playback" })
        XCTAssertEqual(end["t_s"] as? Double ?? 0, elapsed, accuracy: 0.05)
        XCTAssertEqual(end["paused"] as? Bool, true)
        let finalStatus = try XCTUnwrap(inbox.all.map(\.object).last { $0["type"] as? String == "status" })
        XCTAssertEqual(finalStatus["strokes"] as? Int, truth.count)
        stop.add(["hang_up": true])
        _ = try? await client.value
    }

    /// A 2-hour session at 100 Hz (72 MB of records): a seek anywhere answers with the figures of
    /// that moment at once, and playing from there starts from the file's index, not its start.
    func testSeekInATwoHourSessionStartsFromTheIndex() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-playback-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let trace = data.appendingPathComponent("two-hours.csv")
        let simulated = try oarlogCLI(["simulate", "--minutes", "120", "--seed", "4", "-o", trace.path], dataDirectory: data)
        XCTAssertEqual(simulated.status, 0, simulated.err)
        let saved = try oarlogCLI(["replay", trace.path, "--save", "--title", "Two hours"], dataDirectory: data)
        XCTAssertEqual(saved.status, 0, saved.err)
        try FileManager.default.removeItem(at: trace)
        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "5"], dataDirectory: data)
        let id = try XCTUnwrap((try jsonObject(try server.request("GET", "/api/sessions").body) as? [[String: Any]])?.first?["id"] as? String)
        let truth = try XCTUnwrap((try jsonObject(try oarlogCLI(["show", id, "--json", "--strokes"], dataDirectory: data).out)
            as? [String: Any])?["stroke_list"] as? [[String: Any]])

        let inbox = Inbox(), commands = Inbox()
        let port = server.port
        let token = server.token
        let client = Task.detached { try await PlaybackSocketTests.play(port: port, id: id, token: token, inbox: inbox, commands: commands) }
        defer { client.cancel() }
        try inbox.wait("the first status") { m in m.contains { $0["type"] as? String == "status" } }
        var seekTimes: [Double] = [], playTimes: [Double] = []
        for fraction in [0.9, 0.25, 0.6] {
            let seekTo = (7200 * fraction).rounded()
            let before = inbox.all.count
            let sent = Date()
            commands.add(["seek": seekTo])
            try inbox.wait("the status at \(seekTo)") { m in m.dropFirst(before).contains { $0["type"] as? String == "status" } }
            let arrived = inbox.all.dropFirst(before).first { $0.object["type"] as? String == "status" }!
            seekTimes.append(arrived.at.timeIntervalSince(sent))
            let strokesThen = truth.filter { ($0["t_s"] as? Double ?? .infinity) <= seekTo }.count
            XCTAssertEqual(Double(arrived.object["strokes"] as? Int ?? -10), Double(strokesThen), accuracy: 1)
            // Play: the first recorded frame (a fix or the acceleration trace) from that time on.
            let playFrom = inbox.all.count
            let play = Date()
            commands.add(["pause": false])
            try inbox.wait("a frame after \(seekTo)") { m in
                m.dropFirst(playFrom).contains { ["fix", "accel"].contains($0["type"] as? String ?? "") }
            }
            let frame = inbox.all.dropFirst(playFrom).first { ["fix", "accel"].contains($0.object["type"] as? String ?? "") }!
            playTimes.append(frame.at.timeIntervalSince(play))
            if let t = frame.object["t_s"] as? Double ?? (frame.object["t_s"] as? [Double])?.first {
                XCTAssertEqual(t, seekTo, accuracy: 2, "the frame is the session's at the seek")
            }
            let pauseFrom = inbox.all.count
            commands.add(["pause": true])
            try inbox.wait("the pause") { m in m.dropFirst(pauseFrom).contains { $0["type"] as? String == "playback" } }
        }
        print("2-hour session: seek → status \(seekTimes.map { Int($0 * 1000) }) ms; play → first frame \(playTimes.map { Int($0 * 1000) }) ms")
        for t in seekTimes { XCTAssertLessThan(t, 0.1, "a seek answers from what is in memory") }
        for t in playTimes { XCTAssertLessThan(t, 0.5, "playing starts from the index, not from the file's start") }
        commands.add(["hang_up": true])
        _ = try? await client.value
    }
}
