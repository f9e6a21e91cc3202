import Foundation
import OarlogTrainingSites
import OarlogUpload
import XCTest

/// No secret (API key, client secret, refresh or access token) is in any failure's message or in
/// the request lines a site logs (the path and query the client chooses, its user agent).
final class UploadSecretsTests: XCTestCase {
    func testNoSecretIsInAnyFailureOrTheSitesRequestLog() async throws {
        for service in TrainingService.allCases {
            let standin = try StandinSite(service)
            defer { standin.stop() }
            let (account, secrets) = try standin.account()
            let site = makeTrainingSite(account, secrets: secrets)
            var messages: [String] = []
            try await standin.script(service == .intervals ? [429, 503, 401] : [429, 503, 401, 401, "expire"])
            for _ in 0..<3 {
                if let failed = await failure({ () async throws(UploadFailure) in try await site.upload(sampleItem()) }) {
                    messages.append(failed.description)
                }
            }
            var outcome = try await site.upload(sampleItem())
            while case .processing(let upload) = outcome { outcome = try await site.check(remoteID: upload) }
            _ = try await site.find(sampleItem())
            XCTAssertEqual(messages.count, 3, "\(service): \(messages)")
            // A refused key or refresh token.
            try secrets.keep(service == .intervals ? .apiKey : .refreshToken, "WRONG-secret-4c8d19e2")
            try secrets.keep(.accessToken, "ACCESS-stale-77e1a0c4 1")
            if let failed = await failure({ () async throws(UploadFailure) in try await site.upload(sampleItem("2026-11-20T07-00-00Z")) }) {
                messages.append(failed.description)
            }
            XCTAssertEqual(messages.count, 4, "\(service): \(messages)")
            var forbidden = [StandinSite.apiKey, StandinSite.clientSecret, StandinSite.refreshToken, "WRONG-secret-4c8d19e2", "ACCESS-stale-77e1a0c4"]
            for name in SecretName.allCases {
                if let value = try? String(contentsOfFile: secrets.path(name), encoding: .utf8) {
                    forbidden += value.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init).filter { $0.count > 8 }
                }
            }
            let log = standin.requestLog
            XCTAssertFalse(log.isEmpty)
            for secret in forbidden {
                for message in messages { XCTAssertFalse(message.contains(secret), "\(service): \(message)") }
                XCTAssertFalse(log.contains(secret), "\(service): the request log holds a secret")
            }
        }
    }
}
