#if canImport(Glibc)
import Glibc
#endif
import Foundation
import OarlogCore
import OarlogHeartRate
import OarlogTestSupport
import XCTest

/// Eight straps at once and hostile straps, against the org.bluez stand-in (BlueZ 5.66's API).
final class StrapLoadTests: XCTestCase {
    private static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// Ten minutes at 1 Hz is 600 notifications a strap. To keep CI short they are sent at 100 Hz
    /// (6 s), so the flood limit is raised to 200 a second for this test (it is 20 in use): every
    /// one of the 4,800 must arrive, in order, under its seat.
    func testEightStrapsSixHundredNotificationsEachNoneLost() throws {
        let bluez = try BlueZStandin()
        defer { bluez.stop() }
        let seats = ["bow", "2", "3", "4", "5", "6", "7", "stroke"]
        for i in 0..<8 { bluez.send("add \(LiveStrapTests.address(i)) HRM-\(i)") }
        var configuration = HeartRateStrapConfiguration(
            straps: seats.enumerated().map { StrapAssignment(seat: $1, address: LiveStrapTests.address($0)) }, busAddress: bluez.busAddress)
        configuration.notificationsPerSecondLimit = 200
        let source = HeartRateStrapSource(configuration: configuration)
        source.start()
        defer { source.stop() }
        try bluez.waitFor("notify ", count: 8, timeout: 20)
        let cpuBefore = Self.cpuSeconds()
        let readerBefore = source.readerCPUSeconds
        let started = Date()
        for i in 0..<8 { bluez.send("stream \(LiveStrapTests.address(i)) 600 100 \(["8", "16", "rr"][i % 3])") }
        var records: [TraceRecord] = []
        records.reserveCapacity(4800)
        LiveStrapTests.collect(source, into: &records, timeout: 40) { $0.count >= 4800 }
        let elapsed = Date().timeIntervalSince(started)
        let cpu = Self.cpuSeconds() - cpuBefore
        let readerCPU = source.readerCPUSeconds - readerBefore
        for seat in seats {
            XCTAssertEqual(LiveStrapTests.rates(records, seat: seat), (0..<600).map(LiveStrapTests.expectedBPM), "seat \(seat)")
        }
        XCTAssertEqual(LiveStrapTests.gaps(records), [])
        let stats = source.statistics
        XCTAssertEqual(stats.map(\.notifications), Array(repeating: 600, count: 8))
        XCTAssertEqual(stats.map(\.flooded), Array(repeating: 0, count: 8))
        print("eight straps: 4800 notifications in \(String(format: "%.2f", elapsed)) s "
              + "(\(Int(4800 / elapsed)) a second), this process's CPU \(String(format: "%.2f", cpu)) s "
              + "(the strap reader's thread \(String(format: "%.3f", readerCPU)) s: \(String(format: "%.0f", readerCPU / 4800 * 1e6)) µs a notification)")
    }

    /// Malformed notifications, 0 and 300 bpm, and a strap sending 1,000 a second: each counted
    /// and skipped; the good ones around them still arrive; nothing grows.
    func testBadNotificationsAndAFloodAreCountedAndSkipped() throws {
        let bluez = try BlueZStandin()
        defer { bluez.stop() }
        let strap = LiveStrapTests.address(5)
        bluez.send("add \(strap) Flooder")
        let configuration = HeartRateStrapConfiguration(straps: [StrapAssignment(seat: "cox", address: strap)], busAddress: bluez.busAddress)
        XCTAssertEqual(configuration.notificationsPerSecondLimit, 20)
        let source = HeartRateStrapSource(configuration: configuration)
        source.start()
        defer { source.stop() }
        try bluez.waitFor("notify \(strap)")
        // Flags only; 16-bit flag with one byte; a byte too many; half an RR interval; 0 bpm;
        // 300 bpm (16-bit 0x012C); then one good 8-bit 99 bpm.
        let bad = ["06", "0150", "064801", "1048000401", "0600", "012c01"]
        for hex in bad { bluez.send("raw \(strap) \(hex)") }
        bluez.send("raw \(strap) 0663")
        try bluez.waitFor("raw \(strap) sent", count: 7)
        var records: [TraceRecord] = []
        LiveStrapTests.collect(source, into: &records, timeout: 5) { !LiveStrapTests.rates($0, seat: "cox").isEmpty }
        XCTAssertEqual(LiveStrapTests.rates(records, seat: "cox"), [99])
        var stats = try XCTUnwrap(source.statistics.first)
        XCTAssertEqual(stats.rejected, 6)
        XCTAssertEqual(stats.lastRejection, "heart rate of 300 bpm is not believable")

        // 2,000 notifications at 1,000 a second: at most 20 in any one-second window pass.
        Thread.sleep(forTimeInterval: 1.1)
        let memoryBefore = ProcessMemory.residentBytes()
        let started = Date()
        bluez.send("stream \(strap) 2000 1000 8")
        try bluez.waitFor("streamed \(strap)", timeout: 20)
        let streamed = Int(bluez.lines(startingWith: "streamed \(strap)").first?.split(separator: " ").last ?? "") ?? 0
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, (source.statistics.first?.notifications ?? 0) < 7 + streamed { usleep(20_000) }
        let elapsed = Date().timeIntervalSince(started)
        LiveStrapTests.collect(source, into: &records, timeout: 0.5) { _ in false }
        stats = try XCTUnwrap(source.statistics.first)
        XCTAssertEqual(streamed, 2000)
        XCTAssertEqual(stats.notifications, 7 + 2000, "every notification was read off the bus")
        let passed = LiveStrapTests.rates(records, seat: "cox").count - 1
        XCTAssertEqual(stats.flooded + passed, 2000)
        // The stream lasts about 2 s: three one-second windows at most.
        XCTAssertLessThanOrEqual(passed, 20 * Int(elapsed.rounded(.up) + 1))
        XCTAssertGreaterThanOrEqual(passed, 20)
        // The values that passed are the stream's, in order (its first 20: 40…59 bpm).
        XCTAssertEqual(Array(LiveStrapTests.rates(records, seat: "cox").dropFirst().prefix(20)), (0..<20).map(LiveStrapTests.expectedBPM))
        let grown = ProcessMemory.residentBytes() - memoryBefore
        XCTAssertLessThan(grown, 16 << 20, "resident memory grew by \(grown) bytes during the flood")
        print("flood: 2000 notifications in \(String(format: "%.2f", elapsed)) s, \(passed) passed, \(stats.flooded) skipped, RSS +\(grown / 1024) KiB")
    }
}
