#if canImport(Glibc)
import Glibc
#endif
import Foundation
import OarlogTestSupport
import XCTest

/// A training site's stand-in (Tests/Standins/training_site.py, written from the sites' public
/// API documents) on a loopback port, as the upload tests meet it: what it received (its
/// `received.jsonl`), its scripted answers, stopped at the end. `port` fixes the port (a site
/// that was down and comes back at the same address): the stand-in's server is bound there.
final class TrainingSiteStandIn {
    let child: ChildProcess
    let port: Int
    let store: URL
    static let script = TestPaths.packageRoot.appendingPathComponent("Tests/Standins/training_site.py").path

    init(service: String, store: URL, port fixed: Int? = nil, arguments: [String] = []) throws {
        self.store = store
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        let portFile = store.appendingPathComponent("port").path
        try? FileManager.default.removeItem(atPath: portFile)
        let standIn = ["--service", service, "--store", store.path, "--port-file", portFile] + arguments
        let log = store.appendingPathComponent("standin.log").path
        if let fixed {
            // The same script, its server bound to the port asked for.
            let boot = """
                import runpy, sys, http.server as h
                class Fixed(h.ThreadingHTTPServer):
                    def __init__(self, address, handler): super().__init__((address[0], \(fixed)), handler)
                h.ThreadingHTTPServer = Fixed
                sys.argv = sys.argv[1:]
                runpy.run_path(sys.argv[0], run_name="__main__")
                """
            child = try ChildProcess("/usr/bin/env", ["python3", "-c", boot, Self.script] + standIn, output: log, errors: log)
        } else {
            child = try ChildProcess("/usr/bin/env", ["python3", Self.script] + standIn, output: log, errors: log)
        }
        let deadline = Date().addingTimeInterval(20)
        var found: Int?
        while Date() < deadline, found == nil, child.isRunning {
            found = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            if found == nil { usleep(20_000) }
        }
        guard let found else {
            child.stop(SIGKILL, grace: 2)
            throw StandInFailure(description: "the stand-in did not start: " + ChildProcess.text(log))
        }
        port = found
    }

    var url: String { "http://127.0.0.1:\(port)" }

    /// The activities it accepted, in order (`received.jsonl`).
    func received() -> [[String: Any]] {
        let text = ChildProcess.text(store.appendingPathComponent("received.jsonl").path)
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// The accepted activity's file, as the site keeps it.
    func file(of activity: [String: Any]) -> URL {
        if let path = activity["path"] as? String { return URL(fileURLWithPath: path.hasPrefix("/") ? path : store.path + "/" + path) }
        return store.appendingPathComponent("\(activity["id"].map { "\($0)" } ?? "none").fit")
    }

    /// The answers its next uploads get (503, 429, 401, "expire").
    func script(_ answers: [Any]) throws {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["answers": answers]), as: UTF8.self)
        let run = try ChildProcess.run("/usr/bin/env", ["curl", "-s", "-X", "POST", "-d", body, url + "/_standin/script"])
        XCTAssertEqual(run.status, 0, run.err)
    }

    func stop() { child.stop(SIGTERM, grace: 5) }

    deinit { stop() }
}

struct StandInFailure: Error, CustomStringConvertible {
    var description: String
}
