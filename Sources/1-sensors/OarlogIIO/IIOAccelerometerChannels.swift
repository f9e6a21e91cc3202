import OarlogCore

/// Turns a channel's raw integer into m/s²: `(raw + offset) × scale`, as the IIO ABI defines
/// (`in_accel_scale` is already in m/s² per count).
public struct IIOAxisConversion: Sendable, Equatable {
    public var scale: Double
    public var offset: Double
    public init(scale: Double, offset: Double = 0) {
        self.scale = scale
        self.offset = offset
    }
    @inlinable
    public func acceleration(raw: Int64) -> MetresPerSecondSquared {
        MetresPerSecondSquared((Double(raw) + offset) * scale)
    }
}

/// A device's x/y/z acceleration channels (and its timestamp channel, if any) with what is
/// needed to convert them. Reads `scale` (shared `in_accel_scale` or per-channel
/// `in_accel_x_scale`; libiio shows both as the channel's `scale`) and the optional `offset`.
struct IIOAccelerometerChannels {
    let x: IIOChannel, y: IIOChannel, z: IIOChannel
    let timestamp: IIOChannel?
    let conversions: (x: IIOAxisConversion, y: IIOAxisConversion, z: IIOAxisConversion)

    init(device: IIODevice) throws {
        func axis(_ id: String) throws -> (IIOChannel, IIOAxisConversion) {
            guard let channel = device.channel(id) else { throw IIOError.missingChannel(device: device.displayName, channel: id) }
            guard channel.hasAttribute("scale") else { throw IIOError.missingScale(device: device.displayName, channel: id) }
            let scale = try channel.readDouble("scale")
            guard scale.isFinite, scale != 0 else {
                throw IIOError.attribute(device: device.displayName, name: "\(id) scale", reason: "unusable value \(scale)")
            }
            let offset = channel.hasAttribute("offset") ? try channel.readDouble("offset") : 0
            return (channel, IIOAxisConversion(scale: scale, offset: offset))
        }
        let (cx, vx) = try axis("accel_x")
        let (cy, vy) = try axis("accel_y")
        let (cz, vz) = try axis("accel_z")
        x = cx; y = cy; z = cz
        conversions = (vx, vy, vz)
        timestamp = device.channel("timestamp").flatMap { $0.isScanElement ? $0 : nil }
    }

    /// Whether all three axes can be streamed through a buffer.
    var areScanElements: Bool { x.isScanElement && y.isScanElement && z.isScanElement }
}
