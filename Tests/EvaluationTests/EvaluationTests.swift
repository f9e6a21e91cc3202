import OarlogEvaluation
import XCTest
import OarlogTestSupport

/// The accuracy evaluation, asserted: every check of `oarlog evaluate` must be within tolerance.
/// Each test prints its part of the table (dataset, expected, found, error, tolerance).
final class EvaluationTests: XCTestCase {
    /// `../shared/data` beside the checkout (CI clones with `shared/` beside it).
    static var dataDirectory: String {
        TestPaths.sharedData.path
    }

    func check(_ rows: [EvaluationRow], file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertTrue(FileManager.default.fileExists(atPath: Self.dataDirectory),
                      "real data folder missing at \(Self.dataDirectory)", file: file, line: line)
        print(EvaluationRow.table(rows))
        XCTAssertFalse(rows.isEmpty, file: file, line: line)
        for row in rows where !row.passed {
            XCTFail("\(row.dataset) — \(row.check): expected \(row.expected), found \(row.found), error \(row.error), tolerance \(row.tolerance)",
                    file: file, line: line)
        }
    }

    func testTalosPhoneTraceHasExactlyTwelveStrokes() throws {
        try check(Evaluation.talos(dataDirectory: Self.dataDirectory))
    }

    func testQuiskeChainedCurvesEveryStrokeWithin50ms() throws {
        try check(Evaluation.quiske(dataDirectory: Self.dataDirectory))
    }

    func testNKLogbookDistanceAndPerStrokeSplit() throws {
        try check(Evaluation.nkLogbook(dataDirectory: Self.dataDirectory))
    }

    func testSpeedCoachDistance() throws {
        try check(Evaluation.speedCoach(dataDirectory: Self.dataDirectory))
    }

    func testSimulatedSessionsExactCountAndTiming() throws {
        try check(Evaluation.simulatedSessions())
    }

    func testSimulatedWorkoutsWithRestsAndRestarts() throws {
        try check(Evaluation.simulatedWorkouts())
    }
}
