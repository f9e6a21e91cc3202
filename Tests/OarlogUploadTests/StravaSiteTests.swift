import Foundation
import OarlogTrainingSites
import OarlogUpload
import XCTest

/// StravaSite against the stand-in written from the Strava API v3 as documented 2026
/// ("Uploading to Strava", the API v3 reference "Uploads", OAuth `POST /oauth/token`).
final class StravaSiteTests: XCTestCase {
    private var standin: StandinSite!

    override func setUpWithError() throws {
        standin = try StandinSite(.strava)
    }

    override func tearDown() {
        standin?.stop()
    }

    /// Polls a `.processing` upload until the site says more (at most 10 polls).
    private func settle(_ site: TrainingSite, _ outcome: UploadOutcome) async throws -> (UploadOutcome, polls: Int) {
        var outcome = outcome, polls = 0
        while case .processing(let upload) = outcome, polls < 10 {
            outcome = try await site.check(remoteID: upload)
            polls += 1
        }
        return (outcome, polls)
    }

    func testAnUploadIsProcessedThenDoneWithTheActivityAndTheExactFITBytes() async throws {
        let (account, secrets) = try standin.account()
        let site = makeTrainingSite(account, secrets: secrets)
        let item = sampleItem()
        let first = try await site.upload(item)
        guard case .processing = first else { return XCTFail("\(first)") }
        let (outcome, polls) = try await settle(site, first)
        XCTAssertEqual(polls, 2, "the stand-in answers 'still being processed' to the first poll")
        let received = try XCTUnwrap(standin.received().first)
        XCTAssertEqual(outcome, .done(remoteID: try XCTUnwrap(received["id"] as? String)))
        XCTAssertEqual(standin.file(try XCTUnwrap(received["path"] as? String)), item.fit)
        XCTAssertEqual(received["external_id"] as? String, item.externalID)
        XCTAssertEqual(received["name"] as? String, item.name)
        XCTAssertEqual(received["activity_type"] as? String, "rowing")
        XCTAssertEqual(standin.received().count, 1)
        // The token was made from the refresh token, which the stand-in rotated: the new one is kept.
        let kept = try XCTUnwrap(try secrets.secret(.refreshToken))
        XCTAssertNotEqual(kept, StandinSite.refreshToken)
        XCTAssertNotNil(try secrets.secret(.accessToken))
    }

    func testASecondUploadOfOneFileIsADuplicateOfTheFirstActivity() async throws {
        let (account, secrets) = try standin.account()
        let site = makeTrainingSite(account, secrets: secrets)
        let (done, _) = try await settle(site, try await site.upload(sampleItem()))
        guard case .done(let activity) = done else { return XCTFail("\(done)") }
        let (again, _) = try await settle(site, try await site.upload(sampleItem()))
        XCTAssertEqual(again, .duplicate(remoteID: activity))
        XCTAssertEqual(standin.received().count, 1)
    }

    func testA401AfterARefreshIsUnauthorized() async throws {
        try await standin.script([401, 401])
        let (account, secrets) = try standin.account()
        let result = await failure { () async throws(UploadFailure) in try await makeTrainingSite(account, secrets: secrets).upload(sampleItem()) }
        XCTAssertEqual(result, .unauthorized("Strava refused the account (401): add it again"))
        XCTAssertEqual(standin.received().count, 0)
    }

    func testARefusedRefreshTokenIsUnauthorized() async throws {
        let (account, secrets) = try standin.account()
        try secrets.keep(.refreshToken, "REFRESH-revoked-11aa22bb")
        let result = await failure { () async throws(UploadFailure) in try await makeTrainingSite(account, secrets: secrets).upload(sampleItem()) }
        guard case .unauthorized? = result else { return XCTFail("\(String(describing: result))") }
    }

    func testAnExpiredTokenIsRefreshedOnceAndTheSendLands() async throws {
        let (account, secrets) = try standin.account()
        let site = makeTrainingSite(account, secrets: secrets)
        _ = try await settle(site, try await site.upload(sampleItem("2026-11-24T07-00-00Z")))
        let tokenBefore = try secrets.secret(.accessToken), refreshBefore = try secrets.secret(.refreshToken)
        try await standin.script(["expire"])
        let (outcome, _) = try await settle(site, try await site.upload(sampleItem()))
        guard case .done = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(standin.received().count, 2)
        XCTAssertNotEqual(try secrets.secret(.accessToken), tokenBefore)
        XCTAssertNotEqual(try secrets.secret(.refreshToken), refreshBefore, "the rotated refresh token is kept")
        // A token with less than a minute to live is refreshed before the send.
        standin.stop()
        standin = try StandinSite(.strava, accessTTL_s: 30)
        let (short, shortSecrets) = try standin.account()
        let shortSite = makeTrainingSite(short, secrets: shortSecrets)
        _ = try await shortSite.upload(sampleItem())
        let firstRotation = try shortSecrets.secret(.refreshToken)
        _ = try await shortSite.upload(sampleItem("2026-11-23T07-00-00Z"))
        XCTAssertNotEqual(try shortSecrets.secret(.refreshToken), firstRotation)
        XCTAssertEqual(standin.received().count, 2)
    }

    func test429IsRetryAfterTheSitesSecondAnd503IsRetry() async throws {
        try await standin.script([429, 503])
        let (account, secrets) = try standin.account()
        let site = makeTrainingSite(account, secrets: secrets)
        let busy = await failure { () async throws(UploadFailure) in try await site.upload(sampleItem()) }
        guard case .retry(_, let after)? = busy else { return XCTFail("\(String(describing: busy))") }
        XCTAssertEqual(after, 1)
        let failing = await failure { () async throws(UploadFailure) in try await site.upload(sampleItem()) }
        guard case .retry(let message, nil)? = failing else { return XCTFail("\(String(describing: failing))") }
        XCTAssertTrue(message.contains("503"), message)
        XCTAssertEqual(standin.received().count, 0)
    }

    func testFindGivesTheActivityTheSiteKeptBeforeItsAnswerReachedUs() async throws {
        standin.stop()
        standin = try StandinSite(.strava, uploadDelay_s: 2)
        let (account, secrets) = try standin.account()
        let site = makeTrainingSite(account, secrets: secrets)
        let item = sampleItem()
        let nothingYet = try await site.find(item)
        XCTAssertNil(nothingYet)
        let sending = Task { try? await site.upload(item) }
        let deadline = Date().addingTimeInterval(10)
        while standin.received().isEmpty && Date() < deadline { try await Task.sleep(nanoseconds: 50_000_000) }
        let kept = try XCTUnwrap(standin.received().first?["id"] as? String)
        let found = try await site.find(item)
        XCTAssertEqual(found, kept)
        _ = await sending.value
    }
}
