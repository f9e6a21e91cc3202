import Foundation
import OarlogGPS
import Synchronization
import XCTest
#if canImport(Glibc)
import Glibc
import OarlogTestSupport
#endif

/// `GPSDDevices.list` (libgps, `?DEVICES;`) against real gpsd daemons, checked against the
/// DEVICES report gpsd sends its reference client `gpspipe -w` about the same receiver.
final class GPSDDevicesTests: XCTestCase {
    override class func tearDown() { GPSDProcess.removeLeftoverSharedMemory() }

    /// gpspipe's DEVICES report (gpsd sends one on WATCH): its device objects.
    func referenceDevices(_ pipe: GPSPipe) throws -> [[String: Any]] {
        // gpsd ends lines with CR LF, one Character in Swift: split on any line end.
        let line = try XCTUnwrap(pipe.text.split(whereSeparator: \.isNewline).first { $0.contains("\"class\":\"DEVICES\"") },
                                 "gpspipe saw no DEVICES report")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return try XCTUnwrap(object["devices"] as? [[String: Any]])
    }

    /// Asserts that a receiver says what gpsd told gpspipe about it.
    func assertSame(_ ours: GPSDReceiverDescription, _ reference: [String: Any], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(ours.path, reference["path"] as? String, "path", file: file, line: line)
        XCTAssertEqual(ours.driver, reference["driver"] as? String, "driver", file: file, line: line)
        XCTAssertEqual(ours.subtype, reference["subtype"] as? String, "subtype", file: file, line: line)
        XCTAssertEqual(ours.bitsPerSecond, reference["bps"] as? Int, "bps", file: file, line: line)
        XCTAssertEqual(ours.cycle, reference["cycle"] as? Double, "cycle", file: file, line: line)
        XCTAssertEqual(ours.isActive, reference["activated"] != nil, "activated", file: file, line: line)
    }

    /// Lists until gpsd has recognised the receiver (it names a driver), at most `timeout` s.
    func listOnceRecognised(port: Int, timeout: Double = 10) throws -> [GPSDReceiverDescription] {
        var receivers: [GPSDReceiverDescription] = []
        let recognised = try waitUntilThrowing(timeout: timeout) {
            receivers = try GPSDDevices.list(host: "127.0.0.1", port: port, timeout: 3)
            return receivers.first?.driver != nil
        }
        XCTAssertTrue(recognised, "gpsd did not recognise the receiver: \(receivers)")
        return receivers
    }

    func waitUntilThrowing(timeout: Double, _ condition: () throws -> Bool) throws -> Bool {
        let deadline = monotonicNow() + timeout
        while monotonicNow() < deadline {
            if try condition() { return true }
            usleep(50_000)
        }
        return try condition()
    }

    func testListsASerialReceiverWithItsSpeedAndCycleAsGPSPipeSeesIt() throws {
        let lines = try nmeaLines(ofFile: fixturePath("bundg_zeus_9.log"))
        let receiver = try PTYReceiver(lines: lines, secondsPerLine: 0.002)
        defer { receiver.stop() }
        let gpsd = try GPSDProcess(devicePath: receiver.path, options: ["-n"])
        defer { gpsd.kill() }
        let before = try listOnceRecognised(port: gpsd.port)
        let pipe = try GPSPipe(gpsdPort: gpsd.port)
        defer { pipe.stop() }
        let after = try GPSDDevices.list(host: "127.0.0.1", port: gpsd.port, timeout: 3)
        let reference = try referenceDevices(pipe)
        print("serial: \(before); gpspipe: \(reference)")

        XCTAssertEqual(before, after)
        XCTAssertEqual(before.count, 1)
        XCTAssertEqual(reference.count, 1)
        let ours = try XCTUnwrap(before.first)
        assertSame(ours, try XCTUnwrap(reference.first))
        XCTAssertEqual(ours.path, receiver.path)
        XCTAssertEqual(ours.driver, "NMEA0183")
        XCTAssertEqual(ours.cycle, 1.0)
        let bps = try XCTUnwrap(ours.bitsPerSecond)
        XCTAssertTrue(ours.isActive)
        XCTAssertEqual(ours.description, "\(receiver.path): driver NMEA0183, \(bps) bps, cycle 1 s, active")
    }

    func testListsANetworkReceiverActiveOnceGPSDReadsIt() throws {
        let lines = try nmeaLines(ofFile: fixturePath("bundg_zeus_9.log"))
        let server = try NMEAServer(lines: lines, secondsPerLine: 0.002, gateOpen: true)
        defer { server.stop() }
        let gpsd = try GPSDProcess(nmeaPort: server.port, options: ["-n"])
        defer { gpsd.kill() }
        let receivers = try listOnceRecognised(port: gpsd.port)
        let pipe = try GPSPipe(gpsdPort: gpsd.port)
        defer { pipe.stop() }
        let reference = try referenceDevices(pipe)
        print("network: \(receivers); gpspipe: \(reference)")
        XCTAssertEqual(receivers.count, 1)
        XCTAssertEqual(reference.count, 1)
        let ours = try XCTUnwrap(receivers.first)
        assertSame(ours, try XCTUnwrap(reference.first))
        XCTAssertEqual(ours, GPSDReceiverDescription(path: "tcp://127.0.0.1:\(server.port)", driver: "NMEA0183", isActive: true))
        XCTAssertEqual(ours.description, "tcp://127.0.0.1:\(server.port): driver NMEA0183, active")
    }

    func testAReceiverGPSDHasNotOpenedIsListedAsNotActive() throws {
        // Without -n and without a client watching, gpsd knows the device but has not opened it.
        let server = try NMEAServer(lines: [], gateOpen: true)
        defer { server.stop() }
        let gpsd = try GPSDProcess(nmeaPort: server.port)
        defer { gpsd.kill() }
        let receivers = try GPSDDevices.list(host: "127.0.0.1", port: gpsd.port, timeout: 3)
        XCTAssertEqual(receivers, [GPSDReceiverDescription(path: "tcp://127.0.0.1:\(server.port)", isActive: false)])
        XCTAssertEqual(receivers.first?.description, "tcp://127.0.0.1:\(server.port): not active")
        XCTAssertEqual(server.connections, 0, "listing does not make gpsd open the device")
    }

    func testACycleReadsInSecondsToTheMillisecond() {
        func described(cycle: Double) -> String {
            GPSDReceiverDescription(path: "/dev/ttyACM0", cycle: cycle, isActive: true).description
        }
        XCTAssertEqual(described(cycle: 1), "/dev/ttyACM0: cycle 1 s, active")
        XCTAssertEqual(described(cycle: 0.2), "/dev/ttyACM0: cycle 0.2 s, active")
        XCTAssertEqual(described(cycle: 0.125), "/dev/ttyACM0: cycle 0.125 s, active")
        XCTAssertEqual(described(cycle: 10), "/dev/ttyACM0: cycle 10 s, active")
        XCTAssertEqual(described(cycle: 0.0004), "/dev/ttyACM0: cycle 0 s, active")
        XCTAssertEqual(described(cycle: 2.0005), "/dev/ttyACM0: cycle 2.001 s, active")
    }

    func testGPSDWithoutReceiversListsNone() throws {
        // gpsd runs without any device only with a control socket.
        let control = NSTemporaryDirectory() + "oarlog-gpsd-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        defer { unlink(control) }
        let gpsd = try GPSDProcess(nmeaPort: nil, options: ["-F", control])
        defer { gpsd.kill() }
        XCTAssertEqual(try GPSDDevices.list(host: "127.0.0.1", port: gpsd.port, timeout: 3), [])
    }

    func testGPSDNotRunningIsAClearError() {
        let port = freeLoopbackPort()
        XCTAssertThrowsError(try GPSDDevices.list(host: "127.0.0.1", port: port, timeout: 1)) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.hasPrefix("cannot connect to gpsd at 127.0.0.1:\(port): "), text)
            XCTAssertTrue(text.hasSuffix("(is gpsd running? systemctl status gpsd)"), text)
        }
    }

    func testAServerThatNeverAnswersTimesOut() throws {
        // Something listens on the port but is not gpsd and says nothing.
        let silent = try NMEAServer(lines: [], gateOpen: true)
        defer { silent.stop() }
        let started = monotonicNow()
        XCTAssertThrowsError(try GPSDDevices.list(host: "127.0.0.1", port: silent.port, timeout: 0.5)) { error in
            XCTAssertEqual(String(describing: error), "gpsd at 127.0.0.1:\(silent.port) did not answer ?DEVICES within 0.5 s")
        }
        let waited = monotonicNow() - started
        XCTAssertGreaterThanOrEqual(waited, 0.45)
        XCTAssertLessThan(waited, 3)
    }
}

/// A serial GPS receiver on a pseudo-terminal: gpsd opens the slave side (`path`) as it would a
/// USB receiver, sets its speed, and reads the lines written to the master at a set pace. What
/// gpsd writes (its probes) is read and dropped.
final class PTYReceiver: @unchecked Sendable {
    let path: String
    private let master: Int32
    private let state = Mutex<(written: Int, stopping: Bool)>((0, false))
    private var thread: Thread?

    init(lines: [String], secondsPerLine: Double) throws {
        // posix_openpt/unlockpt/ptsname are not in Swift's Glibc module: open the multiplexer,
        // unlock the slave (TIOCSPTLCK) and ask its number (TIOCGPTN), as they do.
        // Non-blocking: once gpsd closed the slave, writes would block for good when it is full.
        let fd = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_NONBLOCK)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        let TIOCSPTLCK: UInt = 0x4004_5431, TIOCGPTN: UInt = 0x8004_5430
        guard fd >= 0, ioctl(fd, TIOCSPTLCK, &unlock) == 0, ioctl(fd, TIOCGPTN, &number) == 0 else {
            let reason = String(cString: strerror(errno))
            if fd >= 0 { close(fd) }
            throw GPSDError("no pseudo-terminal: \(reason)")
        }
        master = fd
        path = "/dev/pts/\(number)"
        let t = Thread { [self] in feed(lines, secondsPerLine) }
        thread = t
        t.start()
    }

    var linesWritten: Int { state.withLock { $0.written } }

    func stop() {
        state.withLock { $0.stopping = true }
        while !(thread?.isFinished ?? true) { usleep(5_000) }
        close(master)
    }

    private func feed(_ lines: [String], _ secondsPerLine: Double) {
        var junk = [UInt8](repeating: 0, count: 4096)
        var index = 0
        while !state.withLock({ $0.stopping }) {
            // Drop what gpsd wrote; wait up to one line's time.
            var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, Int32(max(1, secondsPerLine * 1000))) > 0, p.revents & Int16(POLLIN) != 0 {
                _ = read(master, &junk, junk.count)
            }
            guard index < lines.count else { continue }
            let bytes = Array((lines[index] + "\r\n").utf8)
            var sent = 0
            while sent < bytes.count, !state.withLock({ $0.stopping }) {
                let n = bytes[sent...].withUnsafeBufferPointer { write(master, $0.baseAddress!, $0.count) }
                if n > 0 { sent += n } else { usleep(2_000) }  // full (EAGAIN): gpsd reads on
            }
            index += 1
            state.withLock { $0.written = index }
        }
    }
}
