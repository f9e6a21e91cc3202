import OarlogCore

/// How the sensor sits in the boat: the rotation from the boat's frame to the sensor's frame.
///
/// Boat frame: x towards the bow, y to port, z up (a level boat at rest measures (0, 0, +9.81)).
/// The sensor's axes are the boat's axes turned by `yaw` about z, then `pitch` about the new y,
/// then `roll` about the newest x (intrinsic Z-Y-X, degrees). So `flat` (all zero) reads surge on
/// x and gravity on +z; `upright` (yaw 90, roll 90) is a phone standing in portrait with its
/// screen facing the rower (towards the bow): gravity on +y, surge on +z.
public struct Mounting: Sendable, Equatable, CustomStringConvertible {
    public var yaw: Degrees
    public var pitch: Degrees
    public var roll: Degrees

    public init(yaw: Degrees = 0, pitch: Degrees = 0, roll: Degrees = 0) {
        self.yaw = yaw
        self.pitch = pitch
        self.roll = roll
    }

    /// Sensor axes are the boat's axes.
    public static let flat = Mounting()
    /// A phone in portrait, screen towards the bow (facing the rower): gravity on +y, surge on +z.
    public static let upright = Mounting(yaw: 90, pitch: 0, roll: 90)
    /// An arbitrary skewed mount, as on an angled rigger bracket.
    public static let tilted = Mounting(yaw: 30, pitch: -25, roll: 15)
    /// Flat but upside down (turned about the boat's long axis): gravity on -z.
    public static let upsideDown = Mounting(yaw: 0, pitch: 0, roll: 180)

    /// Preset names accepted by `parse`.
    public static let presetNames = ["flat", "upright", "tilted", "upside-down"]

    /// Parses a preset name (`flat`, `upright`, `tilted`, `upside-down`) or explicit angles
    /// `yaw=30,pitch=-80,roll=10` (degrees; a missing angle is 0).
    public static func parse(_ text: String) throws -> Mounting {
        let trimmed = text.trimmingWhitespace().lowercased()
        switch trimmed {
        case "flat": return .flat
        case "upright": return .upright
        case "tilted": return .tilted
        case "upside-down", "upsidedown", "upside_down": return .upsideDown
        default: break
        }
        var mounting = Mounting()
        var sawAngle = false
        for part in trimmed.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { String($0).trimmingWhitespace() }
            guard pair.count == 2, let value = Double(pair[1]), value.isFinite else {
                throw SimulationConfigurationError(
                    "mounting '\(text)': expected a preset (\(presetNames.joined(separator: ", "))) or yaw=…,pitch=…,roll=… in degrees")
            }
            switch pair[0] {
            case "yaw": mounting.yaw = value
            case "pitch": mounting.pitch = value
            case "roll": mounting.roll = value
            default:
                throw SimulationConfigurationError("mounting '\(text)': unknown angle '\(pair[0])' (use yaw, pitch, roll)")
            }
            sawAngle = true
        }
        guard sawAngle else {
            throw SimulationConfigurationError("mounting '\(text)': expected a preset or yaw=…,pitch=…,roll=…")
        }
        return mounting
    }

    public var description: String {
        func angle(_ degrees: Double) -> String { DecimalText.fixed(degrees, places: 1, nonFinite: "") }
        return "yaw=\(angle(yaw)),pitch=\(angle(pitch)),roll=\(angle(roll))"
    }

    /// The rotation taking sensor-frame vectors to boat-frame vectors (its columns are the
    /// sensor's axes written in boat coordinates). Its transpose takes boat to sensor.
    public var sensorToBoat: Rotation3 {
        Rotation3.aboutZ(yaw * degreesToRadians)
            * Rotation3.aboutY(pitch * degreesToRadians)
            * Rotation3.aboutX(roll * degreesToRadians)
    }
}

/// A 3×3 rotation matrix, row-major; small and allocation-free.
public struct Rotation3: Sendable, Equatable {
    public var m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

    public init(_ m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)) {
        self.m = m
    }

    public static func == (a: Rotation3, b: Rotation3) -> Bool {
        a.m.0 == b.m.0 && a.m.1 == b.m.1 && a.m.2 == b.m.2 && a.m.3 == b.m.3 && a.m.4 == b.m.4
            && a.m.5 == b.m.5 && a.m.6 == b.m.6 && a.m.7 == b.m.7 && a.m.8 == b.m.8
    }

    public static func aboutX(_ angle: Double) -> Rotation3 {
        let c = _cos(angle), s = _sin(angle)
        return Rotation3((1, 0, 0, 0, c, -s, 0, s, c))
    }

    public static func aboutY(_ angle: Double) -> Rotation3 {
        let c = _cos(angle), s = _sin(angle)
        return Rotation3((c, 0, s, 0, 1, 0, -s, 0, c))
    }

    public static func aboutZ(_ angle: Double) -> Rotation3 {
        let c = _cos(angle), s = _sin(angle)
        return Rotation3((c, -s, 0, s, c, 0, 0, 0, 1))
    }

    public var transposed: Rotation3 {
        Rotation3((m.0, m.3, m.6, m.1, m.4, m.7, m.2, m.5, m.8))
    }

    @inline(__always)
    public func apply(_ v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(m.0 * v.x + m.1 * v.y + m.2 * v.z,
              m.3 * v.x + m.4 * v.y + m.5 * v.z,
              m.6 * v.x + m.7 * v.y + m.8 * v.z)
    }

    public static func * (a: Rotation3, b: Rotation3) -> Rotation3 {
        let x = a.m, y = b.m
        return Rotation3((
            x.0 * y.0 + x.1 * y.3 + x.2 * y.6, x.0 * y.1 + x.1 * y.4 + x.2 * y.7, x.0 * y.2 + x.1 * y.5 + x.2 * y.8,
            x.3 * y.0 + x.4 * y.3 + x.5 * y.6, x.3 * y.1 + x.4 * y.4 + x.5 * y.7, x.3 * y.2 + x.4 * y.5 + x.5 * y.8,
            x.6 * y.0 + x.7 * y.3 + x.8 * y.6, x.6 * y.1 + x.7 * y.4 + x.8 * y.7, x.6 * y.2 + x.7 * y.5 + x.8 * y.8
        ))
    }
}
