#if canImport(Glibc)
import Glibc
#endif
import Foundation
import OarlogTestSupport
import OarlogTrainingSites
import OarlogUpload
import XCTest

/// Tests/Standins/training_site.py run for one test: a training site on a loopback port, written
/// from its public API document, keeping what it accepts in a temporary directory.
final class StandinSite {
    let service: TrainingService
    let root: String
    let store: String
    let url: String
    let child: ChildProcess
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Standins/training_site.py").path

    /// The secrets the stand-in checks (and that must never show anywhere).
    static let apiKey = "KEY-intervals-7f3a9c2e51d84b06"
    static let clientID = "4711"
    static let clientSecret = "SECRET-client-0b6e21f9d3c7a845"
    static let refreshToken = "REFRESH-first-93d0c6a1e4b2f758"

    init(_ service: TrainingService, accessTTL_s: Double = 3600, uploadDelay_s: Double = 0,
         refreshToken: String = StandinSite.refreshToken) throws {
        self.service = service
        root = NSTemporaryDirectory() + "oarlog-standin-\(UUID().uuidString)"
        store = root + "/store"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let portFile = root + "/port"
        var arguments = [Self.script, "--service", service.rawValue, "--store", store, "--port-file", portFile,
                         "--access-ttl-s", String(accessTTL_s), "--upload-delay-s", String(uploadDelay_s)]
        switch service {
        case .intervals: arguments += ["--api-key", Self.apiKey]
        case .strava, .concept2:
            arguments += ["--client-id", Self.clientID, "--client-secret", Self.clientSecret, "--refresh-token", refreshToken]
        }
        child = try ChildProcess("/usr/bin/python3", arguments, output: root + "/standin.out", errors: root + "/standin.out")
        let deadline = Date().addingTimeInterval(15)
        var port: String?
        while Date() < deadline {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8), !text.isEmpty { port = text; break }
            guard child.isRunning else { break }
            usleep(20_000)
        }
        guard let port else {
            child.stop()
            throw XCTSkip("the stand-in did not start: " + ChildProcess.text(root + "/standin.out"))
        }
        url = "http://127.0.0.1:\(port)"
    }

    /// Stops the stand-in and removes its directory.
    func stop() {
        child.stop(SIGTERM, grace: 5)
        try? FileManager.default.removeItem(atPath: root)
    }

    /// An account on this stand-in with its secrets in a fresh directory (mode 0700).
    func account() throws -> (account: SiteAccount, secrets: SecretFiles) {
        let secrets = SecretFiles(directory: root + "/accounts/\(service.rawValue)")
        switch service {
        case .intervals:
            try secrets.keep(.apiKey, Self.apiKey)
            return (SiteAccount(service: .intervals, url: url, athleteID: "i12345"), secrets)
        case .strava, .concept2:
            try secrets.keep(.clientSecret, Self.clientSecret)
            try secrets.keep(.refreshToken, Self.refreshToken)
            return (SiteAccount(service: service, url: url, clientID: Self.clientID), secrets)
        }
    }

    /// Forced answers for the next upload requests (`503`, `429`, `401`, `"expire"`).
    func script(_ answers: [Any]) async throws {
        let body = try JSONSerialization.data(withJSONObject: ["answers": answers])
        let response = try await SiteHTTP.send(SiteRequest(method: "POST", url: url + "/_standin/script", body: Array(body)), site: "stand-in")
        XCTAssertEqual(response.status, 200)
    }

    /// What the stand-in accepted (its received.jsonl).
    func received() -> [[String: Any]] {
        let text = ChildProcess.text(store + "/received.jsonl")
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// The stand-in's request lines (method, path with query, status, user agent).
    var requestLog: String { ChildProcess.text(store + "/requests.log") }

    /// The bytes of a file the stand-in kept.
    func file(_ path: String) -> [UInt8] { Array(FileManager.default.contents(atPath: path) ?? Data()) }
}

/// A session to send: a small FIT-like file unique to `sessionID` (the clients send it as given;
/// FIT decoding end to end is the upload queue's test), and strokes with known values.
func sampleItem(_ sessionID: String = "2026-11-26T07-30-00Z", strokes: Int = 5) -> UploadItem {
    var fit: [UInt8] = [14, 0x20, 0x5C, 0x08, 0, 0, 0, 0] + Array(".FIT".utf8) + [0, 0]
    fit += Array(sessionID.utf8)
    fit += (0..<64).map { UInt8(($0 * 37 + sessionID.count) & 0xFF) }
    fit += [0x0D, 0x0A, 0x00, 0xFF]  // bytes a text mangling would change
    let stroke = (0..<strokes).map {
        UploadStroke(time_s: 12.34 + Double($0) * 2.5, distance_m: 45.67 + Double($0) * 9.81,
                     split_s_per_500m: 125.04, rate_spm: 24.4, heartRate_bpm: 151.6)
    }
    return UploadItem(sessionID: sessionID, name: "Morning outing, 8+ Blue", notes: "Headwind on the way back",
                      startUTC: Date(timeIntervalSince1970: 1_795_678_200), elapsed_s: 1834.56, distance_m: 6012.6,
                      strokeCount: strokes, averageRate_spm: 22.6, averageHeartRate_bpm: 148.4, fit: fit, strokes: stroke)
}

/// Runs `body` and returns its failure (nil when it did not fail).
func failure<T>(_ body: () async throws(UploadFailure) -> T) async -> UploadFailure? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}
