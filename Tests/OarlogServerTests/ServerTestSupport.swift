import Foundation
import OarlogTestSupport
import XCTest

/// `oarlog serve` started as a person starts it (the built binary, a free loopback port, its own
/// data directory), with the token and pairing code it prints; stopped with SIGINT.
final class ServerProcess {
    let process: ChildProcess
    let port: Int
    let dataDirectory: URL
    private(set) var token = ""
    private(set) var pairingCode = ""
    private let errorLog: URL

    init(arguments: [String], dataDirectory: URL? = nil, environment: [String: String] = [:]) throws {
        port = freeLoopbackPort()
        self.dataDirectory = dataDirectory ?? FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: self.dataDirectory, withIntermediateDirectories: true)
        errorLog = self.dataDirectory.appendingPathComponent("serve.log")
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        process = try ChildProcess(try Binaries.oarlog(), ["serve", "--listen", "127.0.0.1:\(port)"] + arguments, in: TestPaths.packageRoot.path,
                                   environment: environment.merging(["OARLOG_DATA_DIR": self.dataDirectory.path]) { _, ours in ours },
                                   output: errorLog.path, errors: errorLog.path)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let text = log
            if let t = Self.value(after: "control token: ", in: text), let c = Self.value(after: "pairing code:  ", in: text) {
                token = t
                pairingCode = c
                return
            }
            if !process.isRunning { break }
            usleep(50_000)
        }
        throw ServerTestError("oarlog serve did not start: \(log)")
    }

    var log: String { (try? String(contentsOf: errorLog, encoding: .utf8)) ?? "" }

    private static func value(after prefix: String, in text: String) -> String? {
        guard let range = text.range(of: prefix) else { return nil }
        let rest = text[range.upperBound...]
        guard let end = rest.firstIndex(of: "\n") else { return nil }
        return String(rest[..<end])
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// Ctrl-C, as a person stops it; SIGKILL if it has not ended 10 s later.
    func stop() { process.stop(SIGINT, grace: 10) }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    /// An HTTP request with curl: status and body.
    func request(_ method: String, _ path: String, body: String? = nil, token: String? = nil,
                 headers: [String] = [], interface: String? = nil) throws -> (status: Int, body: String) {
        var args = ["-s", "-o", "-", "-w", "\n%{http_code}", "-X", method, base + path]
        if let interface { args += ["--interface", interface] }  // another loopback address: another phone
        if let token { args += ["-H", "Authorization: Bearer \(token)"] }
        for h in headers { args += ["-H", h] }
        var bodyFile: URL?
        if let body {
            let f = dataDirectory.appendingPathComponent("body-\(UUID().uuidString)")
            try Data(body.utf8).write(to: f)
            bodyFile = f
            args += ["--data-binary", "@" + f.path, "-H", "Content-Type: application/json"]
        }
        defer { if let bodyFile { try? FileManager.default.removeItem(at: bodyFile) } }
        let run = try ChildProcess.run("/usr/bin/curl", args, in: TestPaths.packageRoot.path)
        let text = run.out
        guard let newline = text.lastIndex(of: "\n"), let status = Int(text[text.index(after: newline)...]) else {
            throw ServerTestError("curl failed: \(run.err)")
        }
        return (status, String(text[..<newline]))
    }

    /// A GET whose body may be binary (a FIT file): status, headers (lowercased names), bytes.
    func download(_ path: String) throws -> Download {
        let body = dataDirectory.appendingPathComponent("download-\(UUID().uuidString)")
        let head = dataDirectory.appendingPathComponent("headers-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: body)
            try? FileManager.default.removeItem(at: head)
        }
        let run = try ChildProcess.run("/usr/bin/curl", ["-s", "--path-as-is", "-o", body.path, "-D", head.path, "-w", "%{http_code}", base + path],
                                       in: TestPaths.packageRoot.path)
        guard let status = Int(run.out.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ServerTestError("curl failed: \(run.err)")
        }
        var headers: [String: String] = [:]
        for line in ((try? String(contentsOf: head, encoding: .utf8)) ?? "").split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Download(status: status, headers: headers, body: (try? Data(contentsOf: body)) ?? Data())
    }

    struct Download {
        let status: Int
        let headers: [String: String]
        let body: Data
        func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    /// The server's current status (GET /api/status).
    func status() throws -> [String: Any] {
        let r = try request("GET", "/api/status")
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.body.utf8)) as? [String: Any])
    }

    /// Waits until the replay has ended (its figures are final).
    func waitUntilEnded(timeout: TimeInterval = 120) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if (try status()["ended"] as? Bool) == true { return }
            usleep(200_000)
        }
        XCTFail("the replay did not end within \(Int(timeout)) s")
    }

    /// /proc/PID/status fields of the server (Threads, VmRSS in kB).
    func procStatus(_ key: String) -> Int { ProcessMemory.status(key, of: process.processIdentifier) }
}

/// Runs `oarlog` (the CLI beside the tests) with a data directory.
func oarlogCLI(_ arguments: [String], dataDirectory: URL) throws -> CommandRun {
    try runOarlog(arguments, dataDirectory: dataDirectory.path)
}

func jsonObject(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8))
}

struct ServerTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The browser tests' scripts (`browser/*.py`): headless Chromium driven by python3-selenium,
/// each printing one JSON object of what it saw.
enum BrowserScript {
    /// Where the scripts write their screenshots (`.build/screenshots`, made if missing).
    static func screenshots() throws -> URL {
        let shots = TestPaths.packageRoot.appendingPathComponent(".build/screenshots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        return shots
    }

    /// Runs `browser/NAME` with Debian's python3 (the one with selenium) and `arguments`; asserts
    /// it ended well and reported no error (`detail` is added to the message), and returns what
    /// it printed.
    static func run(_ name: String, _ arguments: [String], detail: @autoclosure () -> String = "",
                    file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let script = TestPaths.packageRoot.appendingPathComponent("Tests/OarlogServerTests/browser/" + name).path
        let run = try ChildProcess.run("/usr/bin/python3", [script] + arguments, in: TestPaths.packageRoot.path)
        XCTAssertEqual(run.status, 0, run.err, file: file, line: line)
        let result = try XCTUnwrap(try jsonObject(run.out) as? [String: Any], run.out + run.err, file: file, line: line)
        XCTAssertNil(result["error"], "\(result["error"] ?? "") \(result["error_console"] ?? "")\(detail())", file: file, line: line)
        return result
    }

    /// Every screenshot the script reports is a picture (at least `minimumBytes`), printed for a
    /// person to open.
    static func checkScreenshots(_ result: [String: Any], minimumBytes: Int, file: StaticString = #filePath, line: UInt = #line) {
        for path in result["screenshots"] as? [String] ?? [] {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            XCTAssertGreaterThan(size, minimumBytes, path, file: file, line: line)
            print("screenshot: \(path)")
        }
    }
}
