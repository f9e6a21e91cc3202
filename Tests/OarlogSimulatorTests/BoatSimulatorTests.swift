import OarlogCore
@testable import OarlogSimulator
import XCTest

final class BoatSimulatorTests: XCTestCase {
    func testSameSeedGivesTheSameSessionAndAnotherSeedDoesNot() throws {
        var configuration = SimulationConfiguration(minutes: 1, rate: 26)
        configuration.seed = 7
        let first = try simulate(configuration, keepBoatFrames: false)
        let second = try simulate(configuration, keepBoatFrames: false)
        XCTAssertEqual(first.accel, second.accel)
        XCTAssertEqual(first.fixes, second.fixes)
        XCTAssertEqual(first.truth.strokes, second.truth.strokes)
        configuration.seed = 8
        let other = try simulate(configuration, keepBoatFrames: false)
        XCTAssertNotEqual(first.accel, other.accel)
        XCTAssertNotEqual(first.truth.strokes.map(\.catchTime), other.truth.strokes.map(\.catchTime))
    }

    func testTruthDoesNotDependOnSensorRates() throws {
        var slow = SimulationConfiguration(minutes: 1, rate: 30)
        slow.accelRate = 25
        slow.gpsRate = 1
        var fast = slow
        fast.accelRate = 1000
        fast.gpsRate = 10
        let a = try simulate(slow, keepBoatFrames: false).truth
        let b = try simulate(fast, keepBoatFrames: false).truth
        XCTAssertEqual(a.strokes, b.strokes)
        XCTAssertEqual(a.distance, b.distance, accuracy: 1e-9)
    }

    func testTimestampsAreExactMultiplesOfThePeriods() throws {
        var configuration = SimulationConfiguration(minutes: 0.5, rate: 24)
        configuration.accelRate = 52
        configuration.gpsRate = 5
        configuration.gpsDropoutsPerHour = 0
        let session = try simulate(configuration, keepBoatFrames: false)
        XCTAssertEqual(session.accel.count, 52 * 30)
        for (k, sample) in session.accel.enumerated() { XCTAssertEqual(sample.time, Double(k) / 52) }
        XCTAssertEqual(session.fixes.count, 5 * 30)
        for (j, fix) in session.fixes.enumerated() { XCTAssertEqual(fix.time, Double(j) / 5) }
        XCTAssertEqual(session.metadata.first?.key, "start_utc")
        XCTAssertEqual(session.metadata.first?.value, "2026-05-02T07:00:00.000Z")
    }

    func testStrokeCountIsDurationTimesRate() throws {
        for (minutes, rate, seed) in [(10.0, 24.0, UInt64(1)), (5, 18, 2), (5, 36, 3), (3, 44, 4)] {
            var configuration = SimulationConfiguration(minutes: minutes, rate: rate)
            configuration.seed = seed
            configuration.accelRate = 25
            let truth = try simulate(configuration, keepBoatFrames: false).truth
            let expected = minutes * rate
            XCTAssertEqual(Double(truth.strokeCount), expected, accuracy: 1, "\(rate) spm for \(minutes) min")
            XCTAssertEqual(truth.strokes.count, truth.strokeCount)
            let rates = truth.strokes.compactMap(\.strokeRate)
            XCTAssertEqual(rates.count, truth.strokeCount - 1)
            XCTAssertEqual(mean(rates), rate, accuracy: rate * 0.01)
            // Period jitter: a few per cent, not zero.
            let spread = (rates.map { ($0 - rate) * ($0 - rate) }.reduce(0, +) / Double(rates.count)).squareRoot() / rate
            XCTAssertGreaterThan(spread, 0.01)
            XCTAssertLessThan(spread, 0.05)
        }
    }

    func testDriveShrinksLessThanRecoveryAsRateRises() throws {
        var low = SimulationConfiguration(minutes: 2, rate: 20)
        low.accelRate = 25
        var high = SimulationConfiguration(minutes: 2, rate: 38)
        high.accelRate = 25
        let lowTruth = try simulate(low, keepBoatFrames: false).truth.strokes.dropLast()
        let highTruth = try simulate(high, keepBoatFrames: false).truth.strokes.dropLast()
        let lowDrive = mean(lowTruth.map(\.driveDuration)), highDrive = mean(highTruth.map(\.driveDuration))
        let lowRecovery = mean(lowTruth.compactMap(\.recoveryDuration))
        let highRecovery = mean(highTruth.compactMap(\.recoveryDuration))
        XCTAssertEqual(lowDrive, 0.95, accuracy: 0.07)
        XCTAssertEqual(highDrive, 0.75, accuracy: 0.07)
        XCTAssertGreaterThan(lowRecovery - highRecovery, 2 * (lowDrive - highDrive))
        XCTAssertEqual(lowDrive + lowRecovery, 3.0, accuracy: 0.03)
        XCTAssertEqual(highDrive + highRecovery, 60 / 38, accuracy: 0.03)
    }

    func testMeanSpeedRisesWithRate() throws {
        var previous = 0.0
        for rate in [18.0, 24.0, 32.0, 40.0] {
            var configuration = noiseFree(SimulationConfiguration(minutes: 3, rate: rate))
            configuration.accelRate = 25
            let session = try simulate(configuration)
            // Mean over the last two minutes (whole session from a flying start is close too).
            let late = session.boatFrames.filter { $0.time >= 60 }
            let meanSpeed = (late.last!.distance - late.first!.distance) / (late.last!.time - late.first!.time)
            let expected = 3.5 + 2.0 * (rate - 18) / 22
            XCTAssertEqual(meanSpeed, expected, accuracy: 0.03 * expected, "\(rate) spm")
            XCTAssertGreaterThan(meanSpeed, previous + 0.3)
            previous = meanSpeed
            XCTAssertEqual(session.truth.distance / 180, expected, accuracy: 0.04 * expected)
        }
    }

    func testDistanceIsTheIntegralOfSpeedAndSpeedTheIntegralOfSurge() throws {
        var configuration = noiseFree(SimulationConfiguration(minutes: 2, rate: 28))
        configuration.accelRate = 1000
        let session = try simulate(configuration)
        let frames = session.boatFrames
        var distance = 0.0
        var speedChange = 0.0
        for i in 1..<frames.count {
            let dt = frames[i].time - frames[i - 1].time
            distance += dt * (frames[i].speed + frames[i - 1].speed) / 2
            speedChange += dt * (frames[i].surge + frames[i - 1].surge) / 2
        }
        let trueDistance = frames.last!.distance - frames.first!.distance
        XCTAssertEqual(distance, trueDistance, accuracy: trueDistance * 1e-4)
        XCTAssertEqual(speedChange, frames.last!.speed - frames.first!.speed, accuracy: 0.01)
        // The truth's total is the distance at the end of the session.
        XCTAssertEqual(session.truth.distance, frames.last!.distance, accuracy: 0.01)
        XCTAssertTrue(session.truth.isComplete)
        // Distances at the catches increase and match the boat's distance at that time.
        for stroke in session.truth.strokes {
            let k = Int((stroke.catchTime * 1000).rounded(.down))
            XCTAssertEqual(stroke.distance, frames[k].distance, accuracy: 0.006)
        }
    }
}
