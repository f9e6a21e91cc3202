import OarlogLive
import XCTest

final class SessionClockTests: XCTestCase {
    func testSessionClockPlacesTimesInUTC() {
        let clock = SessionClock(monotonicOrigin: 1000, wallClockAtOrigin: 1_700_000_000)
        XCTAssertEqual(clock.sessionTime(ofMonotonic: 1012.5), 12.5)
        XCTAssertEqual(clock.utc(of: 12.5), 1_700_000_012.5)
    }
}
