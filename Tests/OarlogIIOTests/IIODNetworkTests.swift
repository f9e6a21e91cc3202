import Foundation
import XCTest
import OarlogCore
import OarlogIIO
import OarlogLive
import OarlogTestSupport

/// libiio's network backend (`ip:127.0.0.1:PORT`) against a real iiod serving the fake tree —
/// how a laptop on the boat's Wi-Fi reads the boat's accelerometer.
final class IIODNetworkTests: XCTestCase {
    /// The same bytes read through `local:` and through iiod give identical samples.
    func testSameBytesThroughIIODGiveTheSameSamples() throws {
        try inFakeSysfs {
            let fake = FakeIIODevice()
            try fake.write()
            try fake.makeFIFO()
            let scans = knownScans(count: 96, format: fake.formats![0])
            let data = bytes(of: scans, device: fake)
            var configuration = IIOAccelerometerConfiguration(uri: "local:", device: .name("mpu6050"), samplingFrequency: 100)
            configuration.bufferSamples = 16

            let localFeeder = FIFOFeeder(path: fake.devicePath, chunks: [(0, data)], holdOpen: 1)
            var local: IIOAccelerometerReader? = try IIOAccelerometerReader(configuration: configuration, clock: testOrigin)
            let viaLocal = try read(local!, count: 96).samples
            local = nil
            localFeeder.wait(timeout: 3)

            let iiod = try IIOD.start()
            defer { iiod.kill() }
            configuration.uri = "ip:127.0.0.1:\(iiod.port)"
            let networkFeeder = FIFOFeeder(path: fake.devicePath, chunks: [(0, data)], holdOpen: 2)
            let remote = try IIOAccelerometerReader(configuration: configuration, clock: testOrigin)
            XCTAssertEqual(remote.setup.device, "mpu6050 (iio:device0)")
            XCTAssertEqual(remote.setup.timing, .deviceTimestamps(clock: "monotonic"))
            XCTAssertEqual(remote.setup.samplingFrequency, 100)
            let got = try read(remote, count: 96)
            // iiod enabled the same channels for us.
            for a in ["x", "y", "z"] { XCTAssertEqual(fake.read("scan_elements/in_accel_\(a)_en"), "1", a) }
            XCTAssertEqual(fake.read("scan_elements/in_anglvel_x_en"), "0")
            XCTAssertEqual(got.gaps, [:])
            assertSamples(got.samples, equal: scans, conversions: remote.setup.conversions)
            XCTAssertEqual(got.samples, viaLocal)
            networkFeeder.wait(timeout: 3)
            note("iiod on port \(iiod.port): \(got.samples.count) samples identical to local:")
        }
    }

    /// iiod killed mid-stream: the source logs it, retries with backoff while iiod is gone, and
    /// once iiod is back reports one gap from the last sample before to the first after.
    func testIIODKilledIsAGapThenTheSourceReconnects() throws {
        try inFakeSysfs {
            let fake = FakeIIODevice()
            try fake.write()
            try fake.makeFIFO()
            let all = knownScans(count: 80, format: fake.formats![0], jumpAt: 40, jump: 3_000_000_000)
            let secondBatch = DispatchSemaphore(value: 0)
            let feeder = FIFOFeeder(path: fake.devicePath, chunks: [
                (0, bytes(of: Array(all[..<40]), device: fake)),
                (0, bytes(of: Array(all[40...]), device: fake)),
            ], gates: [1: secondBatch], holdOpen: 3)
            var iiod = try IIOD.start()
            defer { iiod.kill() }
            var configuration = IIOAccelerometerConfiguration(uri: "ip:127.0.0.1:\(iiod.port)", device: .name("mpu6050"))
            configuration.bufferSamples = 8
            configuration.refillTimeout = 1
            configuration.initialRetryDelay = 0.05
            configuration.maximumRetryDelay = 0.2
            let lines = LogLines()
            let source = IIOAccelerometerSource(configuration: configuration, clock: testOrigin, log: { lines.append($0) })
            source.start()
            var records: [TraceRecord] = []
            func accelCount() -> Int { records.filter { if case .accel = $0 { return true } else { return false } }.count }
            var deadline = Date().addingTimeInterval(10)
            while accelCount() < 40, Date() < deadline { if let r = source.next(timeout: 0.2) { records.append(r) } }
            XCTAssertEqual(accelCount(), 40)

            iiod.kill()
            // iiod gone: the source must fail to reopen at least once before it comes back.
            deadline = Date().addingTimeInterval(10)
            while source.statistics.failedOpens < 2, Date() < deadline { usleep(20_000) }
            XCTAssertGreaterThanOrEqual(source.statistics.failedOpens, 2)
            iiod = try IIOD.start(port: iiod.port)
            deadline = Date().addingTimeInterval(10)
            while source.statistics.opens < 2, Date() < deadline { usleep(20_000) }
            secondBatch.signal()
            deadline = Date().addingTimeInterval(10)
            while accelCount() < 80, Date() < deadline { if let r = source.next(timeout: 0.2) { records.append(r) } }
            source.stop()
            feeder.wait(timeout: 5)

            let samples = records.compactMap { if case .accel(let s) = $0 { return s } else { return nil } }
            let gaps = records.compactMap { if case .gap(let g) = $0 { return g } else { return nil } }
            assertSamples(samples, equal: all, conversions: source.statistics.setup?.conversions ?? [])
            XCTAssertEqual(gaps.count, 1, "\(gaps)")
            if let gap = gaps.first, samples.count == 80 {
                XCTAssertEqual(gap.start, samples[39].time)
                XCTAssertEqual(gap.end, samples[40].time)
                XCTAssertTrue(gap.reason.hasPrefix("device lost:"), gap.reason)
            }
            let stats = source.statistics
            XCTAssertEqual(stats.losses, 1)
            XCTAssertEqual(stats.opens, 2)
            note("iiod killed: gap \(gaps.first.map { "\($0.duration) s: \($0.reason)" } ?? "none"); log: \(lines.all.joined(separator: " | "))")
        }
    }
}

/// A real iiod serving the namespace's fake tree on a loopback port (it listens on all
/// addresses; the test kills it with SIGKILL and reaps it).
struct IIOD {
    let process: ChildProcess
    let port: Int

    static func start(port: Int = freeLoopbackPort()) throws -> IIOD {
        let process = try ChildProcess("/usr/sbin/iiod", ["-p", String(port)])
        let deadline = Date().addingTimeInterval(10)
        while !isListening(port: port) && Date() < deadline && process.isRunning { usleep(20_000) }
        guard isListening(port: port) else {
            process.stop(SIGKILL)
            throw NSError(domain: "iiod did not listen on port \(port)", code: 1)
        }
        return IIOD(process: process, port: port)
    }

    func kill() { process.stop(SIGKILL) }
}
