import OarlogCore
import OarlogEvaluation
import XCTest

/// The evaluation's 10 Hz receiver rows, on the 1 km outing: every fix used on every seed, the
/// distance within the row's tolerance of the truth.
final class TenHertzEvaluationTests: XCTestCase {
    func testOneKilometreOutingAtTenHertzUsesEveryFixWithinTolerance() throws {
        let outing = Evaluation.distanceOutings[0]
        let runs = try Evaluation.tenHertzRuns(profile: outing.profile, course: outing.course)
        XCTAssertEqual(runs.count, Evaluation.distanceSeeds.count)
        for (seed, run) in zip(Evaluation.distanceSeeds, runs) {
            // 295 s at 10 Hz, less any outage the seed draws (3–20 s each).
            XCTAssertGreaterThan(run.fixesGiven, 2_500, "seed \(seed)")
            XCTAssertEqual(run.fixesUsed, run.fixesGiven, "seed \(seed): every fix used")
            XCTAssertEqual(run.distanceError, 0, accuracy: Evaluation.tenHertzDistanceTolerance, "seed \(seed)")
        }
    }
}
