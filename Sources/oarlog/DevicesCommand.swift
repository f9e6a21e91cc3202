import ArgumentParser
import OarlogIIO
import OarlogReport
#if canImport(Glibc)
import Glibc
#endif

/// `oarlog devices`: the IIO devices (accelerometers) and the GPS receivers gpsd has, with what
/// each can do — the first thing to run after wiring a board.
struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List IIO devices (accelerometers) and gpsd's GPS receivers, with what each can do.",
        discussion: """
            IIO devices come from libiio (--uri local: on the board, ip:HOST through iiod); for each:
            whether it is an accelerometer, its scale, buffered reads and scan types, the timestamp
            channel and its clock, the sampling frequency. GPS receivers come from gpsd's ?DEVICES
            (path, driver, speed, cycle). Exits non-zero when no accelerometer was found.
            """
    )

    @Option(help: "libiio context: local: on the board, ip:HOST (iiod) from another machine.")
    var uri = "local:"

    @Option(help: "gpsd host.")
    var gpsdHost = "localhost"

    @Option(help: "gpsd port.")
    var gpsdPort = 2947

    func validate() throws {
        guard (1...65535).contains(gpsdPort) else { throw ValidationError("--gpsd-port must be 1–65535") }
    }

    func run() throws {
        var accelerometers = 0
        StandardStreams.write("IIO devices at \(uri) (libiio \(IIOContext.libraryVersion)):\n")
        do {
            let devices = try IIODeviceSummary.list(uri: uri)
            if devices.isEmpty {
                StandardStreams.write("  none (is the sensor's device-tree overlay loaded? see hardware/SETUP.md)\n")
            }
            for d in devices {
                if d.isAccelerometer { accelerometers += 1 }
                for line in d.lines { StandardStreams.write("  " + line + "\n") }
            }
        } catch {
            StandardStreams.write("  \(error)\n")
        }

        StandardStreams.write("GPS receivers in gpsd at \(gpsdHost):\(gpsdPort):\n")
        switch GPSDDeviceQuery.devices(host: gpsdHost, port: gpsdPort, timeout: 3) {
        case .success(let receivers):
            if receivers.isEmpty { StandardStreams.write("  none (gpsd runs but has no device: check /etc/default/gpsd DEVICES=)\n") }
            for r in receivers { StandardStreams.write("  " + r + "\n") }
        case .failure(let error):
            StandardStreams.write("  \(error.text)\n")
        }
        if accelerometers == 0 { throw ExitCode(1) }
    }
}

/// Asks gpsd for its devices (`?DEVICES;`) over a plain socket and describes each.
enum GPSDDeviceQuery {
    struct Failure: Error { let text: String }

    static func devices(host: String, port: Int, timeout: Double) -> Result<[String], Failure> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            return .failure(Failure(text: "gpsd: cannot resolve \(host)"))
        }
        defer { freeaddrinfo(list) }
        let fd = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard fd >= 0 else { return .failure(Failure(text: "gpsd: no socket: \(String(cString: strerror(errno)))")) }
        defer { close(fd) }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        guard connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            return .failure(Failure(text: "gpsd not reachable at \(host):\(port) (\(String(cString: strerror(errno)))): is gpsd running? systemctl status gpsd"))
        }
        let request = "?DEVICES;\n"
        _ = request.withCString { send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        var text = ""
        var chunk = [UInt8](repeating: 0, count: 4096)
        while text.count < 1_000_000 {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { break }
            text += String(decoding: chunk[0..<n], as: UTF8.self)
            // gpsd ends lines with CR LF, one Character in Swift: split on any line end.
            let lines = text.split(whereSeparator: { $0.isNewline })
            if text.last?.isNewline == true, let line = lines.first(where: { $0.contains("\"class\":\"DEVICES\"") }) {
                return .success(describe(devicesLine: String(line)))
            }
        }
        return .failure(Failure(text: "gpsd at \(host):\(port) did not answer ?DEVICES within \(Int(timeout)) s"))
    }

    /// One line per `{"class":"DEVICE",...}` object of a DEVICES report.
    static func describe(devicesLine line: String) -> [String] {
        let parts = line.components(separatedBy: "{\"class\":\"DEVICE\"").dropFirst()
        return parts.map { object in
            var facts: [String] = []
            if let driver = string("driver", in: object) { facts.append("driver \(driver)" + (string("subtype", in: object).map { " (\($0))" } ?? "")) }
            if let bps = number("bps", in: object) { facts.append("\(bps) bps") }
            if let cycle = number("cycle", in: object) { facts.append("cycle \(cycle) s") }
            facts.append(string("activated", in: object) != nil || number("activated", in: object).map { $0 != "0" } == true ? "active" : "not active")
            return (string("path", in: object) ?? "?") + ": " + facts.joined(separator: ", ")
        }
    }

    static func string(_ key: String, in text: String) -> String? {
        guard let r = text.firstRange(of: "\"\(key)\":\"") else { return nil }
        let rest = text[r.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }

    static func number(_ key: String, in text: String) -> String? {
        guard let r = text.firstRange(of: "\"\(key)\":") else { return nil }
        let rest = text[r.upperBound...]
        let value = rest.prefix { "0123456789.-".contains($0) }
        return value.isEmpty ? nil : String(value)
    }
}

extension String {
    /// Splits on a separator string (no Foundation).
    fileprivate func components(separatedBy separator: String) -> [String] {
        var out: [String] = []
        var rest = self[...]
        while let r = rest.firstRange(of: separator) {
            out.append(String(rest[..<r.lowerBound]))
            rest = rest[r.upperBound...]
        }
        out.append(String(rest))
        return out
    }
}
