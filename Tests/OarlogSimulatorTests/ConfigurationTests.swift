import Foundation
import OarlogCore
@testable import OarlogSimulator
import XCTest

final class ConfigurationTests: XCTestCase {
    func testProfileParsing() throws {
        let constant = try SimulationProfile.parse("constant", duration: 600, rate: 22)
        XCTAssertEqual(constant.segments, [.rowing(600, rate: 22)])
        XCTAssertTrue(constant.flyingStart)
        XCTAssertEqual(try SimulationProfile.parse("constant:31", duration: 60).segments, [.rowing(60, rate: 31)])
        XCTAssertEqual(try SimulationProfile.parse("28", duration: 60).segments, [.rowing(60, rate: 28)])
        let custom = try SimulationProfile.parse("5m:18@0.5, 60:rest ,120s:24", duration: 3600)
        XCTAssertEqual(custom.segments, [.rowing(300, rate: 18, power: 0.5), .rest(60), .rowing(120, rate: 24)])
        XCTAssertFalse(custom.flyingStart)
        XCTAssertEqual(try SimulationProfile.parse("300:18,300:20", duration: 400).segments,
                       [.rowing(300, rate: 18), .rowing(100, rate: 20)])
        let workout = try SimulationProfile.parse("workout", duration: 3600)
        XCTAssertEqual(workout.totalDuration, 3600, accuracy: 1e-9)
        XCTAssertEqual(workout.segments.first, .rowing(240, rate: 18, power: 0.4))
        XCTAssertTrue(workout.segments.contains(.rest(60)))
        XCTAssertEqual(try SimulationProfile.parse("ladder", duration: 1200).segments.count, 12)
        for bad in ["fast", "60:5", "60:24@3", "x:24", "constant:abc", "60:rest:2"] {
            XCTAssertThrowsError(try SimulationProfile.parse(bad, duration: 600), bad)
        }
    }

    func testNoiseParsingAndScaling() throws {
        XCTAssertEqual(try SimulationConfiguration.parseNoiseScale("none"), 0)
        XCTAssertEqual(try SimulationConfiguration.parseNoiseScale("high"), 2.5)
        XCTAssertEqual(try SimulationConfiguration.parseNoiseScale("0.3"), 0.3)
        XCTAssertThrowsError(try SimulationConfiguration.parseNoiseScale("-1"))
        XCTAssertThrowsError(try SimulationConfiguration.parseNoiseScale("loud"))
        let doubled = SimulationConfiguration(minutes: 1).withNoise(scale: 2)
        XCTAssertEqual(doubled.accelNoise, 0.1, accuracy: 1e-12)
        XCTAssertEqual(doubled.gpsWander, 3.0, accuracy: 1e-12)
    }

    func testValidationRejectsImpossibleSessions() {
        var configuration = SimulationConfiguration(minutes: 1)
        configuration.accelRate = 0
        XCTAssertThrowsError(try BoatSimulator(configuration: configuration))
        configuration = SimulationConfiguration(minutes: 0)
        XCTAssertThrowsError(try BoatSimulator(configuration: configuration))
        configuration = SimulationConfiguration(minutes: 1)
        configuration.gpsRate = -1
        XCTAssertThrowsError(try BoatSimulator(configuration: configuration))
    }

    func testUTCFormattingAndParsing() {
        let t = UTCTime.epochSeconds(year: 2026, month: 5, day: 2, hour: 7, minute: 14, second: 3.25)
        XCTAssertEqual(t, 1_777_706_043.25)
        XCTAssertEqual(UTCTime.iso8601(t), "2026-05-02T07:14:03.250Z")
        XCTAssertEqual(UTCTime.iso8601(0), "1970-01-01T00:00:00.000Z")
        XCTAssertEqual(UTCTime.iso8601(951_782_400), "2000-02-29T00:00:00.000Z")
        XCTAssertEqual(UTCTime.parseISO8601("2026-05-02T07:14:03.250Z"), t)
        XCTAssertNil(UTCTime.parseISO8601("2026-13-02T07:14:03Z"))
        // The `--start-utc` reader takes the same text, and what a person may type besides.
        XCTAssertEqual(UTCTime.parseTypedUTC("2026-05-02T07:14:03.250Z"), t)
        XCTAssertNil(UTCTime.parseTypedUTC("2026-13-02T07:14:03Z"))
        XCTAssertEqual(UTCTime.parseTypedUTC(" 2026-5-2 07:14 "), t - 3.25)
    }
}

final class CommandLineOptionsTests: XCTestCase {
    func testOptionsBuildTheConfiguration() throws {
        let c = try SimulationConfiguration.fromOptions(
            minutes: 10, rate: 24, accelHz: 200, gpsHz: 5, profile: "workout", mounting: "yaw=30,pitch=-80,roll=10",
            seed: 99, noise: "none", startUTC: "2026-06-01T06:30:00Z", heading: 10, course: "curving", dropoutsPerHour: 0)
        XCTAssertEqual(c.duration, 600)
        XCTAssertEqual(c.profile.name, "workout")
        XCTAssertEqual(c.accelRate, 200)
        XCTAssertEqual(c.gpsRate, 5)
        XCTAssertEqual(c.mounting, Mounting(yaw: 30, pitch: -80, roll: 10))
        XCTAssertEqual(c.seed, 99)
        XCTAssertEqual(c.accelNoise, 0)
        XCTAssertEqual(c.gpsWander, 0)
        XCTAssertEqual(UTCTime.iso8601(c.startUTC), "2026-06-01T06:30:00.000Z")
        XCTAssertEqual(c.course, .curving(amplitude: 25, wavelength: 3000))
        let plain = try SimulationConfiguration.fromOptions(minutes: 2, rate: 30)
        XCTAssertEqual(plain.profile.segments, [.rowing(120, rate: 30)])
        XCTAssertThrowsError(try SimulationConfiguration.fromOptions(minutes: 1, mounting: "sideways"))
        XCTAssertThrowsError(try SimulationConfiguration.fromOptions(minutes: 1, startUTC: "yesterday"))
        XCTAssertThrowsError(try SimulationConfiguration.fromOptions(minutes: 1, accelHz: 0))
        XCTAssertThrowsError(try SimulationConfiguration.fromOptions(minutes: -1))
    }

    func testRunStreamsRecordsAndWritesTheTruth() throws {
        let configuration = try SimulationConfiguration.fromOptions(minutes: 1, rate: 20, accelHz: 25)
        var simulator = try BoatSimulator(configuration: configuration, truthRetention: .recent(2))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-run-\(getpid()).truth.csv").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var accelCount = 0
        let truth = try simulator.run(truthPath: path) { if case .accel = $0 { accelCount += 1 } }
        XCTAssertEqual(accelCount, 25 * 60)
        let file = try GroundTruthFile.read(path: path)
        XCTAssertEqual(file.strokes.count, truth.strokeCount)
        XCTAssertEqual(Double(truth.strokeCount), 20, accuracy: 1)
        XCTAssertEqual(file.strokes.map(\.index), Array(1...truth.strokeCount))
    }
}
