import Foundation
import OarlogCore
import OarlogHeartRate
import OarlogLive
import OarlogTestSupport
import Synchronization
import XCTest

/// The live straps against a stand-in of org.bluez (BlueZ 5.66's documented API) on a private
/// dbus-daemon: discovery, connect, notifications as the strap sent them, a strap vanishing and
/// coming back, eight at once. The stand-in's k-th notification (k = 0…) carries 40 + k % 200
/// bpm (see Tests/Standins/bluez_standin.py), which is the ground truth here.
final class LiveStrapTests: XCTestCase {
    static func address(_ n: Int) -> String { "C0:FF:EE:00:00:0\(n)" }
    static func expectedBPM(_ k: Int) -> Double { Double(40 + k % 200) }

    /// Records taken from the source until `done` says so (or `timeout` s pass).
    static func collect(_ source: HeartRateStrapSource, into records: inout [TraceRecord], timeout: Double,
                        until done: ([TraceRecord]) -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline, !done(records) {
            if let record = source.next(timeout: 0.1) { records.append(record) }
        }
    }

    static func rates(_ records: [TraceRecord], seat: String) -> [Double] {
        records.compactMap { if case .heartRate(let h) = $0, h.sensor == seat { return h.bpm } else { return nil } }
    }

    static func gaps(_ records: [TraceRecord]) -> [Gap] {
        records.compactMap { if case .gap(let g) = $0 { return g } else { return nil } }
    }

    func testDiscoveryConnectAndTheThreeFormatsArriveAsSent() throws {
        let bluez = try BlueZStandin()
        defer { bluez.stop() }
        let formats = ["stroke": "8", "bow": "16", "3": "rr"]
        let seats = ["stroke", "bow", "3"]
        for (i, seat) in seats.enumerated() { bluez.send("add \(Self.address(i)) Strap-\(seat)") }
        let tapped = Mutex<[String: [HeartRateMeasurement]]>([:])
        var configuration = HeartRateStrapConfiguration(
            straps: seats.enumerated().map { StrapAssignment(seat: $1, address: Self.address($0)) }, busAddress: bluez.busAddress)
        configuration.measurementTap = { seat, m, _ in tapped.withLock { $0[seat, default: []].append(m) } }
        let source = HeartRateStrapSource(configuration: configuration)
        source.start()
        defer { source.stop() }
        try bluez.waitFor("notify ", count: 3)
        // The client filtered discovery on the Heart Rate service, LE only (Adapter1.SetDiscoveryFilter).
        XCTAssertEqual(bluez.lines(startingWith: "filter ").first, "filter 0000180d-0000-1000-8000-00805f9b34fb le")
        for (i, seat) in seats.enumerated() { bluez.send("stream \(Self.address(i)) 25 10 \(formats[seat]!)") }
        // 10 a second: under the flood limit in use (20 a second).
        var records: [TraceRecord] = []
        Self.collect(source, into: &records, timeout: 15) { r in seats.allSatisfy { Self.rates(r, seat: $0).count >= 25 } }
        for seat in seats {
            XCTAssertEqual(Self.rates(records, seat: seat), (0..<25).map(Self.expectedBPM), seat)
        }
        let measurements = tapped.withLock { $0 }
        XCTAssertEqual(measurements["stroke"]?.allSatisfy { !$0.rateIsSixteenBits && $0.sensorContact == .detected }, true)
        XCTAssertEqual(measurements["bow"]?.allSatisfy { $0.rateIsSixteenBits }, true)
        // rr: energy k kJ, RR intervals 500 + k % 500 and 1000 + k % 24 (1/1024 s).
        let expectedRR: [[UInt16]] = (0..<25).map { (k: Int) -> [UInt16] in [UInt16(500 + k % 500), UInt16(1000 + k % 24)] }
        let expectedEnergy: [Int?] = (0..<25).map { (k: Int) -> Int? in k }
        XCTAssertEqual(measurements["3"]?.map(\.rrIntervals_1024ths), expectedRR)
        XCTAssertEqual(measurements["3"]?.map(\.energyExpended_kJ), expectedEnergy)
        let stats = source.statistics
        XCTAssertEqual(stats.map(\.connections), [1, 1, 1])
        XCTAssertEqual(stats.map(\.name), ["Strap-stroke", "Strap-bow", "Strap-3"])
        XCTAssertEqual(Self.gaps(records), [])
    }

    func testAStrapVanishingAndComingBackIsReconnectedAndTheGapRecorded() throws {
        let bluez = try BlueZStandin()
        defer { bluez.stop() }
        let strap = Self.address(1)
        bluez.send("add \(strap) Polar-H10")
        var configuration = HeartRateStrapConfiguration(straps: [StrapAssignment(seat: "stroke", address: strap)], busAddress: bluez.busAddress)
        configuration.initialRetryDelay = 0.1
        configuration.maximumRetryDelay = 0.4
        let source = HeartRateStrapSource(configuration: configuration)
        source.start()
        defer { source.stop() }
        try bluez.waitFor("notify \(strap)")
        bluez.send("stream \(strap) 10 10 8")
        var records: [TraceRecord] = []
        Self.collect(source, into: &records, timeout: 10) { Self.rates($0, seat: "stroke").count >= 10 }
        bluez.send("vanish \(strap)")
        try bluez.waitFor("vanished \(strap)")
        Thread.sleep(forTimeInterval: 1.0)
        XCTAssertEqual(source.statistics.first?.connected, false)
        bluez.send("comeback \(strap)")
        try bluez.waitFor("notify \(strap)", count: 2)
        bluez.send("stream \(strap) 10 10 16")
        Self.collect(source, into: &records, timeout: 10) { Self.rates($0, seat: "stroke").count >= 20 }
        XCTAssertEqual(Self.rates(records, seat: "stroke"), (0..<10).map(Self.expectedBPM) + (0..<10).map(Self.expectedBPM))
        let gaps = Self.gaps(records)
        XCTAssertEqual(gaps.count, 1)
        guard let gap = gaps.first, let gapIndex = records.firstIndex(of: .gap(gap)) else { return }
        // The gap runs from the last heart rate before it to the first after, and comes just before that one.
        guard case .heartRate(let before) = records[gapIndex - 1], case .heartRate(let after) = records[gapIndex + 1] else {
            return XCTFail("the gap is not between two heart rates: \(records[gapIndex - 1]) \(records[gapIndex + 1])")
        }
        XCTAssertEqual(gap.sensor, .heartRate)
        XCTAssertEqual(gap.start, before.time)
        XCTAssertEqual(gap.end, after.time)
        XCTAssertGreaterThan(gap.duration, 1.0, "the strap was away for over a second")
        XCTAssertTrue(gap.reason.contains("stroke") && gap.reason.contains(strap), gap.reason)
        let stats = try XCTUnwrap(source.statistics.first)
        XCTAssertEqual(stats.connections, 2)
        XCTAssertEqual(stats.drops, 1)
        XCTAssertEqual(stats.gaps, 1)
    }

    func testASilentStrapIsDisconnectedAndConnectedAgain() throws {
        let bluez = try BlueZStandin()
        defer { bluez.stop() }
        let strap = Self.address(2)
        bluez.send("add \(strap) Wahoo")
        // The silence limit is 5 s in use; 1 s here to keep the test short.
        var configuration = HeartRateStrapConfiguration(straps: [StrapAssignment(seat: "bow", address: strap)], busAddress: bluez.busAddress)
        configuration.silenceTimeout = 1
        configuration.initialRetryDelay = 0.1
        let source = HeartRateStrapSource(configuration: configuration)
        source.start()
        defer { source.stop() }
        try bluez.waitFor("notify \(strap)")
        bluez.send("stream \(strap) 5 10 8")
        var records: [TraceRecord] = []
        Self.collect(source, into: &records, timeout: 10) { Self.rates($0, seat: "bow").count >= 5 }
        // Nothing more for over a second: the client disconnects it (Device1.Disconnect) and connects again.
        try bluez.waitFor("disconnect \(strap)", timeout: 10)
        try bluez.waitFor("notify \(strap)", count: 2)
        bluez.send("stream \(strap) 5 10 8")
        Self.collect(source, into: &records, timeout: 10) { Self.rates($0, seat: "bow").count >= 10 }
        let gaps = Self.gaps(records)
        XCTAssertEqual(gaps.count, 1)
        XCTAssertTrue(gaps.first?.reason.contains("silent for 1 s") == true, gaps.first?.reason ?? "no gap")
        XCTAssertEqual(source.statistics.first?.connections, 2)
    }

    func testBluetoothdRestartingDropsTheStrapsUntilItIsBack() throws {
        let bluez = try BlueZStandin()
        defer { bluez.stop() }
        let strap = Self.address(3)
        bluez.send("add \(strap) Polar-Verity")
        var configuration = HeartRateStrapConfiguration(straps: [StrapAssignment(seat: "7", address: strap)], busAddress: bluez.busAddress)
        configuration.initialRetryDelay = 0.1
        let source = HeartRateStrapSource(configuration: configuration)
        source.start()
        defer { source.stop() }
        try bluez.waitFor("notify \(strap)")
        bluez.send("stream \(strap) 5 10 8")
        var records: [TraceRecord] = []
        Self.collect(source, into: &records, timeout: 10) { Self.rates($0, seat: "7").count >= 5 }
        try bluez.restart()
        // The new bluetoothd knows no device: the client discovers again and finds the strap.
        bluez.send("add \(strap) Polar-Verity")
        try bluez.waitFor("notify \(strap)", count: 2)
        bluez.send("stream \(strap) 5 10 8")
        Self.collect(source, into: &records, timeout: 10) { Self.rates($0, seat: "7").count >= 10 }
        XCTAssertEqual(Self.rates(records, seat: "7"), (0..<5).map(Self.expectedBPM) + (0..<5).map(Self.expectedBPM))
        let gaps = Self.gaps(records)
        XCTAssertEqual(gaps.count, 1)
        XCTAssertTrue(gaps.first?.reason.contains("bluetoothd left the bus") == true, gaps.first?.reason ?? "no gap")
        XCTAssertEqual(source.statistics.first?.connections, 2)
        XCTAssertEqual(source.busStatistics.opens, 1, "the bus itself stayed up")
    }
}
