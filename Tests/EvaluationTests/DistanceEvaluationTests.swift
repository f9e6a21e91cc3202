import OarlogEvaluation
import XCTest
import OarlogTestSupport

/// Distance from GPS as a rowing device measures it (issue 13): simulated outings with a realistic
/// receiver error, with and without its Doppler speed, over several seeds; device exports with
/// position glitches injected. Each test prints its rows of the `oarlog evaluate` table.
final class DistanceEvaluationTests: XCTestCase {
    func testSimulatedOutingsWithinHalfAPercentOnPositionsAndThreeTenthsWithDopplerSpeed() throws {
        for outing in Evaluation.distanceOutings {
            let positionsOnly = try Evaluation.simulatedDistanceErrors(profile: outing.profile, course: outing.course, speed: false)
            let doppler = try Evaluation.simulatedDistanceErrors(profile: outing.profile, course: outing.course, speed: true)
            XCTAssertEqual(positionsOnly.count, Evaluation.distanceSeeds.count)
            for (seed, e) in zip(Evaluation.distanceSeeds, positionsOnly) {
                XCTAssertLessThanOrEqual(abs(e), 0.005, "\(outing.name), positions only, seed \(seed): \(e * 100) %")
            }
            for (seed, e) in zip(Evaluation.distanceSeeds, doppler) {
                XCTAssertLessThanOrEqual(abs(e), 0.003, "\(outing.name), Doppler speed, seed \(seed): \(e * 100) %")
            }
            print("\(outing.name): positions only \(positionsOnly.map { $0 * 100 }) %, Doppler \(doppler.map { $0 * 100 }) %")
        }
    }

    func testDeviceExportsWithNinePositionGlitchesWithinHalfAPercentOfTheDevice() {
        let rows = Evaluation.glitchedExports(dataDirectory: EvaluationTests.dataDirectory)
        XCTAssertEqual(rows.count, 2)
        assertWithinTolerance(rows)
    }

    func testNKLogbookOnWGS84ReadsLongerThanTheSphericalDevice() {
        assertWithinTolerance(Evaluation.nkLogbookOnWGS84(dataDirectory: EvaluationTests.dataDirectory))
    }

    func testTheGlitchesAreThereAndLarge() throws {
        // The injected export differs from the original at exactly nine fixes, each 35–225 m away.
        let moved = try Evaluation.glitchDisplacements(path: EvaluationTests.dataDirectory + "/rowingdata/nk_logbook.csv")
        XCTAssertEqual(moved.count, 9)
        for d in moved { XCTAssertTrue((35...225).contains(d), "\(d) m") }
    }

    /// Issue 29: 500 m from rest after 20 s still, with Doppler speed, within 0.5 % on every seed
    /// (the one standing-start row in `oarlog evaluate`; the positions-only one reads within the
    /// receiver's wander, −0.61 % worst, and stays out).
    func testSimulatedStandingStartWithDopplerWithinHalfAPercent() {
        assertWithinTolerance([Evaluation.simulatedStandingStart(speed: true)])
    }
}
