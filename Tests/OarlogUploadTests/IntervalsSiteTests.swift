import Foundation
import OarlogTrainingSites
import OarlogUpload
import XCTest

/// IntervalsSite against the stand-in written from Intervals.icu API v1 (the forum's "API
/// Integration Cookbook" and "API access to Intervals.icu", read November 2026).
final class IntervalsSiteTests: XCTestCase {
    private var standin: StandinSite!

    override func setUpWithError() throws {
        standin = try StandinSite(.intervals)
    }

    override func tearDown() {
        standin?.stop()
    }

    private func site() throws -> TrainingSite {
        let (account, secrets) = try standin.account()
        return makeTrainingSite(account, secrets: secrets)
    }

    func testAnUploadIsTheActivityWithTheExactFITBytesNameAndExternalID() async throws {
        let item = sampleItem()
        let outcome = try await site().upload(item)
        let received = standin.received()
        XCTAssertEqual(received.count, 1)
        let first = try XCTUnwrap(received.first)
        XCTAssertEqual(outcome, .done(remoteID: try XCTUnwrap(first["id"] as? String)))
        XCTAssertEqual(first["external_id"] as? String, "oarlog-2026-11-26T07-30-00Z")
        XCTAssertEqual(first["name"] as? String, "Morning outing, 8+ Blue")
        XCTAssertEqual(first["description"] as? String, "Headwind on the way back")
        XCTAssertEqual(first["filename"] as? String, "2026-11-26T07-30-00Z.fit")
        XCTAssertEqual(standin.file(try XCTUnwrap(first["path"] as? String)), item.fit)
        XCTAssertEqual(first["bytes"] as? Int, item.fit.count)
    }

    func testASecondUploadOfOneSessionIsADuplicateOfTheFirst() async throws {
        let site = try site()
        guard case .done(let id) = try await site.upload(sampleItem()) else { return XCTFail("not done") }
        let again = try await site.upload(sampleItem())
        XCTAssertEqual(again, .duplicate(remoteID: id))
        XCTAssertEqual(standin.received().count, 1)
    }

    func testAWrongKeyIsUnauthorizedAndNothingIsKept() async throws {
        let (account, secrets) = try standin.account()
        try secrets.keep(.apiKey, "KEY-wrong-5d1e0a7b")
        let result = await failure { () async throws(UploadFailure) in try await makeTrainingSite(account, secrets: secrets).upload(sampleItem()) }
        guard case .unauthorized(let message)? = result else { return XCTFail("\(String(describing: result))") }
        XCTAssertTrue(message.contains("401"), message)
        XCTAssertEqual(standin.received().count, 0)
    }

    func test429IsRetryAfterTheSitesSecondAnd503IsRetry() async throws {
        try await standin.script([429, 503])
        let site = try site()
        let busy = await failure { () async throws(UploadFailure) in try await site.upload(sampleItem()) }
        guard case .retry(_, let after)? = busy else { return XCTFail("\(String(describing: busy))") }
        XCTAssertEqual(after, 1)
        let failing = await failure { () async throws(UploadFailure) in try await site.upload(sampleItem()) }
        guard case .retry(let message, nil)? = failing else { return XCTFail("\(String(describing: failing))") }
        XCTAssertTrue(message.contains("503"), message)
        XCTAssertEqual(standin.received().count, 0)
        let outcome = try await site.upload(sampleItem())
        guard case .done = outcome else { return XCTFail("\(outcome)") }
        XCTAssertEqual(standin.received().count, 1)
    }

    func testTheSiteDownIsRetry() async throws {
        let (account, secrets) = try standin.account()
        standin.child.stop()
        let result = await failure { () async throws(UploadFailure) in try await makeTrainingSite(account, secrets: secrets).upload(sampleItem()) }
        guard case .retry? = result else { return XCTFail("\(String(describing: result))") }
    }

    func testFindGivesTheActivityTheSiteKeptBeforeItsAnswerReachedUs() async throws {
        standin.stop()
        standin = try StandinSite(.intervals, uploadDelay_s: 2)
        let site = try site()
        let item = sampleItem()
        let nothingYet = try await site.find(item)
        XCTAssertNil(nothingYet)
        let sending = Task { try? await site.upload(item) }
        let deadline = Date().addingTimeInterval(10)
        while standin.received().isEmpty && Date() < deadline { try await Task.sleep(nanoseconds: 50_000_000) }
        let kept = try XCTUnwrap(standin.received().first?["id"] as? String)
        let found = try await site.find(item)
        XCTAssertEqual(found, kept)
        let other = try await site.find(sampleItem("2026-11-25T07-00-00Z"))
        XCTAssertNil(other)
        _ = await sending.value
    }
}
