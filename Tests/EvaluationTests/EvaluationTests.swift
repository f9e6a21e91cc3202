import OarlogEvaluation
import XCTest
import OarlogTestSupport

/// The accuracy evaluation, asserted: every check of `oarlog evaluate` must be within tolerance.
/// Each test prints its part of the table (dataset, expected, found, error, tolerance).
final class EvaluationTests: XCTestCase {
    /// The real recordings bundled in the project (`samples/`: rowingdata, MIT). The GPL Talos
    /// trace is not bundled: `oarlog evaluate --data DIR` checks it (CI: the shared data folder beside the checkout).
    static var dataDirectory: String {
        TestPaths.samples.path
    }

    func check(_ rows: [EvaluationRow], file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertTrue(FileManager.default.fileExists(atPath: Self.dataDirectory),
                      "real data folder missing at \(Self.dataDirectory)", file: file, line: line)
        assertWithinTolerance(rows, file: file, line: line)
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
