import OarlogCore
import OarlogEvaluation
import XCTest
import OarlogTestSupport

/// Real Quiske curves chained into outings with pauses, restarts, light strokes and changes of
/// rate, at 25 Hz to 1.6 kHz and random mountings: every stroke, within 50 ms, none in a pause,
/// each stroke's own rate within 0.3 spm (MAE), no rate for a stroke next to a pause.
final class ChainedCurveEvaluationTests: XCTestCase {
    func testChainedOutingsExactCountsAndRate() throws {
        let rows = Evaluation.chainedCurves(dataDirectory: TestPaths.samples.path)
        // Per outing: strokes, rate, rates next to pauses, drive, recovery.
        XCTAssertEqual(rows.count, 5 * (4 * (Evaluation.chainedPlans.count + Evaluation.ownTimingPlans.count) + 2))
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
        // Each stroke's own rate: none for the stroke the pause cuts, nor the last.
        XCTAssertEqual(truth.rates.map { $0.map { ($0 * 10).rounded() / 10 } }, [20, 20, 20, nil, 30, 35, nil])
        XCTAssertEqual(truth.firstOfPiece, [true, false, false, false, true, false, false])
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

    /// `rec`: each curve at its own recorded length, in the recording's order, with its own rate.
    func testRecordedTimingIsTheCurvesOwn() throws {
        let curves = try Evaluation.quiskeCurves(dataDirectory: TestPaths.samples.path)
        let truth = Evaluation.chainedSession(curves: curves, plan: "60@rec p5 2@rec", rate: 50, noise: 0, countSize: 0, seed: 8).truth
        XCTAssertEqual(truth.catches.count, 62)
        let periods = zip(truth.catches, truth.catches.dropFirst()).map { $1 - $0 }
        let first = try XCTUnwrap(curves.indices.first { abs(curves[$0].duration - periods[0]) < 1e-9
                                                         && abs(curves[($0 + 1) % curves.count].duration - periods[1]) < 1e-9 })
        for k in 0..<59 {
            XCTAssertEqual(periods[k], curves[(first + k) % curves.count].duration, accuracy: 1e-9, "stroke \(k)")
            XCTAssertEqual(truth.rates[k] ?? 0, 60 / periods[k], accuracy: 1e-9)
        }
        XCTAssertEqual(periods[59], 5, accuracy: 1e-9)
        XCTAssertNil(truth.rates[59])
        XCTAssertTrue(truth.firstOfPiece[60])
        XCTAssertEqual(truth.rates[60] ?? 0, 60 / periods[60], accuracy: 1e-9)
    }
}
