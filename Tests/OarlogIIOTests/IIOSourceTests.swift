import Foundation
import XCTest
import OarlogCore
import OarlogIIO
import OarlogLive

/// The threaded source over the real `local:` backend: a stalling FIFO, polling, and the
/// records it gives the pipeline.
final class IIOSourceTests: XCTestCase {
    /// 40 scans, the FIFO silent for 1.2 s (refill timeout 0.3 s), then 40 more whose timestamps
    /// carry on 1.2 s later: exactly one gap, from the last scan before to the first after,
    /// saying the refill timed out; every scan delivered, in order, exact.
    func testStalledFIFOGivesOneGapThenDataResumes() throws {
        try inFakeSysfs {
            let fake = FakeIIODevice()
            try fake.write()
            try fake.makeFIFO()
            let all = knownScans(count: 80, format: fake.formats![0], jumpAt: 40, jump: 1_200_000_000)
            let feeder = FIFOFeeder(path: fake.devicePath, chunks: [
                (0, bytes(of: Array(all[..<40]), device: fake)),
                (1.2, bytes(of: Array(all[40...]), device: fake)),
            ], holdOpen: 5)
            var configuration = IIOAccelerometerConfiguration(uri: "local:", device: .name("mpu6050"))
            configuration.bufferSamples = 8
            configuration.refillTimeout = 0.3
            configuration.timeoutsBeforeReopen = 100
            let lines = LogLines()
            let source = IIOAccelerometerSource(configuration: configuration, clock: testOrigin, log: { lines.append($0) })
            source.start()
            var records: [TraceRecord] = []
            let deadline = Date().addingTimeInterval(15)
            while records.filter({ if case .accel = $0 { return true } else { return false } }).count < 80, Date() < deadline {
                if let r = source.next(timeout: 0.5) { records.append(r) }
            }
            source.stop()
            feeder.wait(timeout: 1)
            let samples = records.compactMap { if case .accel(let s) = $0 { return s } else { return nil } }
            let gaps = records.compactMap { if case .gap(let g) = $0 { return g } else { return nil } }
            assertSamples(samples, equal: all, conversions: source.statistics.setup?.conversions ?? [])
            XCTAssertEqual(gaps.count, 1, "\(gaps)")
            if let gap = gaps.first {
                XCTAssertEqual(gap.sensor, .accelerometer)
                XCTAssertEqual(gap.start, samples[39].time)
                XCTAssertEqual(gap.end, samples[40].time)
                XCTAssertTrue(gap.reason.contains("refill timed out"), gap.reason)
                // The gap sits between the two samples in the record stream.
                let index = records.firstIndex(of: .gap(gap))!
                XCTAssertEqual(records[index - 1], .accel(samples[39]))
                XCTAssertEqual(records[index + 1], .accel(samples[40]))
            }
            let stats = source.statistics
            XCTAssertGreaterThanOrEqual(stats.timeouts, 2)   // 1.2 s of silence at 0.3 s per refill
            XCTAssertEqual(stats.samples, 80)
            XCTAssertEqual(stats.gaps, 1)
            XCTAssertEqual(stats.opens, 1)
            XCTAssertTrue(source.isFinished)
            note("stall: \(stats.timeouts) timeouts; log: \(lines.all.joined(separator: " | "))")
        }
    }

    /// A device with no buffer support (no scan_elements): the automatic mode polls
    /// `in_accel_*_raw`, stamps each read on the monotonic clock, and follows the values.
    func testPollingFallbackReadsRawAtTheRate() throws {
        try inFakeSysfs {
            var fake = FakeIIODevice()
            fake.name = "adxl345"
            fake.formats = nil
            fake.withGyro = false
            fake.withTimestamp = false
            fake.timestampClock = nil
            fake.samplingFrequency = nil
            fake.sharedScale = 0.038344
            fake.raw = [-26, 13, 256]
            try fake.write()
            var configuration = IIOAccelerometerConfiguration(uri: "local:", device: .name("adxl345"))
            configuration.pollingRate = 50
            let clock = SessionClock.start()
            let reader = try IIOAccelerometerReader(configuration: configuration, clock: clock)
            XCTAssertEqual(reader.setup.mode, .polling)
            XCTAssertEqual(reader.setup.timing, .readTimes)
            XCTAssertEqual(reader.setup.pollingRate, 50)
            var samples: [AccelSample] = []
            var spans: [(Double, Double)] = []
            let monotonic = MonotonicClock()
            for _ in 0..<25 {
                let before = clock.sessionTime(ofMonotonic: monotonic.now())
                _ = try reader.read { s, _ in samples.append(s) }
                spans.append((before, clock.sessionTime(ofMonotonic: monotonic.now())))
            }
            XCTAssertEqual(samples.count, 25)
            for s in samples {
                XCTAssertEqual([s.x, s.y, s.z], [expectedAcceleration(-26, scale: 0.038344), expectedAcceleration(13, scale: 0.038344),
                                                 expectedAcceleration(256, scale: 0.038344)])
            }
            // Each time lies inside its read call; the mean interval is the polling period.
            for (s, span) in zip(samples, spans) { XCTAssertTrue(s.time >= span.0 && s.time <= span.1, "\(s.time) \(span)") }
            let mean = (samples.last!.time - samples.first!.time) / 24
            XCTAssertEqual(mean, 0.02, accuracy: 0.004)
            note("polling: mean interval \(Int((mean * 1e6).rounded())) µs at 50 Hz")
            // The chip moves: new raw values are read on the next tick.
            try "-300\n".write(toFile: fake.directory + "/in_accel_x_raw", atomically: false, encoding: .utf8)
            _ = try reader.read { s, _ in samples.append(s) }
            XCTAssertEqual(samples.last?.x, expectedAcceleration(-300, scale: 0.038344))
        }
    }
}

/// Log lines collected from the reader thread.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}
