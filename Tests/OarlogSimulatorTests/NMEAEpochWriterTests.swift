import OarlogCore
import OarlogSimulator
import XCTest

/// The NMEA a simulated u-blox sends, against sentences written out by hand (checksums from an
/// independent XOR over the body).
final class NMEAEpochWriterTests: XCTestCase {
    func testChecksumOfAPublishedSentence() {
        // The GGA example printed in many NMEA references, with its checksum 76.
        XCTAssertEqual(NMEAEpochWriter.framed("GPGGA,092750.000,5321.6802,N,00630.3372,W,1,8,1.03,61.7,M,55.2,M,,"),
                       "$GPGGA,092750.000,5321.6802,N,00630.3372,W,1,8,1.03,61.7,M,55.2,M,,*76")
    }

    func testOneEpochAtATenthOfASecond() {
        // 51.4873° = 51° 29.238'; 0.2241° W = 0° 13.446'; 4 kn = 4 × 1852 / 3600 m/s.
        let fix = GPSFix(time: 0.1, utc: UTCTime.epochSeconds(year: 2026, month: 5, day: 2, hour: 7) + 0.1,
                         latitude: 51.4873, longitude: -0.2241, speed: 4 * 1852 / 3600, course: 92.5,
                         horizontalAccuracy: 3, altitude: 5.1, mode: .threeD, satellitesUsed: 9)
        XCTAssertEqual(NMEAEpochWriter.sentences(for: fix), [
            "$GNRMC,070000.10,A,5129.23800,N,00013.44600,W,4.000,92.50,020526,,,A*5F",
            "$GNGGA,070000.10,5129.23800,N,00013.44600,W,1,09,0.80,5.1,M,47.0,M,,*52",
        ])
    }

    func testSouthEastEndOfYearWithoutSpeed() {
        let fix = GPSFix(time: 0, utc: UTCTime.epochSeconds(year: 2026, month: 12, day: 31, hour: 23, minute: 59, second: 59.99),
                         latitude: -(33 + 59.99999 / 60), longitude: 151 + 0.000001 / 60, mode: .threeD)
        XCTAssertEqual(NMEAEpochWriter.sentences(for: fix).first, "$GNRMC,235959.99,A,3359.99999,S,15100.00000,E,,,311226,,,A*59")
    }

    func testMinutesThatRoundUpToSixtyCarryIntoTheDegree() {
        let fix = GPSFix(time: 0, utc: 0, latitude: 10 + 59.9999996 / 60, longitude: 0, mode: .threeD)
        let rmc = NMEAEpochWriter.sentences(for: fix).first ?? ""
        XCTAssertTrue(rmc.hasPrefix("$GNRMC,000000.00,A,1100.00000,N,00000.00000,E,"), rmc)
    }

    func testAFixWithoutTimeGivesNoEpoch() {
        XCTAssertEqual(NMEAEpochWriter.sentences(for: GPSFix(time: 3, latitude: 51, longitude: 0)), [])
    }

    func testALogAtTenHertzHasEveryFixTwiceAndTheTruthGrows() throws {
        var configuration = SimulationConfiguration(minutes: 0.5, rate: 24)
        configuration.gpsRate = 10
        configuration.accelRate = 10
        configuration.gpsDropoutsPerHour = 0
        let log = try SimulatedNMEALog(configuration: configuration)
        XCTAssertEqual(log.fixes.count, 300, "30 s at 10 Hz, no outage")
        XCTAssertEqual(log.lines.count, 600)
        // Times step by exactly one tenth (centiseconds 0, 10, 20, …).
        let times = log.lines.enumerated().filter { $0.offset % 2 == 0 }.map { $0.element.split(separator: ",")[1] }
        XCTAssertEqual(times[0], "070000.00")
        XCTAssertEqual(times[1], "070000.10")
        XCTAssertEqual(times[299], "070029.90")
        // A flying start at 24 spm: about 4 m/s, the truth's distance over 29.9 s.
        XCTAssertEqual(log.trueDistance / 29.9, 4, accuracy: 0.8)
        XCTAssertEqual(zip(log.trueDistances, log.trueDistances.dropFirst()).filter { $1 < $0 }.count, 0, "never backward")
    }
}
