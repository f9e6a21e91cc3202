import OarlogEvaluation
import XCTest
import OarlogTestSupport

/// Stroke quality against the truth (`Evaluation+Quality`): the check and the speed fluctuation
/// within 5 % of the simulator's truth, the drive/recovery ratio shown, and the piece's average
/// curve on the real Quiske curves equal to the mean of the input curves (RMS under 5 % of its range).
final class QualityEvaluationTests: XCTestCase {
    func check(_ rows: [EvaluationRow], file: StaticString = #filePath, line: UInt = #line) {
        print(EvaluationRow.table(rows))
        XCTAssertFalse(rows.isEmpty, file: file, line: line)
        for row in rows where !row.passed {
            XCTFail("\(row.dataset) — \(row.check): expected \(row.expected), found \(row.found), error \(row.error), tolerance \(row.tolerance)",
                    file: file, line: line)
        }
    }

    func testQuiskeAverageCurveIsTheMeanOfTheInputCurves() {
        check(Evaluation.quiskeCurve(dataDirectory: EvaluationTests.dataDirectory))
    }

    func testSimulatedCheckFluctuationAndRatioAgainstTheTruth() {
        check(Evaluation.simulatedQuality())
    }
}
