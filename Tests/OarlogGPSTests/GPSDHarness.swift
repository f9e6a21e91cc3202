import Foundation
import Synchronization
import OarlogGPS
import XCTest
#if canImport(Glibc)
import Glibc
import OarlogTestSupport
#endif

/// A fixture copied into the project (Tests/OarlogGPSTests/Fixtures).
func fixturePath(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").appendingPathComponent(name).path
}

/// The NMEA lines of a gpsd regression log (comment lines dropped, line ends kept as CRLF).
func nmeaLines(ofFile path: String) throws -> [String] {
    let text = try String(contentsOfFile: path, encoding: .isoLatin1)
    return text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        .map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
        .filter { !$0.isEmpty && !$0.hasPrefix("#") }
}

/// Waits until `condition` holds, polling every 20 ms; false on timeout.
@discardableResult
func waitUntil(timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}

/// CPU seconds the calling thread has used.
func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// CPU seconds the whole process has used (every thread, user and system).
func processCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Seconds on CLOCK_MONOTONIC (the clock GPSDSource stamps with).
func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// An NMEA receiver on a loopback TCP port that the test controls: it accepts gpsd's connection
/// and writes the lines at a set pace once the gate is open. One cursor runs through the lines
/// across connections, so when gpsd is killed and a new one connects, the "receiver" carries on
/// where it was (lines written into the dead connection are lost, as on a real wire). After the
/// last line the connection stays open and silent until `stop()`.
final class NMEAServer: @unchecked Sendable {
    let port: Int
    let lines: [String]
    /// Seconds between lines (0 = as fast as the socket takes them).
    let secondsPerLine: Double
    /// Close the connection (a vanishing device) after this many lines, once.
    let closeAfterLines: Int?
    private let listener: Int32
    private let state = Mutex(State())
    private var thread: Thread?

    struct State {
        var gateOpen = false
        var stopping = false
        var cursor = 0
        var connections = 0
        var closedOnce = false
        /// This thread's CPU time when it wrote the first line and the last, seconds.
        var cpuAtFirstLine: Double?
        var cpuAtLastLine: Double?
    }

    init(lines: [String], secondsPerLine: Double = 0.0005, closeAfterLines: Int? = nil, gateOpen: Bool = false) throws {
        self.lines = lines
        self.secondsPerLine = secondsPerLine
        self.closeAfterLines = closeAfterLines
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        listener = fd
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(fd, 4) == 0 else { throw GPSDError("NMEA server cannot listen") }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        port = Int(UInt16(bigEndian: addr.sin_port))
        state.withLock { $0.gateOpen = gateOpen }
        let t = Thread { [self] in self.serve() }
        thread = t
        t.start()
    }

    var cursor: Int { state.withLock { $0.cursor } }
    var connections: Int { state.withLock { $0.connections } }
    var finished: Bool { cursor >= lines.count }
    /// CPU time the server's own thread spent writing the lines (first to last), seconds: what a
    /// test measuring its process's CPU takes off, since the server runs in the test's process.
    var streamingCPUSeconds: Double? {
        state.withLock { s in s.cpuAtLastLine.flatMap { last in s.cpuAtFirstLine.map { last - $0 } } }
    }
    func openGate() { state.withLock { $0.gateOpen = true } }
    func closeGate() { state.withLock { $0.gateOpen = false } }

    func stop() {
        state.withLock { $0.stopping = true }
        while !(thread?.isFinished ?? true) { usleep(5_000) }
        close(listener)
    }

    private var stopping: Bool { state.withLock { $0.stopping } }

    /// Waits up to 50 ms for `fd` to be readable (an accept or a peer's close/data).
    private func readable(_ fd: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 50) > 0
    }

    private func serve() {
        while !stopping {
            guard readable(listener) else { continue }
            let fd = accept(listener, nil, nil)
            if fd < 0 { continue }
            state.withLock { $0.connections += 1 }
            stream(to: fd)
            close(fd)
        }
    }

    /// Writes lines from the cursor; returns when the peer is gone, on a planned close, or on stop.
    private func stream(to fd: Int32) {
        var nextAt = monotonicNow()
        while !stopping {
            let (open, index, closeNow) = state.withLock { s -> (Bool, Int, Bool) in
                let shouldClose = closeAfterLines.map { !s.closedOnce && s.cursor >= $0 } ?? false
                if shouldClose { s.closedOnce = true }
                return (s.gateOpen, s.cursor, shouldClose)
            }
            if closeNow { return }
            if !open || index >= lines.count {
                // Idle: notice a peer that went away (read returns 0 or an error).
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&p, 1, 20) > 0 {
                    var junk = [UInt8](repeating: 0, count: 512)
                    if recv(fd, &junk, junk.count, 0) <= 0 { return }
                }
                nextAt = monotonicNow()
                continue
            }
            let bytes = Array((lines[index] + "\r\n").utf8)
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBufferPointer { send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { return }
                sent += n
            }
            let cpu = threadCPUSeconds()
            state.withLock {
                $0.cursor = index + 1
                if $0.cpuAtFirstLine == nil { $0.cpuAtFirstLine = cpu }
                if index + 1 == lines.count { $0.cpuAtLastLine = cpu }
            }
            if secondsPerLine > 0 {
                nextAt += secondsPerLine
                let wait = nextAt - monotonicNow()
                if wait > 0 { usleep(UInt32(wait * 1e6)) }
            }
        }
    }
}

/// A real gpsd (`gpsd -N -S <port> tcp://127.0.0.1:<nmea port>`) on a random loopback port.
/// Ended with SIGKILL and reaped.
final class GPSDProcess {
    let port: Int
    let process: ChildProcess

    /// - Parameters:
    ///   - nmeaPort: the NMEA server gpsd reads (its one device); `nil`: gpsd without a device.
    ///   - options: more gpsd options (`-n`: open the device without waiting for a client).
    convenience init(nmeaPort: Int?, port: Int = freeLoopbackPort(), options: [String] = []) throws {
        try self.init(devicePath: nmeaPort.map { "tcp://127.0.0.1:\($0)" }, port: port, options: options)
    }

    /// A gpsd reading `devicePath` (a serial device, `tcp://…`), or no device.
    init(devicePath: String?, port: Int = freeLoopbackPort(), options: [String] = []) throws {
        self.port = port
        process = try ChildProcess("/usr/sbin/gpsd", ["-N", "-S", String(port)] + options + (devicePath.map { [$0] } ?? []))
        guard waitUntil(timeout: 10, { isListening(port: port) }) else {
            kill()
            throw GPSDError("gpsd did not start listening on port \(port)")
        }
    }

    func kill() { process.stop(SIGKILL) }

    deinit { kill() }

    /// Removes the SysV shared-memory segments gpsd leaves behind (its export segment, "GPSD",
    /// the NTP segments "NTP0"…, and the one per gpsd that gpsfake starts): only those nobody is
    /// attached to.
    static func removeLeftoverSharedMemory() {
        guard let ipcs = try? ChildProcess.run("/usr/bin/ipcs", ["-m"]) else { return }
        for line in ipcs.out.split(separator: "\n") {
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            guard f.count >= 6, f[0].hasPrefix("0x") else { continue }
            let key = f[0].lowercased()
            // "GPSD", "NTP0".."NTP7", and gpsfake's gpsd's (0x4770 and its port in hex).
            let gpsdKey = key == "0x47505344" || key.hasPrefix("0x4e54503") || (key.hasPrefix("0x4770") && key.count == 10)
            guard gpsdKey, f[5] == "0" else { continue }
            _ = try? ChildProcess.run("/usr/bin/ipcrm", ["-m", String(f[1])])
        }
    }
}

/// gpsd's reference client, `gpspipe -w`, writing what it sees to a file.
final class GPSPipe {
    let outputPath: String
    let process: ChildProcess

    init(gpsdPort: Int) throws {
        outputPath = NSTemporaryDirectory() + "oarlog-gpspipe-\(getpid())-\(gpsdPort)-\(UInt32.random(in: 0...UInt32.max)).json"
        FileManager.default.createFile(atPath: outputPath, contents: nil)
        process = try ChildProcess("/usr/bin/gpspipe", ["-w", "127.0.0.1:\(gpsdPort)"], output: outputPath)
        guard waitUntil(timeout: 10, { text.contains("\"class\":\"WATCH\"") }) else {
            throw GPSDError("gpspipe did not start watching gpsd on port \(gpsdPort)")
        }
    }

    var text: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    func stop() { process.stop(SIGKILL) }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: outputPath)
    }
}
