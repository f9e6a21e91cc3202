import OarlogEvaluation
import XCTest
import OarlogTestSupport

/// Stroke quality against the truth (`Evaluation+Quality`): the check and the speed fluctuation
/// within 5 % of the simulator's truth, the drive/recovery ratio shown, and the piece's average
/// curve on the real Quiske curves equal to the mean of the input curves (RMS under 5 % of its range).
final class QualityEvaluationTests: XCTestCase {
    func testQuiskeAverageCurveIsTheMeanOfTheInputCurves() {
        assertWithinTolerance(Evaluation.quiskeCurve(dataDirectory: EvaluationTests.dataDirectory))
    }

    func testSimulatedCheckFluctuationAndRatioAgainstTheTruth() {
        assertWithinTolerance(Evaluation.simulatedQuality())
    }
}
