import OarlogEvaluation
import XCTest

/// The fused speed's rows of `oarlog evaluate` that meet the goal, asserted against the
/// simulator's truth (the split response and steady-rate rows, and the lowest and highest
/// speed per stroke, do not yet: see docs/SPEED.md).
final class FusedSpeedEvaluationTests: XCTestCase {
    /// Each stroke's speed swing within 5 % of the truth's for 90 % of strokes at 100 Hz.
    func testStrokeSpeedSwingAt100Hz() {
        let rows = Evaluation.inStrokeSpeed(accelRates: [100]).filter { $0.check.contains("swing") }
        XCTAssertEqual(rows.count, 1)
        assertWithinTolerance(rows)
    }
}
