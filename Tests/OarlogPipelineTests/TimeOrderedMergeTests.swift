import OarlogCore
import OarlogLive
import OarlogPipeline
import XCTest
import OarlogTestSupport

func accel(_ t: Double) -> TraceRecord { .accel(AccelSample(time: t, x: Float(t), y: 0, z: 9.81)) }
func fix(_ t: Double) -> TraceRecord { .fix(GPSFix(time: t, latitude: 51, longitude: 0)) }

final class TimeOrderedMergeTests: XCTestCase {
    func testMergesInTimeOrderWithMetadataFirst() throws {
        let a = ListSource([.metadata(key: "start_utc", value: "2026-01-01T00:00:00Z"), accel(0), accel(0.5), accel(1.0), accel(1.5)])
        let g = ListSource([fix(0.2), fix(1.2), .metadata(key: "late", value: "x"), fix(2.2)])
        var merge = TimeOrderedMerge([a, g])
        var out: [TraceRecord] = []
        while let r = try merge.next() { out.append(r) }
        XCTAssertEqual(out.first, .metadata(key: "start_utc", value: "2026-01-01T00:00:00Z"))
        let times = out.compactMap(\.time)
        XCTAssertEqual(times, [0, 0.2, 0.5, 1.0, 1.2, 1.5, 2.2])
        XCTAssertTrue(out.contains(.metadata(key: "late", value: "x")))
        XCTAssertEqual(merge.droppedOutOfOrder, 0)
    }

    func testTimeNeverRunsBackward() throws {
        // One source goes backward (a receiver whose clock stepped back): the old record is dropped.
        var merge = TimeOrderedMerge([ListSource([fix(1), fix(2), fix(1.5), fix(3)])])
        var times: [Double] = []
        while let r = try merge.next() { times.append(r.time!) }
        XCTAssertEqual(times, [1, 2, 3])
        XCTAssertEqual(merge.droppedOutOfOrder, 1)
    }

    func testTiesKeepSourceOrder() throws {
        var merge = TimeOrderedMerge([ListSource([accel(1)]), ListSource([fix(1)])])
        let first = try merge.next()
        let second = try merge.next()
        XCTAssertEqual(first, accel(1))
        XCTAssertEqual(second, fix(1))
        XCTAssertNil(try merge.next())
    }
}

final class PacerTests: XCTestCase {
    func testClockPacingWaitsForTraceTime() {
        // 0.3 s of trace at 2x real time must take at least 0.15 s of wall time.
        var pacer = Pacer(.clock(speed: 2))
        let clock = MonotonicClock()
        let start = clock.now()
        for k in 0...6 { pacer.wait(for: Double(k) * 0.05) }
        let took = clock.now() - start
        XCTAssertGreaterThanOrEqual(took, 0.149)
        XCTAssertLessThan(took, 1.0)
    }

    func testAsFastAsPossibleDoesNotWait() {
        var pacer = Pacer(.asFastAsPossible)
        let clock = MonotonicClock()
        let start = clock.now()
        for t in stride(from: 0.0, through: 1000.0, by: 1) { pacer.wait(for: t) }
        XCTAssertLessThan(clock.now() - start, 0.5)
    }

    func testSessionClockPlacesTimesInUTC() {
        let clock = SessionClock(monotonicOrigin: 1000, wallClockAtOrigin: 1_700_000_000)
        XCTAssertEqual(clock.sessionTime(ofMonotonic: 1012.5), 12.5)
        XCTAssertEqual(clock.utc(of: 12.5), 1_700_000_012.5)
    }
}
