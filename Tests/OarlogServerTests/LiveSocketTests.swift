import Foundation
import HummingbirdWSClient
import Logging
import OarlogTestSupport
import XCTest

/// `/api/live` with real WebSocket clients against `oarlog serve --replay`.
final class LiveSocketTests: XCTestCase {
    /// What one client received.
    final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var messages: [[String: Any]] = []
        func add(_ m: [String: Any]) {
            var m = m
            m["arrived_unix_ms"] = Date().timeIntervalSince1970 * 1000
            lock.lock(); messages.append(m); lock.unlock()
        }
        var all: [[String: Any]] { lock.lock(); defer { lock.unlock() }; return messages }
    }

    static let logger = Logger(label: "oarlog-test-ws")

    /// Reads messages until the replay has ended (a status with `ended`), or `limit` messages.
    static func listen(port: Int, into received: Received, until done: @escaping @Sendable ([String: Any]) -> Bool) async throws {
        try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/api/live", logger: logger) { inbound, outbound, _ in
            for try await frame in inbound.messages(maxSize: 1 << 20) {
                guard case .text(let text) = frame,
                      let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { continue }
                received.add(object)
                if done(object) { break }
            }
            try await outbound.close(.normalClosure, reason: nil)
        }
    }

    /// Three phones at once: each gets a status first, then every stroke exactly once and in
    /// order up to the last, with the fields and values of `oarlog replay --json --strokes`.
    func testEveryStrokeOnceAndInOrderForThreeClients() async throws {
        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "60"])
        let replay = try oarlogCLI(["replay", "samples/sim-workout.csv", "--json", "--strokes"], dataDirectory: server.dataDirectory)
        let truth = try XCTUnwrap((try jsonObject(replay.out) as? [String: Any])?["stroke_list"] as? [[String: Any]])
        let clients = (0..<3).map { _ in Received() }
        let port = server.port
        try await withThrowingTaskGroup(of: Void.self) { group in
            for c in clients {
                group.addTask {
                    try await Self.listen(port: port, into: c) { ($0["type"] as? String) == "status" && ($0["ended"] as? Bool) == true }
                }
            }
            try await group.waitForAll()
        }
        for (k, c) in clients.enumerated() {
            let messages = c.all
            XCTAssertEqual(messages.first?["type"] as? String, "status", "client \(k): a status first")
            let strokes = messages.filter { ($0["type"] as? String) == "stroke" }
            let indices = strokes.compactMap { $0["index"] as? Int }
            XCTAssertEqual(indices.last, truth.count, "client \(k): up to the last stroke")
            // They connect as the replay starts (60x: a stroke every ~50 ms, so a loaded machine
            // may let a few pass first); what matters is that none is missed after that.
            XCTAssertLessThanOrEqual(indices.first ?? .max, 40, "client \(k) joined near the start")
            XCTAssertGreaterThan(indices.count, truth.count - 40)
            XCTAssertEqual(indices, Array((indices.first ?? 1)...(indices.last ?? 0)), "client \(k): each once, in order")
            for s in strokes {
                let i = try XCTUnwrap(s["index"] as? Int)
                let t = truth[i - 1]
                for key in t.keys {
                    XCTAssertEqual("\(s[key] ?? "missing")", "\(t[key] ?? "missing")", "client \(k) stroke \(i) \(key)")
                }
            }
            let fixes = messages.filter { ($0["type"] as? String) == "fix" }.compactMap { $0["t_s"] as? Double }
            XCTAssertGreaterThan(fixes.count, 100)
            XCTAssertTrue(zip(fixes, fixes.dropFirst()).allSatisfy { $1 - $0 >= 1 - 1e-9 }, "client \(k): fixes at most 1 Hz")
            XCTAssertGreaterThan(messages.filter { ($0["type"] as? String) == "accel" }.count, 100, "client \(k): the acceleration trace")
            let delays = strokes.compactMap { s -> Double? in
                guard let sent = s["emitted_unix_ms"] as? Double, let arrived = s["arrived_unix_ms"] as? Double else { return nil }
                return arrived - sent
            }.sorted()
            XCTAssertEqual(delays.count, strokes.count, "every stroke says when it was emitted")
            if !delays.isEmpty {
                print("client \(k): stroke emitted → received: median \(Int(delays[delays.count / 2])) ms, "
                      + "90th percentile \(Int(delays[delays.count * 9 / 10])) ms over \(delays.count) strokes")
            }
            let last = try XCTUnwrap(messages.last)
            XCTAssertEqual(last["strokes"] as? Int, truth.count)
        }
    }

    /// A phone that joins mid-session first gets a status with the figures so far.
    func testJoiningMidSessionStartsWithTheFiguresSoFar() async throws {
        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "30"])
        usleep(2_000_000)
        let received = Received()
        try await Self.listen(port: server.port, into: received) { _ in true }
        let first = try XCTUnwrap(received.all.first)
        XCTAssertEqual(first["type"] as? String, "status")
        XCTAssertGreaterThan(first["strokes"] as? Int ?? 0, 5)
        XCTAssertGreaterThan(first["elapsed_s"] as? Double ?? 0, 30)
        XCTAssertEqual(first["gps"] as? String, "ok")
        XCTAssertEqual(first["accelerometer"] as? String, "ok")
    }

    /// 100 phones connect and drop: the server's threads and memory come back to where they were.
    func testHundredClientsLeaveNothingBehind() async throws {
        let server = try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "2"])
        let port = server.port
        @Sendable func fiftyPhones() async throws {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<50 {
                    group.addTask {
                        let r = Received()
                        try await Self.listen(port: port, into: r) { _ in r.all.count >= 3 }
                    }
                }
                try await group.waitForAll()
            }
        }
        // Warm up with as many phones at once: the event loops and the runtime's worker pools
        // reach their working size (they are bounded by the cores, not by the clients).
        try await fiftyPhones()
        usleep(500_000)
        let threadsBefore = server.procStatus("Threads")
        let rssBefore = server.procStatus("VmRSS")
        for _ in 0..<2 { try await fiftyPhones() }
        // Idle worker threads may take a moment to end; nothing else may stay.
        var threadsAfter = server.procStatus("Threads")
        for _ in 0..<50 where threadsAfter > threadsBefore {
            usleep(100_000)
            threadsAfter = server.procStatus("Threads")
        }
        usleep(500_000)
        let rssAfter = server.procStatus("VmRSS")
        print("100 clients: threads \(threadsBefore) → \(threadsAfter), RSS \(rssBefore) → \(rssAfter) kB")
        XCTAssertLessThanOrEqual(threadsAfter, threadsBefore, "threads left behind by 100 clients")
        XCTAssertLessThan(rssAfter - rssBefore, 8 << 10, "RSS grew by \(rssAfter - rssBefore) kB")
        // And the server still serves a new phone at once.
        let late = Received()
        try await Self.listen(port: server.port, into: late) { _ in true }
        XCTAssertEqual(late.all.first?["type"] as? String, "status")
    }
}
