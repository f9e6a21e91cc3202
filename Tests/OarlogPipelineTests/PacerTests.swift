import OarlogCore
import OarlogLive
import OarlogPipeline
import XCTest
import OarlogTestSupport

func accel(_ t: Double) -> TraceRecord { .accel(AccelSample(time: t, x: Float(t), y: 0, z: 9.81)) }
func fix(_ t: Double) -> TraceRecord { .fix(GPSFix(time: t, latitude: 51, longitude: 0)) }

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
}
