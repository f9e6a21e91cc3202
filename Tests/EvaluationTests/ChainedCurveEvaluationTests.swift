import OarlogCore
import OarlogEvaluation
import XCTest
import OarlogTestSupport

/// Real Quiske curves chained into outings with pauses, restarts, light strokes and changes of
/// rate, at 25 Hz to 1.6 kHz and random mountings: every stroke, within 50 ms, none in a pause,
/// the rate within 0.3 spm (MAE).
final class ChainedCurveEvaluationTests: XCTestCase {
    func testChainedOutingsExactCountsAndRate() throws {
        let rows = Evaluation.chainedCurves(dataDirectory: TestPaths.samples.path)
        XCTAssertEqual(rows.count, 4 * (4 * Evaluation.chainedPlans.count + 2))
        assertWithinTolerance(rows)
    }

    /// The display counts each stroke within 150 ms of its catch (median), none withdrawn.
    func testDisplayShowsTheStrokeAtItsCatch() throws {
        let rows = Evaluation.displayLatency(dataDirectory: TestPaths.samples.path)
        XCTAssertEqual(rows.count, 5)
        assertWithinTolerance(rows)
    }

    /// The session's truth is what the plan says: catches a period apart within a piece, the
    /// pauses as long as asked, the samples at the sensor's rate with gravity on the mounting's axes.
    func testTheChainedSessionFollowsItsPlan() throws {
        let curves = try Evaluation.quiskeCurves(dataDirectory: TestPaths.samples.path)
        var session = Evaluation.chainedSession(curves: curves, plan: "4@20 p30 3@30-40", rate: 50, noise: 0, countSize: 0, seed: 3)
        let truth = session.truth
        XCTAssertEqual(truth.catches.count, 7)
        XCTAssertEqual(truth.catches[0], ChainedCurveSession.stillAtStart, accuracy: 1e-9)
        XCTAssertEqual(truth.catches[1] - truth.catches[0], 3, accuracy: 1e-9)
        XCTAssertEqual(truth.catches[4] - truth.catches[3], 30, accuracy: 1e-9, "the pause runs from the last catch to the next")
        XCTAssertEqual(truth.rates.map { $0.map { ($0 * 10).rounded() / 10 } }, [nil, 20, 20, 20, nil, 30, 35])
        XCTAssertEqual(truth.pauses.count, 1)
        var samples = 0
        var gravity = SIMD3<Double>.zero
        while let record = try session.next() {
            guard case .accel(let a) = record else { continue }
            if a.time < 2 { gravity += SIMD3(Double(a.x), Double(a.y), Double(a.z)) }
            samples += 1
        }
        XCTAssertEqual(Double(samples), (session.duration * 50).rounded(.up), accuracy: 1)
        let g = (gravity / 100)
        XCTAssertEqual((g * g).sum().squareRoot(), Double(standardGravity), accuracy: 0.05, "at rest: gravity only")
    }
}
