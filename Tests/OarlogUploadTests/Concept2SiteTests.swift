import Foundation
import OarlogTrainingSites
import OarlogUpload
import XCTest

/// Concept2Site against the stand-in written from the Concept2 Logbook API v1
/// (log.concept2.com/developers/documentation, read November 2026).
final class Concept2SiteTests: XCTestCase {
    private var standin: StandinSite!
    private let zone = TimeZone(identifier: "Europe/London")!

    override func setUpWithError() throws {
        standin = try StandinSite(.concept2)
    }

    override func tearDown() {
        standin?.stop()
    }

    private func site() throws -> (Concept2Site, SecretFiles) {
        let (account, secrets) = try standin.account()
        return (Concept2Site(baseURL: account.url, clientID: try XCTUnwrap(account.clientID), secrets: secrets, timeZone: zone), secrets)
    }

    func testAResultIsWaterInWholeMetresAndTenthsWithItsStrokes() async throws {
        let (site, secrets) = try site()
        let item = sampleItem(strokes: 7)
        let outcome = try await site.upload(item)
        let kept = try XCTUnwrap(standin.received().first)
        XCTAssertEqual(outcome, .done(remoteID: String(try XCTUnwrap(kept["id"] as? Int))))
        let data = Data(standin.file(try XCTUnwrap(kept["path"] as? String)))
        let result = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertEqual(result["type"] as? String, "water")
        XCTAssertEqual(result["distance"] as? Int, 6013)          // 6012.6 m
        XCTAssertEqual(result["time"] as? Int, 18346)             // 1834.56 s
        // 1_795_678_200 s is 2026-11-26 07:30:00 UTC; London is on GMT in November.
        XCTAssertEqual(result["date"] as? String, "2026-11-26 07:30:00")
        XCTAssertEqual(result["timezone"] as? String, "Europe/London")
        XCTAssertEqual(result["weight_class"] as? String, "H")
        XCTAssertEqual(result["stroke_rate"] as? Int, 23)         // 22.6 spm
        XCTAssertEqual((result["heart_rate"] as? [String: Any])?["average"] as? Int, 148)
        XCTAssertEqual(result["comments"] as? String, "Morning outing, 8+ Blue\nHeadwind on the way back")
        let strokes = try XCTUnwrap(result["stroke_data"] as? [[String: Any]])
        XCTAssertEqual(strokes.count, 7)
        // Stroke 2: 12.34 + 2 × 2.5 = 17.34 s, 45.67 + 2 × 9.81 = 65.29 m, 125.04 s/500 m.
        XCTAssertEqual(strokes[2]["t"] as? Int, 173)
        XCTAssertEqual(strokes[2]["d"] as? Int, 653)
        XCTAssertEqual(strokes[2]["p"] as? Int, 1250)
        XCTAssertEqual(strokes[2]["spm"] as? Int, 24)
        XCTAssertEqual(strokes[2]["hr"] as? Int, 152)
        XCTAssertNotEqual(try secrets.secret(.refreshToken), StandinSite.refreshToken, "the rotated refresh token is kept")
    }

    func testASecondResultOfOneSessionIsADuplicateOfTheFirst() async throws {
        let (site, _) = try site()
        guard case .done(let id) = try await site.upload(sampleItem()) else { return XCTFail("not done") }
        let again = try await site.upload(sampleItem())
        XCTAssertEqual(again, .duplicate(remoteID: id))
        XCTAssertEqual(standin.received().count, 1)
    }

    func testA401AfterARefreshIsUnauthorized() async throws {
        try await standin.script([401, 401])
        let (site, _) = try site()
        let result = await failure { () async throws(UploadFailure) in try await site.upload(sampleItem()) }
        XCTAssertEqual(result, .unauthorized("Concept2 logbook refused the account (401): add it again"))
        XCTAssertEqual(standin.received().count, 0)
    }

    func testAnExpiredTokenIsRefreshedOnceAndTheResultLands() async throws {
        let (site, secrets) = try site()
        var earlier = sampleItem("2026-11-24T07-00-00Z")
        earlier.distance_m = 4000
        _ = try await site.upload(earlier)
        let refreshBefore = try secrets.secret(.refreshToken)
        try await standin.script(["expire"])
        let outcome = try await site.upload(sampleItem())
        guard case .done = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(standin.received().count, 2)
        XCTAssertNotEqual(try secrets.secret(.refreshToken), refreshBefore, "the rotated refresh token is kept")
    }

    func test429IsRetryAfterTheSitesSecondAnd503IsRetry() async throws {
        try await standin.script([429, 503])
        let (site, _) = try site()
        let busy = await failure { () async throws(UploadFailure) in try await site.upload(sampleItem()) }
        guard case .retry(_, let after)? = busy else { return XCTFail("\(String(describing: busy))") }
        XCTAssertEqual(after, 1)
        let failing = await failure { () async throws(UploadFailure) in try await site.upload(sampleItem()) }
        guard case .retry(let message, nil)? = failing else { return XCTFail("\(String(describing: failing))") }
        XCTAssertTrue(message.contains("503"), message)
        XCTAssertEqual(standin.received().count, 0)
    }

    func testFindGivesTheResultTheLogbookKeptBeforeItsAnswerReachedUs() async throws {
        standin.stop()
        standin = try StandinSite(.concept2, uploadDelay_s: 2)
        let (site, _) = try site()
        let item = sampleItem()
        let nothingYet = try await site.find(item)
        XCTAssertNil(nothingYet)
        let sending = Task { try? await site.upload(item) }
        let deadline = Date().addingTimeInterval(10)
        while standin.received().isEmpty && Date() < deadline { try await Task.sleep(nanoseconds: 50_000_000) }
        let kept = try XCTUnwrap(standin.received().first?["id"] as? Int)
        let found = try await site.find(item)
        XCTAssertEqual(found, String(kept))
        var other = sampleItem()
        other.distance_m = 2000
        let notIt = try await site.find(other)
        XCTAssertNil(notIt)
        _ = await sending.value
    }
}
