import OarlogApp
import XCTest

/// The upload queue's waits (docs/UPLOADS.md): 30 s doubling to an hour, jittered ±20 %,
/// never sooner than the site's Retry-After; a Strava upload polled 2 s doubling to 5 min.
final class UploadBackoffTests: XCTestCase {
    func testDoublingFromThirtySecondsToAnHour() {
        // jitter 0.5: none.
        XCTAssertEqual(UploadBackoff.delay_s(attempts: 1, after_s: nil, jitter: 0.5), 30, accuracy: 1e-9)
        XCTAssertEqual(UploadBackoff.delay_s(attempts: 2, after_s: nil, jitter: 0.5), 60, accuracy: 1e-9)
        XCTAssertEqual(UploadBackoff.delay_s(attempts: 5, after_s: nil, jitter: 0.5), 480, accuracy: 1e-9)
        XCTAssertEqual(UploadBackoff.delay_s(attempts: 8, after_s: nil, jitter: 0.5), 3600, accuracy: 1e-9, "30·2^7 = 3840 s: an hour at most")
        XCTAssertEqual(UploadBackoff.delay_s(attempts: 10_000, after_s: nil, jitter: 1), 3600, accuracy: 1e-9)
    }

    func testJitterAndRetryAfter() {
        XCTAssertEqual(UploadBackoff.delay_s(attempts: 1, after_s: nil, jitter: 0), 24, accuracy: 1e-9)
        XCTAssertEqual(UploadBackoff.delay_s(attempts: 1, after_s: nil, jitter: 1), 36, accuracy: 1e-9)
        for _ in 0..<200 {
            let d = UploadBackoff.delay_s(attempts: 3, after_s: nil)
            XCTAssertTrue((96...144).contains(d), "\(d)")
        }
        XCTAssertEqual(UploadBackoff.delay_s(attempts: 1, after_s: 900, jitter: 0.5), 900, accuracy: 1e-9, "the site's Retry-After wins")
        XCTAssertEqual(UploadBackoff.delay_s(attempts: 1, after_s: 5, jitter: 0.5), 30, accuracy: 1e-9)
    }

    func testPolls() {
        XCTAssertEqual(UploadBackoff.poll_s(checks: 0), 2)
        XCTAssertEqual(UploadBackoff.poll_s(checks: 3), 16)
        XCTAssertEqual(UploadBackoff.poll_s(checks: 50), 300)
    }
}
