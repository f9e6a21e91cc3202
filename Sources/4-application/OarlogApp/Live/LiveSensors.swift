import OarlogCore
import OarlogGPS
import OarlogHeartRate
import OarlogIIO
import OarlogLive
import Synchronization

/// Which sensors a live session reads: the accelerometer through IIO, the GPS through gpsd and
/// the heart-rate straps through bluetoothd, any of which may be left out.
public struct LiveSensorChoice: Sendable, Equatable {
    /// The IIO accelerometer (nil: none).
    public var accelerometer: IIOAccelerometerConfiguration?
    /// gpsd (nil: no GPS).
    public var gpsd: GPSDSourceConfiguration?
    /// The heart-rate straps through bluetoothd (nil or none assigned: no heart rate).
    public var heartRate: HeartRateStrapChoice?

    public init(accelerometer: IIOAccelerometerConfiguration?, gpsd: GPSDSourceConfiguration?, heartRate: HeartRateStrapChoice? = nil) {
        self.accelerometer = accelerometer
        self.gpsd = gpsd
        self.heartRate = heartRate
    }

    /// `host:port` → (host, port); a bare host gets gpsd's port; nil for anything else.
    public static func hostPort(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":") else { return text.isEmpty ? nil : (text, 2947) }
        let host = String(text[..<colon])
        guard let port = Int(text[text.index(after: colon)...]), (1...65535).contains(port) else { return nil }
        return (host.isEmpty ? "localhost" : host, port)
    }
}

/// The sensors of a live session, opened: the device readers that answered (a GPS missing at the
/// start is still watched, in case gpsd comes up later), and one line per sensor for the
/// session's metadata ("absent …" for one that did not answer).
public struct LiveSensors {
    public var sources: [any LiveRecordSource] = []
    public var devices: [String] = []
    public var accelerometerRate: Hertz?
    /// Why each missing sensor is missing.
    public var problems: [String] = []

    public var hasAccelerometer: Bool { devices.contains { $0.hasPrefix("accelerometer:") && !$0.contains("absent") } }
    public var answered: Bool { devices.contains { !$0.contains("absent") } }

    /// Opens what answers; `log` gets one line per sensor and, later, the readers' own lines (a
    /// GPS that was missing at the start is reported once when it appears, not on every retry).
    public static func open(_ choice: LiveSensorChoice, clock: SessionClock, log: @escaping @Sendable (String) -> Void,
                            shouldStop: @escaping @Sendable () -> Bool) -> LiveSensors {
        var sensors = LiveSensors()
        if let configuration = choice.accelerometer {
            do {
                let setup = try IIOAccelerometerReader(configuration: configuration, clock: clock).setup
                sensors.devices.append("accelerometer: \(setup.device) at \(configuration.uri)")
                sensors.accelerometerRate = setup.samplingFrequency ?? (setup.mode == .polling ? setup.pollingRate : nil)
                sensors.sources.append(IIOAccelerometerSource(configuration: configuration, clock: clock, log: log, shouldStop: shouldStop))
                log("accelerometer: \(setup)")
            } catch {
                sensors.problems.append("no accelerometer (\(error))")
                sensors.devices.append("accelerometer: absent (\(error))")
                log("no accelerometer at \(configuration.uri): \(error) — recording without strokes")
            }
        }
        if let configuration = choice.gpsd {
            let place = "gpsd \(configuration.host):\(configuration.port)"
            let reachable: Bool
            do {
                _ = try GPSDClient(host: configuration.host, port: configuration.port)
                reachable = true
                sensors.devices.append("gps: \(place)")
                log("gps: \(place)")
            } catch {
                reachable = false
                sensors.problems.append("no GPS (\(error))")
                sensors.devices.append("gps: absent at start (\(place): \(error))")
                log("no GPS: \(place): \(error) — recording without distance or split; gpsd is watched in case it starts")
            }
            let quiet = Atomic<Bool>(!reachable)
            sensors.sources.append(GPSDSource(
                configuration: configuration, clock: clock,
                log: { line in
                    if line.hasPrefix("gpsd: watching") {
                        if quiet.exchange(false, ordering: .relaxed) { log("GPS found: \(line)") }
                        return
                    }
                    if !quiet.load(ordering: .relaxed) { log(line) }
                },
                shouldStop: shouldStop))
        }
        if let choice = choice.heartRate, let straps = HeartRateStraps.source(for: choice, clock: clock, log: log, shouldStop: shouldStop) {
            let seats = choice.straps.prefix(HeartRateStrapConfiguration.maximumStraps).map { "\($0.seat) \($0.address)" }
            sensors.devices.append("heart rate: \(seats.joined(separator: ", ")) through bluetoothd")
            sensors.sources.append(straps)
            log("heart rate: reading \(seats.count) strap\(seats.count == 1 ? "" : "s") (\(seats.joined(separator: ", ")))")
        }
        return sensors
    }
}
