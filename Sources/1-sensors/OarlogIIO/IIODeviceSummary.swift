/// What one IIO device can do, for `oarlog devices`: read from the context, nothing changed.
public struct IIODeviceSummary: Sendable, Equatable {
    public var id: String
    public var name: String?
    /// Channel ids (`accel_x`, `anglvel_x`, `temp`, `timestamp`), input channels only.
    public var channels: [String]
    /// Has accel_x, accel_y and accel_z.
    public var isAccelerometer: Bool
    /// Can stream through a buffer (has scan elements); otherwise only polling.
    public var isBufferCapable: Bool
    public var hasTimestampChannel: Bool
    public var samplingFrequency: String?
    public var availableFrequencies: String?
    public var timestampClock: String?
    /// Scale of accel_x (m/s² per count), when it is an accelerometer with a scale.
    public var accelerationScale: Double?
    /// Scan types of accel_x/y/z as libiio read them.
    public var accelerationTypes: [String]
    public var isTrigger: Bool

    public init(device: IIODevice) {
        id = device.id
        name = device.name
        isTrigger = device.isTrigger
        let inputs = device.channels.filter { !$0.isOutput }
        channels = inputs.map(\.id)
        isAccelerometer = device.hasAccelerometerChannels
        isBufferCapable = device.isBufferCapable
        hasTimestampChannel = device.channel("timestamp")?.isScanElement ?? false
        let x = device.channel("accel_x")
        func attribute(_ name: String) -> String? {
            if device.hasAttribute(name) { return try? device.read(name) }
            if let x, x.hasAttribute(name) { return try? x.read(name) }
            return nil
        }
        samplingFrequency = attribute("sampling_frequency")
        availableFrequencies = attribute("sampling_frequency_available")
        timestampClock = device.hasAttribute("current_timestamp_clock") ? try? device.read("current_timestamp_clock") : nil
        accelerationScale = x.flatMap { $0.hasAttribute("scale") ? try? $0.readDouble("scale") : nil }
        accelerationTypes = isAccelerometer
            ? ["accel_x", "accel_y", "accel_z"].compactMap { id in device.channel(id).flatMap { $0.isScanElement ? (try? $0.scanFormat())?.description ?? "unreadable" : nil } }
            : []
    }

    /// Every device of the context at `uri`.
    public static func list(uri: String) throws -> [IIODeviceSummary] {
        try IIOContext(uri: uri).devices.map(IIODeviceSummary.init(device:))
    }

    /// One line per fact, indented, for a person checking the wiring.
    public var lines: [String] {
        var out = ["\(name ?? "(no name)") (\(id))" + (isTrigger ? " — a trigger" : "")]
        if isAccelerometer {
            out.append("  accelerometer: x/y/z" + (accelerationScale.map { ", scale \($0) m/s² per count" } ?? ", NO SCALE"))
            out.append(isBufferCapable
                ? "  buffered reads: yes" + (accelerationTypes.isEmpty ? "" : " (type \(accelerationTypes.joined(separator: " ")))")
                : "  buffered reads: no (no scan elements: Oarlog polls in_accel_*_raw)")
            out.append("  timestamp channel: " + (hasTimestampChannel ? "yes" + (timestampClock.map { ", clock \($0)" } ?? ", clock not settable (real-time)") : "no"))
        }
        out.append("  channels: " + (channels.isEmpty ? "none" : channels.joined(separator: " ")))
        if let samplingFrequency {
            out.append("  sampling frequency: \(samplingFrequency) Hz" + (availableFrequencies.map { " (available: \($0))" } ?? ""))
        }
        return out
    }
}
