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
    /// (until one with `hang_up`).
    static func play(port: Int, id: String, inbox: Inbox, commands: Inbox) async throws {
        try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/api/sessions/\(id)/playback", logger: logger) { inbound, outbound, _ in
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
        let client = Task.detached { try await PlaybackSocketTests.play(port: port, id: id, inbox: inbox, commands: stop) }
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
}
