import CGPS
import OarlogCore
import OarlogLive

/// A GPS receiver as gpsd describes it in its DEVICES report.
public struct GPSDReceiverDescription: Sendable, Equatable, CustomStringConvertible {
    /// What gpsd reads: `/dev/ttyACM0`, `tcp://host:port`.
    public var path: String
    /// gpsd's driver for it (`NMEA0183`, `u-blox`, …), once it has recognised the receiver.
    public var driver: String?
    /// What the receiver said it is (hardware, then firmware, when it said).
    public var subtype: String?
    /// Serial speed, for a serial line.
    public var bitsPerSecond: Int?
    /// The receiver's reporting cycle.
    public var cycle: Seconds?
    /// gpsd has the device open and active.
    public var isActive: Bool

    public init(path: String, driver: String? = nil, subtype: String? = nil, bitsPerSecond: Int? = nil,
                cycle: Seconds? = nil, isActive: Bool) {
        self.path = path
        self.driver = driver
        self.subtype = subtype
        self.bitsPerSecond = bitsPerSecond
        self.cycle = cycle
        self.isActive = isActive
    }

    /// One of libgps's parsed `devconfig_t`.
    init(_ device: UnsafePointer<devconfig_t>) {
        func text(_ p: UnsafePointer<CChar>?) -> String? {
            guard let p else { return nil }
            let s = String(cString: p)
            return s.isEmpty ? nil : s
        }
        let subtypes = [text(oarlog_gps_device_subtype(device)), text(oarlog_gps_device_subtype1(device))].compactMap { $0 }
        let bps = Int(oarlog_gps_device_bps(device))
        let cycle = oarlog_gps_device_cycle(device)
        self.init(path: text(oarlog_gps_device_path(device)) ?? "?",
                  driver: text(oarlog_gps_device_driver(device)),
                  subtype: subtypes.isEmpty ? nil : subtypes.joined(separator: ", "),
                  bitsPerSecond: bps > 0 ? bps : nil,
                  cycle: cycle.isFinite ? cycle : nil,
                  isActive: oarlog_gps_device_active(device) != 0)
    }

    /// `/dev/ttyACM0: driver u-blox (SW 2.01), 9600 bps, cycle 1 s, active`.
    public var description: String {
        var facts: [String] = []
        if let driver { facts.append("driver \(driver)" + (subtype.map { " (\($0))" } ?? "")) }
        if let bitsPerSecond { facts.append("\(bitsPerSecond) bps") }
        if let cycle { facts.append("cycle \(Self.secondsText(cycle)) s") }
        facts.append(isActive ? "active" : "not active")
        return path + ": " + facts.joined(separator: ", ")
    }

    /// "1", "0.2", "0.125": at most millisecond precision, no trailing zeros.
    static func secondsText(_ s: Seconds) -> String {
        guard s.isFinite, s >= 0, s < 1e9 else { return String(s) }
        var text = DecimalText.fixed(s, places: 3, nonFinite: "")
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}

/// The receivers a gpsd has, asked through libgps (`?DEVICES;`).
public enum GPSDDevices {
    /// Connects to gpsd, sends `?DEVICES;` and returns the receivers of its answer (gpsd lists
    /// the devices it has open: with `-n`, or while a client watches). Throws `GPSDError` when
    /// gpsd cannot be reached or does not answer within `timeout` seconds.
    public static func list(host: String = "localhost", port: Int = 2947, timeout: Seconds = 3) throws -> [GPSDReceiverDescription] {
        let client: GPSDClient
        do {
            client = try GPSDClient(host: host, port: port, device: nil, watch: false)
        } catch let error as GPSDError {
            throw GPSDError("\(error.description) (is gpsd running? systemctl status gpsd)")
        }
        defer { client.close() }
        try client.send("?DEVICES;")
        let clock = MonotonicClock()
        let deadline = clock.now() + timeout
        while true {
            let left = deadline - clock.now()
            guard left > 0, client.waitForData(timeout: left) else {
                throw GPSDError("gpsd at \(host):\(port) did not answer ?DEVICES within \(tenthsOfSecondText(timeout)) s")
            }
            if case .other("DEVICES")? = try client.read() {
                return client.reportedReceivers
            }
        }
    }
}
