#if canImport(Glibc)
import Glibc
#endif
import Foundation
import OarlogTestSupport
import XCTest

/// `oarlog serve`'s front door against the real binary on real sockets: requests that never end,
/// heads over the limits, floods of idle connections, strange Host and Origin headers, and a
/// pairing-code guesser on another address.
final class FrontDoorTests: XCTestCase {
    private func server(_ extra: [String] = []) throws -> ServerProcess {
        try ServerProcess(arguments: ["--replay", "samples/sim-workout.csv", "--speed", "1"] + extra)
    }

    func testHalfSentRequestsAndIdleConnectionsAreClosed() throws {
        let server = try server(["--idle-timeout", "1"])
        let half = try RawConnection(port: server.port)
        try half.send("GET /api/status HTTP/1.1\r\nHost: loc")
        let idle = try RawConnection(port: server.port)
        let start = Date()
        let answer = half.readUntilClosed(timeout: 10)
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 408"), answer)
        XCTAssertTrue(answer.contains("{\"error\":{\"message\":\"the request did not arrive within 1 s\"}}"), answer)
        XCTAssertEqual(idle.readUntilClosed(timeout: 10), "", "an idle connection is closed without a word")
        XCTAssertLessThan(Date().timeIntervalSince(start), 4)
        XCTAssertEqual(try server.request("GET", "/api/status").status, 200)
    }

    func testOversizeAndMalformedHeadsAreAnsweredAndClosed() throws {
        let server = try server()
        let cases: [(String, String)] = [
            ("GET / HTTP/1.1\r\n" + (0..<10_000).map { "X-\($0): y\r\n" }.joined() + "\r\n", "HTTP/1.1 431"),
            ("GET /" + String(repeating: "a", count: 1_000_000) + " HTTP/1.1\r\nHost: x\r\n\r\n", "HTTP/1.1 414"),
            ("GET /?q=" + String(repeating: "a", count: 8_200) + " HTTP/1.1\r\nHost: x\r\n\r\n", "HTTP/1.1 414"),
            ("HELLO THERE\r\n\r\n", "HTTP/1.1 400"),
        ]
        for (request, status) in cases {
            let connection = try RawConnection(port: server.port)
            try? connection.send(request)
            let answer = connection.readUntilClosed(timeout: 10)
            XCTAssertTrue(answer.hasPrefix(status), "\(status): \(answer.prefix(200))")
            XCTAssertTrue(answer.contains("{\"error\":{\"message\":"), answer)
        }
    }

    /// Raises this process's soft limit of open files to its hard limit; returns it.
    static func openFilesAllowed() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_024 }
        if limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        return Int(min(limit.rlim_cur, 1 << 20))
    }

    func testAThousandIdleConnectionsLeaveTheServerReachable() throws {
        let server = try server()
        var flood: [RawConnection] = []
        // 1,200 sockets in this process: a shell's usual soft limit is 1,024 files, so it is
        // raised to the hard limit first (any flood over 320 fills the 256 and the 64 alike).
        for _ in 0..<min(1_200, Self.openFilesAllowed() - 100) { flood.append(try RawConnection(port: server.port)) }
        usleep(500_000)
        let held = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(server.process.processIdentifier)/fd").count
        XCTAssertLessThan(held, 64 + 40, "one address holds 64 connections at most")
        let start = Date()
        let other = try server.request("GET", "/api/status", interface: "127.0.0.2")
        XCTAssertEqual(other.status, 200, "another phone is answered at once")
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
        let same = try server.request("GET", "/api/status")
        XCTAssertEqual(same.status, 503)
        XCTAssertTrue(same.body.contains("64 connections"), same.body)
        flood.removeAll()
        usleep(300_000)
        XCTAssertEqual(try server.request("GET", "/api/status").status, 200, "reachable again once the flood is gone")
    }

    func testHostAndWebSocketOriginAreChecked() throws {
        let server = try server()
        let rebound = try server.request("GET", "/api/status", headers: ["Host: evil.example"])
        XCTAssertEqual(rebound.status, 421)
        XCTAssertTrue(rebound.body.contains("--allow-host"), rebound.body)
        XCTAssertEqual(try server.request("GET", "/api/status", headers: ["Host: localhost:\(server.port)"]).status, 200)
        let upgrade = "GET /api/live HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        let foreign = try RawConnection(port: server.port)
        try foreign.send(upgrade + "Origin: http://evil.example\r\n\r\n")
        let refused = foreign.readUntilClosed(timeout: 10)
        XCTAssertTrue(refused.hasPrefix("HTTP/1.1 403"), refused)
        XCTAssertTrue(refused.contains("evil.example"), refused)
        let own = try RawConnection(port: server.port)
        try own.send(upgrade + "Origin: http://127.0.0.1:\(server.port)\r\n\r\n")
        XCTAssertTrue(own.readSome(timeout: 10).hasPrefix("HTTP/1.1 101"))
    }

    func testAGuesserOnAnotherAddressDoesNotLockThePhoneOut() throws {
        let server = try server()
        let wrong = server.pairingCode == "000000" ? "000001" : "000000"
        for _ in 0..<5 {
            XCTAssertEqual(try server.request("POST", "/api/pair", body: "{\"code\":\"\(wrong)\"}", interface: "127.0.0.2").status, 401)
        }
        let locked = try server.request("POST", "/api/pair", body: "{\"code\":\"\(server.pairingCode)\"}", interface: "127.0.0.2")
        XCTAssertEqual(locked.status, 429)
        let phone = try server.request("POST", "/api/pair", body: "{\"code\":\"\(server.pairingCode)\"}")
        XCTAssertEqual(phone.status, 200)
        XCTAssertTrue(phone.body.contains(server.token))
    }

    func testNoAnswerNamesWhereTheFilesAre() throws {
        let server = try server()
        XCTAssertEqual(try server.request("POST", "/api/record/start", body: "{\"title\":\"Paths\"}", token: server.token).status, 201)
        usleep(300_000)
        let stop = try server.request("POST", "/api/record/stop", token: server.token)
        XCTAssertEqual(stop.status, 200)
        let id = try XCTUnwrap((try jsonObject(stop.body) as? [String: Any])?["id"] as? String)
        let list = try server.request("GET", "/api/sessions")
        XCTAssertTrue(list.body.contains("\"path\":\"\(id).oarlog\""), list.body)
        let renamed = try server.request("PATCH", "/api/sessions/\(id)", body: "{\"title\":\"Renamed\"}", token: server.token)
        XCTAssertEqual(renamed.status, 200, renamed.body)
        XCTAssertTrue(renamed.body.contains("\"source\":\"\(id).oarlog\""), renamed.body)
        for answer in [list, try server.request("GET", "/api/sessions/\(id)"), try server.request("GET", "/api/sessions/nothing"), renamed] {
            XCTAssertFalse(answer.body.contains(server.dataDirectory.path), answer.body)
            XCTAssertFalse(answer.body.contains("\"/"), answer.body)
        }
    }
}

/// A plain TCP connection to the server on loopback, for what curl will not send.
final class RawConnection {
    private let fd: Int32

    init(port: Int, from source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerTestError("socket: \(errno)") }
        if let source {
            var local = Self.address(source, port: 0)
            _ = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        }
        var remote = Self.address("127.0.0.1", port: port)
        let result = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw ServerTestError("connect: \(errno)")
        }
    }

    deinit { close(fd) }

    private static func address(_ host: String, port: Int) -> sockaddr_in {
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &a.sin_addr)
        return a
    }

    func send(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw ServerTestError("send: \(errno)") }
            bytes = bytes.dropFirst(n)
        }
    }

    /// Everything the server sends until it closes (or `timeout` seconds pass).
    func readUntilClosed(timeout: Double) -> String { read(timeout: timeout, untilClosed: true) }

    /// What the server has sent within `timeout` seconds of the first byte.
    func readSome(timeout: Double) -> String { read(timeout: timeout, untilClosed: false) }

    private func read(timeout: Double, untilClosed: Bool) -> String {
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while Date() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received += buffer[0..<n]
            if !untilClosed { break }
        }
        return String(decoding: received, as: UTF8.self)
    }
}
