import Foundation
import OarlogCore
import OarlogSimulator
@testable import OarlogSession
import OarlogTestSupport
import XCTest

/// A 10-hour session (simulated 100 Hz accelerometer + 1 Hz GPS) records and plays back with flat
/// memory; the file size per hour is measured.
final class SessionLongSessionTests: XCTestCase {
    func testTenHourSessionRecordsAndPlaysBackWithFlatMemory() throws {
        let directory = try makeTemporaryDirectory("oarlog-long")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/ten-hours.oarlog"
        var config = SimulationConfiguration(duration: 10 * 3600, profile: SimulationProfile(
            name: "steady", segments: [.rowing(10 * 3600, rate: 20, power: 0.6)], flyingStart: true))
        config.seed = 5
        var sim = try BoatSimulator(configuration: config, truthRetention: .recent(4))
        let writer = try SessionWriter(path: path, metadata: testMetadata(title: "Ten hours"), options: .init(durability: .syncAtClose))
        var samples = 0, fixes = 0
        var residentAtOneHour = 0, sizeAtOneHour = 0
        var checksum: UInt64 = 0
        while let r = try sim.next() {
            try writer.append(r)
            switch r {
            case .accel(let a):
                samples += 1
                checksum = checksum &* 31 &+ UInt64(a.x.bitPattern) &+ a.time.bitPattern
                if samples == 360_000 {
                    residentAtOneHour = ProcessMemory.residentBytes()
                    sizeAtOneHour = writer.bytesWritten
                }
            case .fix: fixes += 1
            default: break
            }
        }
        let residentAtEnd = ProcessMemory.residentBytes()
        try writer.close()
        XCTAssertEqual(samples, 3_600_000)
        let size = writer.bytesWritten
        let perHour = Double(size) / 10
        print("10 h session: \(samples) accelerometer samples, \(fixes) fixes, \(size) bytes = \(perHour / 1e6) MB per hour "
            + "(first hour \(Double(sizeAtOneHour) / 1e6) MB); writer RSS \(residentAtOneHour / 1_000_000) MB at 1 h, \(residentAtEnd / 1_000_000) MB at 10 h")
        XCTAssertLessThan(residentAtEnd - residentAtOneHour, 4_000_000, "recording memory grew")
        XCTAssertEqual(perHour, 4.83e6, accuracy: 0.1e6)  // 360,000 × 12.63 B + 3,600 fixes × ~95 B

        let reader = try SessionReader(path: path)
        XCTAssertTrue(reader.isComplete)
        XCTAssertLessThanOrEqual(reader.chunkIndex?.count ?? .max, 4096)
        var source = reader.records()
        var readSamples = 0, readFixes = 0
        var readChecksum: UInt64 = 0
        var residentAfterOneHour = 0
        while let r = try source.next() {
            switch r {
            case .accel(let a):
                readSamples += 1
                readChecksum = readChecksum &* 31 &+ UInt64(a.x.bitPattern) &+ a.time.bitPattern
                if readSamples == 360_000 { residentAfterOneHour = ProcessMemory.residentBytes() }
            case .fix: readFixes += 1
            default: break
            }
        }
        let residentAfterTen = ProcessMemory.residentBytes()
        print("10 h playback: reader RSS \(residentAfterOneHour / 1_000_000) MB after 1 h, \(residentAfterTen / 1_000_000) MB after 10 h")
        XCTAssertEqual(readSamples, samples)
        XCTAssertEqual(readFixes, fixes)
        XCTAssertEqual(readChecksum, checksum)
        XCTAssertLessThan(residentAfterTen - residentAfterOneHour, 4_000_000, "playback memory grew")
        // Seeking into the ninth hour lands within one index stride of chunks.
        var late = reader.records(from: 9 * 3600 + 0.5)
        let first = try XCTUnwrap(try late.next())
        XCTAssertEqual(first.time ?? 0, 9 * 3600 + 0.5, accuracy: 0.011)
    }
}
