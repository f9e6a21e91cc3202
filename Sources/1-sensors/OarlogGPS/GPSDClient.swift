import CGPS
import OarlogCore
#if canImport(Glibc)
import Glibc
#endif

/// Why talking to gpsd failed: could not connect, the connection ended, or gpsd sent something
/// that is not its JSON protocol.
public struct GPSDError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// One report read from gpsd, as far as Oarlog cares.
public enum GPSDMessage: Sendable, Equatable {
    /// A position report (TPV); `receivedAt` is left 0 for the caller to stamp.
    case tpv(GPSDReport)
    /// A satellite report (SKY): how many satellites the solution uses.
    case sky(satellitesUsed: Int)
    /// A device appeared (`active`) or was closed by gpsd (unplugged, stream ended).
    case device(path: String, active: Bool)
    /// gpsd's own ERROR report.
    case error(String)
    /// Anything else (VERSION, DEVICES, WATCH, …), by its class name.
    case other(String)
}

/// A thin typed wrapper over libgps: `gps_open`, `gps_stream` (WATCH), `gps_waiting`, `gps_read`,
/// `gps_close`. The ~24 KB `gps_data_t` is allocated once on the heap and freed in `deinit`.
/// Not thread-safe: one thread owns a client (`GPSDSource`'s reader thread).
public final class GPSDClient {
    public let host: String
    public let port: Int
    public let device: String?
    private let data: UnsafeMutablePointer<gps_data_t>
    private let message: UnsafeMutablePointer<CChar>
    private let messageCapacity = 2048
    private var isOpen = false
    private var isWatching = false

    /// Connects to gpsd and asks for JSON reports (of `device` only, when given).
    public convenience init(host: String = "localhost", port: Int = 2947, device: String? = nil) throws {
        try self.init(host: host, port: port, device: device, watch: true)
    }

    /// Connects to gpsd; with `watch`, asks for JSON reports (WATCH), else only connects (for
    /// commands such as `?DEVICES;`).
    init(host: String, port: Int, device: String?, watch: Bool) throws {
        self.host = host
        self.port = port
        self.device = device
        data = .allocate(capacity: 1)
        data.initialize(to: gps_data_t())
        message = .allocate(capacity: messageCapacity)
        message.initialize(repeating: 0, count: messageCapacity)
        errno = 0
        let status = gps_open(host, String(port), data)
        guard status == 0 else {
            // libgps leaves its own (negative) netlib code, or the system's, in errno.
            let code = errno
            throw GPSDError("cannot connect to gpsd at \(host):\(port): \(Self.errorText(code != 0 ? code : status))")
        }
        isOpen = true
        guard watch else { return }
        isWatching = true
        let watched: Int32 = device.map { oarlog_gps_watch(data, $0) } ?? oarlog_gps_watch(data, nil)
        guard watched == 0 else {
            throw GPSDError("gpsd at \(host):\(port) refused the WATCH request: \(Self.errorText(watched))")
        }
    }

    deinit {
        close()
        message.deallocate()
        data.deinitialize(count: 1)
        data.deallocate()
    }

    /// Closes the connection (idempotent).
    public func close() {
        guard isOpen else { return }
        isOpen = false
        if isWatching { oarlog_gps_unwatch(data) }
        gps_close(data)
    }

    /// Sends one command to gpsd (`?DEVICES;`); its answer comes through `read()`.
    func send(_ command: String) throws {
        guard isOpen else { throw GPSDError("not connected") }
        errno = 0
        guard oarlog_gps_send(data, command) == 0 else {
            let reason = errno != 0 ? String(cString: strerror(errno)) : "write failed"
            throw GPSDError("cannot send \(command) to gpsd at \(host):\(port): \(reason)")
        }
    }

    /// The receivers of the latest DEVICES report read (libgps's parsed `devices` list).
    var reportedReceivers: [GPSDReceiverDescription] {
        (0..<oarlog_gps_device_count(data)).map { i in
            GPSDReceiverDescription(oarlog_gps_device_at(data, Int32(i)))
        }
    }

    /// True when a report (or part of one) is waiting, after waiting at most `timeout` seconds.
    public func waitForData(timeout: Seconds) -> Bool {
        guard isOpen else { return false }
        return gps_waiting(data, Int32(max(0, min(timeout, 60)) * 1_000_000))
    }

    /// Reads one report. `nil` when only part of a line had arrived. Throws when the connection
    /// ended or gpsd sent something that is not its JSON.
    public func read() throws -> GPSDMessage? {
        guard isOpen else { throw GPSDError("not connected") }
        message[0] = 0
        errno = 0
        let n = oarlog_gps_read(data, message, Int32(messageCapacity))
        if n < 0 {
            let reason = errno != 0 ? String(cString: strerror(errno)) : "connection closed or unreadable report"
            throw GPSDError("lost gpsd at \(host):\(port): \(reason)")
        }
        if n == 0 { return nil }
        return try classify()
    }

    /// Sorts the report just read by its JSON class (the raw line is in `message`).
    private func classify() throws -> GPSDMessage {
        let line = String(cString: message)
        guard let cls = Self.stringValue(of: "class", in: line) else {
            throw GPSDError("gpsd at \(host):\(port) sent something that is not gpsd JSON: \(line.prefix(80).debugDescription)")
        }
        switch cls {
        case "TPV":
            return .tpv(currentReport())
        case "SKY":
            return .sky(satellitesUsed: Int(oarlog_gps_satellites_used(data)))
        case "DEVICE":
            let path = Self.stringValue(of: "path", in: line) ?? "?"
            return .device(path: path, active: !Self.contains("\"activated\":0", in: line))
        case "ERROR":
            return .error(Self.stringValue(of: "message", in: line) ?? line)
        default:
            return .other(cls)
        }
    }

    /// The TPV libgps has just parsed into `data.fix`.
    private func currentReport() -> GPSDReport {
        let fix = data.pointee.fix
        let ns = withUnsafePointer(to: data.pointee.fix) { oarlog_gps_fix_time_ns($0) }
        let altitude = withUnsafePointer(to: data.pointee.fix) { oarlog_gps_fix_altitude_msl($0) }
        return GPSDReport(
            utcNanoseconds: ns == 0 ? nil : ns,
            latitude: fix.latitude, longitude: fix.longitude,
            speed: fix.speed.finiteOrNil, course: fix.track.finiteOrNil, altitude: altitude.finiteOrNil,
            horizontalError: fix.eph.finiteOrNil, longitudeError: fix.epx.finiteOrNil,
            latitudeError: fix.epy.finiteOrNil, speedError: fix.eps.finiteOrNil,
            verticalError: fix.epv.finiteOrNil,
            mode: FixMode(rawValue: Int(fix.mode)) ?? .unknown)
    }

    /// The string value of `"key":"…"` in a JSON line (gpsd's flat reports; no escapes needed
    /// for the keys read here).
    static func stringValue(of key: String, in line: String) -> String? {
        let marker = Array(("\"" + key + "\":\"").utf8)
        let bytes = Array(line.utf8)
        guard bytes.count >= marker.count else { return nil }
        var i = 0
        while i + marker.count <= bytes.count {
            if bytes[i] == marker[0] && Array(bytes[i..<(i + marker.count)]) == marker {
                let start = i + marker.count
                var end = start
                while end < bytes.count && bytes[end] != 0x22 { end += 1 }
                guard end < bytes.count else { return nil }
                return String(decoding: bytes[start..<end], as: UTF8.self)
            }
            i += 1
        }
        return nil
    }

    static func contains(_ needle: String, in line: String) -> Bool {
        let n = Array(needle.utf8), b = Array(line.utf8)
        guard !n.isEmpty, b.count >= n.count else { return false }
        for i in 0...(b.count - n.count) where b[i] == n[0] && Array(b[i..<(i + n.count)]) == n { return true }
        return false
    }

    /// libgps's text for an error status (negative codes are its own; otherwise errno).
    static func errorText(_ status: Int32) -> String {
        if status > 0 { return String(cString: strerror(status)) }
        if let text = gps_errstr(status) { return String(cString: text) }
        return "error \(status)"
    }
}
