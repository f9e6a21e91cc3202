import OarlogEvaluation
import XCTest

/// The open goals' rows (`oarlog evaluate --open-goals`): the 500 m standing starts of the
/// per-stroke device exports in the project's samples, against each device's own distance.
/// Their tolerance (0.5 %) is the goal and some rows miss it (docs/DISTANCE.md), so these
/// tests hold what is known of them: every piece found, the device's distance read, and ours
/// within 3 % of it (a wrong piece, or a lost stroke, is 2-5 strokes: 5-10 % of 500 m).
final class OpenGoalsEvaluationTests: XCTestCase {
    func testEveryDevicePieceFromRestIsFoundAndReadsWithinThreePercentOfTheDevice() throws {
        let rows = Evaluation.deviceStandingStarts(dataDirectory: EvaluationTests.dataDirectory)
        // SpeedCoach v1.27: its start; the interval file: its start and four rests; NK: its start
        // and the two rests of 20 s or more.
        XCTAssertEqual(rows.count, 1 + 5 + 3, rows.map(\.dataset).joined(separator: "\n"))
        XCTAssertEqual(rows.filter { $0.dataset.hasSuffix("from the session's start") }.count, 3)
        for row in rows {
            let device = try XCTUnwrap(Double(row.expected.replacingOccurrences(of: " m (device)", with: "")), row.dataset)
            let ours = try XCTUnwrap(Double(row.found.replacingOccurrences(of: " m", with: "")), row.dataset)
            // A piece is 500 m of the device's, or the rest of its interval (the fifth is 250 m).
            XCTAssertTrue((240...520).contains(device), "\(row.dataset): the device's \(device) m")
            XCTAssertLessThanOrEqual(abs(ours / device - 1), 0.03, "\(row.dataset): ours \(ours) m, the device's \(device) m")
        }
    }

    /// The SpeedCoach interval file's pieces from rest are registered: each within 0.5 % of the
    /// device, in `oarlog evaluate` (its five 60 s intervals spliced back to back).
    func testTheIntervalFilesPiecesAreRegisteredAndEachWithinHalfAPercent() {
        let rows = Evaluation.distance(dataDirectory: EvaluationTests.dataDirectory).filter { $0.dataset.contains("5 intervals") }
        XCTAssertEqual(rows.count, 5, rows.map(\.dataset).joined(separator: "\n"))
        for row in rows { XCTAssertTrue(row.passed, "\(row.dataset): \(row.found) against \(row.expected), \(row.error)") }
    }
}
