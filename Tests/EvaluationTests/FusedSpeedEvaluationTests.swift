import OarlogEvaluation
import XCTest

/// The fused speed's rows of `oarlog evaluate`, asserted against the simulator's truth: the
/// split's answer to a change of pace and each stroke's lowest and highest speed and swing meet
/// the goals; the steady-rate scatter of the displayed split does not yet (docs/SPEED.md)
/// and is printed, not asserted within the goal.
final class FusedSpeedEvaluationTests: XCTestCase {
    /// Each stroke's lowest and highest speed within 3 % of the truth's, and its swing within
    /// 5 %, for 90 % of strokes at 25 Hz (the coarsest rate: the extremes are sampled there).
    func testStrokeSpeedExtremesAndSwingAt25Hz() {
        let rows = Evaluation.inStrokeSpeed(accelRates: [25])
        XCTAssertEqual(rows.count, 2)
        assertWithinTolerance(rows)
    }

    /// 20 → 32 spm in three strokes: the fused split one stroke after the truth reaches its new
    /// speed within 1 s/500 m of it (measured −0.84; the receiver's 5 s average +5.42).
    func testSplitAnswersAChangeOfPaceWithinAStroke() {
        let rows = Evaluation.splitResponse(steady: true)
        XCTAssertEqual(rows.count, 2)
        assertWithinTolerance(Array(rows.prefix(1)))
        // The steady-rate scatter: measured 0.73 s/500 m rms (goal 0.5, not met); a regression
        // past 1.0 (the figure before the fused surge, 1.08) fails here.
        if let steady = rows.last {
            print("fused steady per-stroke split: \(steady.error)")
            let fused = steady.error.split(separator: ",").first.flatMap { Double($0.split(separator: " ").last ?? "") }
            XCTAssertLessThan(fused ?? .infinity, 1.0, steady.error)
        }
    }

    /// The same crew with a 10 Hz receiver (ten times the Doppler speeds): the split answers the
    /// change within 1 s/500 m (measured −0.80) and its steady-rate scatter is under 0.5 s/500 m
    /// rms (measured 0.41; the receiver's own 5 s average 3.02).
    func testSplitWithATenHertzReceiverMeetsBothGoals() {
        let rows = Evaluation.splitResponse(steady: true, gpsRate: 10)
        XCTAssertEqual(rows.count, 2)
        for row in rows { print("10 Hz: \(row.check): \(row.found) \(row.error)") }
        assertWithinTolerance(rows)
    }
}
