import XCTest
import OarlogIIO

/// Placing scans in time and finding missing data, without a device.
final class SampleTimelineTests: XCTestCase {
    func testDeviceTimestampsFlagAJumpAndDropBackwardTimes() {
        var line = IIOSampleTimeline(nominalInterval: 0.01, gapFactor: 1.5)
        var gaps: [Double] = []
        let times = [0.00, 0.01, 0.02, 0.03, 0.08, 0.09, 0.09, 0.085, 0.10]
        var kept = 0
        for t in times {
            switch line.place(deviceTime: t) {
            case .inOrder(let after): kept += 1; if let after { gaps.append(after) }
            case .outOfOrder: break
            }
        }
        XCTAssertEqual(gaps, [0.03])        // 50 ms where 10 were due
        XCTAssertEqual(kept, 7)             // 0.09 repeated and 0.085 dropped
        XCTAssertEqual(line.outOfOrder, 2)
    }

    func testOneLostScanIsAGapButJitterIsNot() {
        var line = IIOSampleTimeline(nominalInterval: 0.01, gapFactor: 1.5)
        var gaps = 0
        for t in [0.0, 0.0102, 0.0198, 0.0301, 0.0502, 0.0601] {
            if case .inOrder(let after?) = line.place(deviceTime: t) { gaps += 1; XCTAssertEqual(after, 0.0301) }
        }
        XCTAssertEqual(gaps, 1)
    }

    func testUnknownRateIsLearntFromTheFirstIntervals() {
        var line = IIOSampleTimeline(nominalInterval: nil)
        var gaps: [Double] = []
        var t = 0.0
        for k in 0..<30 {
            t += (k == 20 ? 0.05 : 0.005)
            if case .inOrder(let after?) = line.place(deviceTime: t) { gaps.append(after) }
        }
        XCTAssertEqual(line.nominalInterval ?? 0, 0.005, accuracy: 1e-12)
        XCTAssertEqual(gaps.count, 1)
    }

    /// Without timestamps: scans spread evenly between refills; the last is the refill time.
    func testSpreadBetweenRefills() {
        var line = IIOSampleTimeline(nominalInterval: 0.01, openedAt: 1.0)
        let a = line.spread(count: 10, refillTime: 1.1)
        XCTAssertNil(a.gapAfter)
        XCTAssertEqual(a.time(ofScan: 0), 1.01, accuracy: 1e-12)
        XCTAssertEqual(a.time(ofScan: 9), 1.1)
        let b = line.spread(count: 10, refillTime: 1.2)
        XCTAssertEqual(b.time(ofScan: 0), 1.11, accuracy: 1e-12)
        // A refill 1 s late with 10 scans: the scans sit just before it, after a gap.
        let c = line.spread(count: 10, refillTime: 2.2)
        XCTAssertEqual(c.gapAfter, 1.2)
        XCTAssertEqual(c.time(ofScan: 0), 2.11, accuracy: 1e-12)
        XCTAssertEqual(c.time(ofScan: 9), 2.2)
    }
}
