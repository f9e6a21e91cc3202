import Foundation
import OarlogCore
import OarlogGPS
import OarlogLive
import Synchronization
import XCTest
#if canImport(Glibc)
import Glibc
import OarlogTestSupport
#endif

/// gpsd killed and restarted, not running at start, a device that vanishes, garbage on the wire,
/// prompt shutdown: the source logs, counts, retries, reports the outage as a gap, never crashes.
final class GPSDOutageTests: XCTestCase {
    override class func tearDown() { GPSDProcess.removeLeftoverSharedMemory() }

    final class LogLines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ s: String) { lock.withLock { lines.append(s) } }
        var all: [String] { lock.withLock { lines } }
        func contains(_ s: String) -> Bool { all.contains { $0.contains(s) } }
    }

    func testKilledAndRestartedGPSDReconnectsReportsGapAndMatchesAfter() throws {
        let lines = try nmeaLines(ofFile: fixturePath("bundg_zeus_9.log"))
        let server = try NMEAServer(lines: lines, secondsPerLine: 0.001)
        defer { server.stop() }
        var gpsd = try GPSDProcess(nmeaPort: server.port)
        let port = gpsd.port
        let pipe1 = try GPSPipe(gpsdPort: port)
        let clock = SessionClock.start()
        let log = LogLines()
        let source = GPSDSource(configuration: GPSDSourceConfiguration(host: "127.0.0.1", port: port), clock: clock,
                                log: { log.append($0) })
        let collector = EventCollector(source)
        source.start()
        XCTAssertTrue(waitUntil(timeout: 10) { source.statistics.isConnected && server.connections >= 1 })
        usleep(300_000)
        server.openGate()

        // Kill gpsd mid-stream (about 40 % through the log).
        XCTAssertTrue(waitUntil(timeout: 30) { server.cursor >= lines.count * 2 / 5 })
        gpsd.kill()
        let killedAt = clock.sessionTime(ofMonotonic: monotonicNow())
        server.closeGate()  // the receiver waits for the next gpsd (lines in flight are lost)
        pipe1.stop()
        let fixesBeforeKill = collector.fixes.count
        usleep(1_500_000)  // the outage
        XCTAssertEqual(source.statistics.isConnected, false)

        gpsd = try GPSDProcess(nmeaPort: server.port, port: port)
        defer { gpsd.kill() }
        let restartedAt = clock.sessionTime(ofMonotonic: monotonicNow())
        let pipe2 = try GPSPipe(gpsdPort: port)
        defer { pipe2.stop() }
        XCTAssertTrue(waitUntil(timeout: 5) { source.statistics.connections >= 2 }, "no reconnection")
        let reconnectedAt = try XCTUnwrap(source.statistics.lastConnectedAt)
        usleep(300_000)
        server.openGate()
        collector.waitForQuiet(after: server)
        source.stop()
        collector.join()
        pipe2.stop()

        let fixes = collector.fixes
        let gaps = collector.gaps
        print("restart: killed at \(killedAt) s, gpsd back at \(restartedAt) s, reconnected at \(reconnectedAt) s; "
              + "gaps \(gaps); fixes \(fixes.count) (\(fixesBeforeKill) before the kill); log: \(log.all)")
        XCTAssertEqual(gaps.count, 1, "one outage, one gap")
        let gap = try XCTUnwrap(gaps.first)
        XCTAssertEqual(gap.sensor, .gps)
        XCTAssertLessThanOrEqual(reconnectedAt - restartedAt, 2.0, "re-WATCH within 2 s of gpsd being back")
        XCTAssertGreaterThanOrEqual(reconnectedAt, restartedAt - 0.1)
        // The gap runs from the last fix before the kill to the first fix after the restart.
        let before = fixes.filter { $0.receivedAt <= gap.start }
        let after = fixes.filter { $0.receivedAt >= gap.end }
        XCTAssertEqual(before.count + after.count, fixes.count)
        XCTAssertEqual(before.last?.receivedAt, gap.start)
        XCTAssertEqual(after.first?.receivedAt, gap.end)
        XCTAssertLessThanOrEqual(gap.start, killedAt)
        XCTAssertGreaterThan(gap.start, killedAt - 0.5, "the last fix came just before the kill")
        XCTAssertGreaterThanOrEqual(gap.end, restartedAt)
        XCTAssertLessThanOrEqual(gap.end, reconnectedAt + 1.5, "data flows again right after the reconnection")
        // Before the kill: each of our fixes is gpspipe's fix of that epoch (the last one or two
        // may have reached only one of the two watchers when gpsd died).
        let ref1 = referenceEpochs(referenceTPVs(fromGPSPipeOutput: pipe1.text)).fixes
        let ref1ByTime = Dictionary(ref1.map { ($0.timeNanoseconds!, $0) }, uniquingKeysWith: { a, _ in a })
        for f in before {
            let r = try XCTUnwrap(ref1ByTime[f.utcNanoseconds!], "epoch \(timeOfDay(f.utcNanoseconds)) not seen by gpspipe")
            XCTAssertEqual(f.latitude, r.latitude!, accuracy: 1e-9)
            XCTAssertEqual(f.longitude, r.longitude!, accuracy: 1e-9)
            XCTAssertEqual(f.speed, r.speed)
        }
        XCTAssertLessThanOrEqual(abs(before.count - ref1.count), 2)
        // After the restart: gpspipe's epochs. Both watch before the receiver resumes, but on a
        // loaded machine the first epoch gpsd reports while the second watcher's WATCH is still
        // being answered can reach only one of them; every later epoch must be identical and in
        // the same order.
        let ref2 = referenceEpochs(referenceTPVs(fromGPSPipeOutput: pipe2.text)).fixes
        let ref2ByTime = Dictionary(ref2.map { ($0.timeNanoseconds!, $0) }, uniquingKeysWith: { a, _ in a })
        let afterTimes = after.compactMap(\.utcNanoseconds)
        let ref2Times = ref2.compactMap(\.timeNanoseconds)
        XCTAssertLessThanOrEqual(abs(after.count - ref2.count), 1)
        let tail = min(afterTimes.count, ref2Times.count) - 1
        XCTAssertEqual(Array(afterTimes.suffix(tail)), Array(ref2Times.suffix(tail)),
                       "the epochs after the first agree with gpspipe's, in order")
        var compared = 0
        for a in after {
            guard let b = ref2ByTime[a.utcNanoseconds!] else { continue }
            compared += 1
            XCTAssertEqual(a.latitude, b.latitude!, accuracy: 1e-9)
            XCTAssertEqual(a.longitude, b.longitude!, accuracy: 1e-9)
            XCTAssertEqual(a.speed, b.speed)
            XCTAssertEqual(a.course, b.course)
        }
        XCTAssertGreaterThanOrEqual(compared, after.count - 1)
        XCTAssertGreaterThan(after.count, 50)
        let times = fixes.compactMap(\.utcNanoseconds)
        XCTAssertEqual(Set(times).count, times.count, "no epoch twice across the restart")
        XCTAssertTrue(log.contains("lost gpsd"), "the loss is logged: \(log.all)")
    }

    func testGPSDNotRunningAtStartIsRetriedAndReportedAsAGap() throws {
        let lines = try nmeaLines(ofFile: fixturePath("humminbird-M37.log"))
        let server = try NMEAServer(lines: lines, secondsPerLine: 0.002, gateOpen: true)
        defer { server.stop() }
        let port = freeLoopbackPort()
        let clock = SessionClock.start()
        let log = LogLines()
        let source = GPSDSource(configuration: GPSDSourceConfiguration(host: "127.0.0.1", port: port), clock: clock,
                                log: { log.append($0) })
        let collector = EventCollector(source)
        source.start()
        usleep(1_200_000)
        XCTAssertGreaterThanOrEqual(source.statistics.failedConnections, 2, "it keeps retrying")
        XCTAssertEqual(source.statistics.connections, 0)
        let gpsd = try GPSDProcess(nmeaPort: server.port, port: port)
        defer { gpsd.kill() }
        let upAt = clock.sessionTime(ofMonotonic: monotonicNow())
        XCTAssertTrue(waitUntil(timeout: 5) { source.statistics.connections == 1 })
        let connectedAt = try XCTUnwrap(source.statistics.lastConnectedAt)
        XCTAssertLessThanOrEqual(connectedAt - upAt, 2.0)
        collector.waitForQuiet(after: server)
        source.stop()
        collector.join()
        let gaps = collector.gaps
        XCTAssertEqual(gaps.count, 1)
        XCTAssertEqual(gaps.first?.reason, "gpsd not reachable")
        XCTAssertEqual(gaps.first?.start ?? -1, 0, accuracy: 0.2, "the outage started with the session")
        XCTAssertEqual(gaps.first?.end, collector.fixes.first?.receivedAt)
        XCTAssertEqual(collector.fixes.count, 30, "the same fixes as with gpsd up from the start (golden test)")
        XCTAssertEqual(log.all.filter { $0.contains("cannot connect") }.count, 1, "logged once, not per retry: \(log.all)")
    }

    func testVanishingDeviceAndGarbageOnTheWireAreLoggedAndRetried() throws {
        // The "receiver" sends some garbage, then drops the line after 40 lines (a USB receiver
        // pulled out); gpsd closes the device, the source re-WATCHes, gpsd reopens it and the
        // receiver carries on.
        var lines = try nmeaLines(ofFile: fixturePath("humminbird-M37.log"))
        lines.insert("\u{1}\u{2}garbage$GPXXX,not,nmea*00 \u{ff}", at: 20)
        lines.insert("$GPRMC,,,,,,,,,,,*7F", at: 30)
        let server = try NMEAServer(lines: lines, secondsPerLine: 0.005, closeAfterLines: 60, gateOpen: true)
        defer { server.stop() }
        let gpsd = try GPSDProcess(nmeaPort: server.port)
        defer { gpsd.kill() }
        let log = LogLines()
        let source = GPSDSource(configuration: GPSDSourceConfiguration(host: "127.0.0.1", port: gpsd.port),
                                log: { log.append($0) })
        let collector = EventCollector(source)
        source.start()
        XCTAssertTrue(waitUntil(timeout: 20) { server.connections >= 2 && server.finished }, "gpsd reopened the device")
        collector.waitForQuiet(after: server)
        source.stop()
        collector.join()
        print("vanish: fixes \(collector.fixes.count), gaps \(collector.gaps), stats \(source.statistics), log \(log.all)")
        XCTAssertTrue(log.contains("closed by gpsd"), "the vanished device is logged: \(log.all)")
        XCTAssertGreaterThanOrEqual(source.statistics.connections, 2, "re-WATCHed")
        XCTAssertEqual(collector.gaps.count, 1)
        // The receiver carried on where it was when the line dropped, and gpsd skips garbage:
        // the same 30 fixes as the uninterrupted golden run, with its one backward epoch.
        XCTAssertEqual(collector.fixes.count, 30)
        XCTAssertEqual(source.statistics.epochs.backward, 1)
        let gap = try XCTUnwrap(collector.gaps.first)
        XCTAssertLessThan(gap.duration, 2.5, "back within the retry delay")
    }

    func testGarbageFromAFakeGPSDIsAnErrorAndARetryNeverACrash() throws {
        // Not gpsd at all: a server that answers with noise. (A real gpsd never does; a wrong
        // port or a proxy might.)
        let listener = try NMEAServer(lines: Array(repeating: "HTTP/1.1 400 Bad Request\r\n\u{0}\u{7f}{\"class\":", count: 5000),
                                      secondsPerLine: 0.0005, gateOpen: true)
        defer { listener.stop() }
        let log = LogLines()
        let source = GPSDSource(configuration: GPSDSourceConfiguration(host: "127.0.0.1", port: listener.port),
                                log: { log.append($0) })
        let collector = EventCollector(source)
        source.start()
        XCTAssertTrue(waitUntil(timeout: 10) { source.statistics.connections >= 2 && source.statistics.disconnects >= 2 },
                      "reconnects after unreadable input: \(source.statistics)")
        source.stop()
        collector.join()
        print("garbage: \(source.statistics) log \(log.all.prefix(3))")
        XCTAssertTrue(collector.fixes.isEmpty)
        XCTAssertGreaterThanOrEqual(source.statistics.errors, 2)
        XCTAssertNotNil(source.statistics.lastError)
    }

    func testStopAndShouldStopEndTheSourcePromptly() throws {
        // Connected to a silent gpsd (its receiver sends nothing): next() blocks until stopped.
        let server = try NMEAServer(lines: [], gateOpen: true)
        defer { server.stop() }
        let gpsd = try GPSDProcess(nmeaPort: server.port)
        defer { gpsd.kill() }
        let flag = Atomic<Bool>(false)
        var source = GPSDSource(configuration: GPSDSourceConfiguration(host: "127.0.0.1", port: gpsd.port),
                                shouldStop: { flag.load(ordering: .relaxed) })
        source.start()
        XCTAssertTrue(waitUntil(timeout: 10) { source.statistics.isConnected })
        let raisedAt = monotonicNow()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { flag.store(true, ordering: .relaxed) }
        XCTAssertNil(try source.next(), "next() returns nil once the stop flag (SIGINT) is seen")
        let waited = monotonicNow() - raisedAt
        XCTAssertLessThan(waited, 1.5, "stops within a poll interval of the flag (took \(waited) s)")
        source.stop()
        XCTAssertTrue(source.isFinished)
        _ = source  // (var: RecordSource.next is mutating)
    }
}
