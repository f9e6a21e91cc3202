import Foundation
import XCTest
import OarlogCore
import OarlogDSP
import OarlogIIO
import OarlogLive
import OarlogTestSupport
import OarlogApp
import OarlogFleet
import OarlogMQTT
import OarlogPipeline
import OarlogSession

/// Issue 13, finding 4: the display and every sink must have each stroke at its catch. Real
/// libiio reads a fake MPU-6050 whose FIFO is written one scan at a time in real time (100 Hz,
/// scans of an ADXL345-like stroke signal: noise and counts); the pipeline takes the records as
/// they come, as `oarlog record --publish` does, with and without GPS. The wall-clock time from
/// the catch's scan being written to the display counting that stroke, the session file holding
/// it and a fleet subscriber receiving it: median under 150 ms each. And a replay of the records
/// captured finds the same strokes and catches.
final class LiveCatchLatencyTests: XCTestCase {
    static let rate = 100.0, period = 2.5, still = 3.0, strokes = 13

    /// The boat's surge (m/s²): 3 s still, then strokes at 24 spm — a −3 m/s² catch dip, a
    /// +3 m/s² drive of 0.85 s, a recovery near −0.64 m/s².
    static func surge(at t: Seconds) -> Double {
        guard t >= still else { return 0 }
        let k = Int((t - still) / period), x = (t - still) - Double(k) * period
        guard k < strokes else { return 0 }
        if x < 0.12 { return -3 + 3 * x / 0.12 }
        if x < 0.97 { return 3 * sin(Double.pi * (x - 0.12) / 0.85) }
        let tail = period - x
        if tail < 0.15 { return -0.64 - 2.36 * (1 - tail / 0.15) }
        return -0.64
    }

    func testEverySinkHasTheStrokeWithin150msOfItsCatch() throws {
        try inFakeSysfs(timeout: 150) { try runLive(withGPS: false) }
    }

    func testEverySinkHasTheStrokeWithin150msOfItsCatchWithGPS() throws {
        try inFakeSysfs(timeout: 150) { try runLive(withGPS: true) }
    }

    /// The scans are written in real time; `oarlog record`'s pipeline reads them through libiio
    /// (with, if asked, a receiver's 1 Hz fixes arriving 150 ms after their time) into its sinks:
    /// a session file written as live sessions are (synced at every chunk), the fleet through a
    /// real mosquitto to a subscriber, and the display. For each stroke, the wall-clock time from
    /// its catch's scan being written to: the display counting it, the file holding it (written
    /// and synced), the subscriber receiving it.
    private func runLive(withGPS: Bool) throws {
        let fake = FakeIIODevice()
        try fake.write()
        try fake.makeFIFO()
        let scale = fake.sharedScale!
        let n = Int((Self.still + Double(Self.strokes) * Self.period + 1) * Self.rate)
        var random = SplitMix64(state: 7)
        var scans: [[UInt8]] = []
        for k in 0..<n {
            let t = Double(k) / Self.rate
            // Surge on x, gravity on z, 0.06 m/s² of noise.
            func uniform() -> Double { Double(random.next() >> 11) / Double(UInt64(1) << 53) }
            func noise() -> Double { (uniform() + uniform() + uniform() - 1.5) * 0.12 }
            let x = Int64(((Self.surge(at: t) + noise()) / scale).rounded())
            let y = Int64((noise() / scale).rounded()), z = Int64(((9.80665 + noise()) / scale).rounded())
            scans.append(fake.scan(x, y, z, timestamp: testOriginNanoseconds + 1_000_000_000 + Int64(k) * 10_000_000))
        }
        let broker = try MosquittoBroker()
        try broker.start()
        let url = "mqtt://127.0.0.1:\(broker.port)"
        let arrivals = Arrivals()
        let coach = MQTTClient(address: try BrokerAddress(parsing: url),
                               options: .init(clientID: "latency-coach", subscriptions: ["oarlog/+/catch"]), onMessage: arrivals.handler)
        try coach.start()
        defer { coach.stop() }
        XCTAssertTrue(coach.waitUntilSubscribed(timeout: 10), "the coach subscribed: \(broker.logText)")
        let link = try FleetLink(FleetConnection(url: url), boatName: "alpha", deliveryTimeout: 10)
        try link.start()
        XCTAssertTrue(link.client.waitUntilConnected(timeout: 10))

        // The writer: scan k at start + k / rate, on the wall clock; when each was written.
        let written = WriteTimes(count: n)
        let toWrite = scans, path = fake.devicePath
        let writer = Thread {
            let fd = open(path, O_WRONLY)
            guard fd >= 0 else { return }
            let start = Date().timeIntervalSinceReferenceDate
            for (k, scan) in toWrite.enumerated() {
                let due = start + Double(k) / Self.rate
                let wait = due - Date().timeIntervalSinceReferenceDate
                if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
                _ = scan.withUnsafeBytes { Glibc.write(fd, $0.baseAddress!, $0.count) }
                written.set(k, Date().timeIntervalSinceReferenceDate)
            }
            sleep(2)
            close(fd)
        }
        let accelerometer = IIOAccelerometerSource(configuration: IIOAccelerometerConfiguration(uri: "local:", device: .name("mpu6050")),
                                                   clock: testOrigin, log: { _ in })
        let receiver = PacedFixes(written: written, rate: Self.rate, count: Int(Double(n) / Self.rate))
        let sources = LiveSources(withGPS ? [accelerometer, receiver] : [accelerometer])
        var live = sources
        // Stops the sources once every scan is written and read.
        let stopper = Thread {
            while written.get(n - 1) == nil { usleep(50_000) }
            sleep(2)
            sources.stop()
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("oarlog-latency-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = try SessionWriter(path: directory + "/live.oarlog", metadata: SessionMetadata(title: "latency", startUTC: 1_700_000_000),
                                     options: SessionWriter.Options(durability: .syncEveryChunk))
        let probe = CatchProbe(file: file)
        var configuration = AnalyzerConfiguration()
        configuration.strokeSource = .accelerometer
        // The sinks in the order `oarlog record --publish` has them: the file, the fleet, the display.
        var pipeline = Pipeline(analyzer: RowingAnalyzer(configuration: configuration),
                                sinks: [file, link.publisher(title: "latency", startUTC: 1_700_000_000), probe])
        live.start()
        writer.start()
        stopper.start()
        try pipeline.run(&live)
        XCTAssertNil(link.finish(), "every fleet message delivered")
        usleep(300_000)

        let accelRecords = probe.records.filter { if case .accel = $0 { true } else { false } }
        XCTAssertEqual(accelRecords.count, n, "every scan read")
        if withGPS { XCTAssertGreaterThanOrEqual(probe.records.count - n, Self.strokes * 2, "fixes came in") }
        XCTAssertEqual(probe.complete.count, Self.strokes, "every stroke found")
        XCTAssertEqual(probe.caught.map(\.stroke.index), probe.complete.map(\.stroke.index), "each stroke at its catch, then its update")
        for (k, (c, m)) in zip(probe.caught, probe.complete).enumerated() {
            XCTAssertEqual(c.stroke.catchTime, m.stroke.catchTime, "stroke \(m.stroke.index): the catch announced is the catch concluded")
            // At its catch a stroke shows the rate of the stroke it finished (a stroke's own rate,
            // catch to next catch, is known only at the next catch).
            guard k > 0 else { continue }
            XCTAssertEqual(c.stroke.strokeRate, probe.complete[k - 1].stroke.strokeRate, "stroke \(m.stroke.index)")
            XCTAssertEqual(c.smoothedRate, probe.complete[k - 1].smoothedRate, "stroke \(m.stroke.index)")
        }
        if withGPS { XCTAssertGreaterThan(probe.complete.compactMap(\.distancePerStroke).count, Self.strokes - 3, "strokes got GPS distance") }

        // Latency, stroke by stroke, once the mounting has settled (the first strokes are found
        // together when it does, from the samples held meanwhile).
        var display: [Double] = [], disk: [Double] = [], fleet: [Double] = []
        for m in probe.complete {
            // Scan k is at session time 1 s + k / rate; the true catches at `still` + j · `period`.
            let j = ((m.stroke.catchTime - 1 - Self.still) / Self.period).rounded()
            let catchScan = Int(((Self.still + j * Self.period) * Self.rate).rounded())
            guard let wrote = written.get(catchScan), let shown = probe.shownAt[m.stroke.index], shown - wrote < 2 else { continue }
            display.append(shown - wrote)
            if let t = probe.onDiskAt[m.stroke.index] { disk.append(t - wrote) }
            if let t = arrivals.time(of: m.stroke.index) { fleet.append(t - wrote) }
        }
        func median(_ x: [Double]) -> Double { x.isEmpty ? .infinity : x.sorted()[x.count / 2] }
        let gps = withGPS ? "with GPS" : "without GPS"
        for (name, x) in [("display", display), ("session file", disk), ("fleet subscriber", fleet)] {
            note(String(format: "live catch → %@ (%@): %d strokes, median %.0f ms, max %.0f ms", name, gps, x.count,
                        median(x) * 1000, (x.max() ?? .nan) * 1000))
            XCTAssertGreaterThanOrEqual(x.count, Self.strokes - 5, "\(name): strokes after settling")
            XCTAssertLessThanOrEqual(median(x), 0.150, "\(name): median latency from the catch's scan")
        }

        // The file holds each stroke at its catch and concluded; read back, the strokes are the live ones.
        let reader = try SessionReader(path: file.path)
        XCTAssertEqual(try reader.strokes(), probe.complete)
        var caughtInFile: [StrokeMetrics] = []
        var entries = reader.entries()
        var withdrawnInFile = 0
        while let e = try entries.next() {
            switch e {
            case .caught(let m): caughtInFile.append(m)
            case .withdrawn(let w):
                withdrawnInFile += 1
                caughtInFile.removeAll { $0.stroke.index == w.index }
            default: break
            }
        }
        XCTAssertEqual(withdrawnInFile, probe.withdrawn, "each catch withdrawn is in the file")
        XCTAssertEqual(caughtInFile, probe.caught)
        XCTAssertEqual(arrivals.indexes, probe.caught.map(\.stroke.index), "the fleet had every catch once, in order")

        // The same strokes in a replay of what was captured.
        var replay = RowingAnalyzer(configuration: configuration)
        var replayed: [StrokeMetrics] = [], replayedCatches: [StrokeMetrics] = []
        let observe: (AnalyzerEvent) -> Void = { event in
            switch event {
            case .stroke(let m): replayed.append(m)
            case .caught(let m): replayedCatches.append(m)
            case .withdrawn(let w): replayedCatches.removeAll { $0.stroke.index == w.index }
            default: break
            }
        }
        for record in probe.records { replay.process(record, emit: observe) }
        replay.finish(emit: observe)
        XCTAssertEqual(replayed, probe.complete)
        XCTAssertEqual(replayedCatches, probe.caught)
    }
}

/// What the pipeline gave, and when: every record (for the replay), each stroke at its catch
/// and concluded, when the display first counted each stroke, and when the session file held it
/// (its chunk written and synced: the writer sink runs before this one).
final class CatchProbe: PipelineSink {
    let file: SessionWriter
    var records: [TraceRecord] = []
    var caught: [StrokeMetrics] = []
    var complete: [StrokeMetrics] = []
    var shownAt: [Int: TimeInterval] = [:]
    var onDiskAt: [Int: TimeInterval] = [:]
    /// Catches withdrawn (no drive followed: the boat stopping after the last stroke).
    var withdrawn = 0
    private var shown = 0
    init(file: SessionWriter) { self.file = file }
    var wantsRawRecords: Bool { true }
    func receive(_ event: PipelineEvent) {
        let now = Date().timeIntervalSinceReferenceDate
        switch event {
        case .record(let r): records.append(r)
        case .analysis(.caught(let m)):
            caught.append(m)
            if file.statistics.strokeCatches >= m.stroke.index { onDiskAt[m.stroke.index] = now }
        case .analysis(.withdrawn(let s)):
            caught.removeAll { $0.stroke.index == s.index }
            withdrawn += 1
        case .analysis(.stroke(let m)): complete.append(m)
        case .analysis(.live(let f)):
            if f.strokes > shown { for s in (shown + 1)...f.strokes { shownAt[s] = now } }
            shown = f.strokes
        case .analysis(.speed), .fence, .workout, .ghost: break
        }
    }
}

/// A receiver's fixes at 1 Hz, each arriving 150 ms after its time (as gpsd passes them on),
/// on the writer's clock: a boat going north at 4 m/s.
final class PacedFixes: LiveRecordSource, @unchecked Sendable {
    private let written: WriteTimes
    private let rate: Double
    private let count: Int
    private var fixes = 0
    private let stopped = NSLock()
    private var isStopped = false
    init(written: WriteTimes, rate: Double, count: Int) {
        self.written = written
        self.rate = rate
        self.count = count
    }
    func start() {}
    func stop() { stopped.lock(); isStopped = true; stopped.unlock() }
    private var stopping: Bool { stopped.lock(); defer { stopped.unlock() }; return isStopped }
    func next() throws -> TraceRecord? {
        guard fixes < count else { return nil }
        while written.get(0) == nil { if stopping { return nil }; usleep(10_000) }
        let start = written.get(0)!
        let j = fixes
        fixes += 1
        while Date().timeIntervalSinceReferenceDate < start + Double(j) + 0.15 {
            if stopping { return nil }
            usleep(5_000)
        }
        // Scan k is at session time 1 s + k / rate: the fix of the moment scan j · rate was written.
        let t = 1 + Double(j)
        return .fix(GPSFix(time: t, utc: 1_700_000_000 + t, latitude: 51.5 + 4 * t / 111_195, longitude: -0.2, speed: 4, course: 0,
                           horizontalAccuracy: 2, mode: .threeD, satellitesUsed: 9))
    }
}

/// When the subscriber received each catch (its first copy) and the order they came in (less
/// those withdrawn).
final class Arrivals: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [Int: TimeInterval] = [:]
    private var order: [Int] = []
    var handler: @Sendable (String, [UInt8]) -> Void {
        { [self] topic, payload in
            let now = Date().timeIntervalSinceReferenceDate
            guard let message = try? SignalKDelta.message(boat: "alpha", kind: .catch, payload: payload),
                  case .caught(let c) = message.content else { return }
            lock.lock()
            if c.withdrawn {
                order.removeAll { $0 == c.index }
            } else {
                if times[c.index] == nil { times[c.index] = now }
                order.append(c.index)
            }
            lock.unlock()
        }
    }
    func time(of index: Int) -> TimeInterval? { lock.lock(); defer { lock.unlock() }; return times[index] }
    var indexes: [Int] { lock.lock(); defer { lock.unlock() }; return order }
}

/// Wall-clock times the writer thread wrote each scan.
final class WriteTimes: @unchecked Sendable {
    private var times: [TimeInterval?]
    private let lock = NSLock()
    init(count: Int) { times = Array(repeating: nil, count: count) }
    func set(_ k: Int, _ t: TimeInterval) { lock.lock(); times[k] = t; lock.unlock() }
    func get(_ k: Int) -> TimeInterval? { lock.lock(); defer { lock.unlock() }; return k >= 0 && k < times.count ? times[k] : nil }
}
