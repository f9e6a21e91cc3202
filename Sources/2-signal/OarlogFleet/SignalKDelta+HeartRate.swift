import OarlogCore

/// The crew's heart rates in a status message. Signal K has no standard path for a rower's heart
/// rate, so Oarlog has its own under `performance.rowing`, in Signal K's unit for a rate (Hz:
/// beats per second), with `meta` giving the unit and what it is, as Signal K's delta allows:
/// - `performance.rowing.heartRate`: a single strap without a seat;
/// - `performance.rowing.crew.SEAT.heartRate`: the strap at SEAT (`stroke`, `bow`, `7`; a
///   character other than a letter, digit, `_` or `-` becomes `_`).
extension SignalKDelta {
    public static let crew = rowing + "crew."
    /// A seat's name in a path is at most this many bytes.
    static let seatBytes = 16

    /// The path of a strap's heart rate.
    public static func heartRatePath(_ sensor: String?) -> String {
        guard let sensor else { return rowing + "heartRate" }
        return crew + pathSegment(sensor) + ".heartRate"
    }

    /// A seat's name as one segment of a Signal K path.
    static func pathSegment(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars.prefix(seatBytes) {
            let c = scalar.value
            let plain = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c == 0x2D
            out.unicodeScalars.append(plain ? scalar : "_")
        }
        return out.isEmpty ? "_" : out
    }

    /// The values (path, JSON) of the heart rates, in Hz.
    static func heartRateValues(_ rates: [FleetHeartRate]) -> [(String, String)] {
        rates.prefix(FleetHeartRate.maximumSensors).map { (heartRatePath($0.sensor), number($0.bpm / 60)) }
    }

    /// The `meta` entries (path, JSON) that say what the heart-rate paths hold.
    static func heartRateMeta(_ rates: [FleetHeartRate]) -> [(String, String)] {
        rates.prefix(FleetHeartRate.maximumSensors).map { rate in
            let whose = rate.sensor.map { "the rower at seat \(FleetText.clip($0, bytes: seatBytes))" } ?? "the rower"
            let description = "Heart rate of \(whose), in beats per second (Hz); × 60 for beats per minute"
            return (heartRatePath(rate.sensor), "{\"units\":\"Hz\",\"description\":\(JSONString.quoted(description))}")
        }
    }

    /// The heart rates in a status's values, by seat name (a single unnamed strap first); a rate
    /// outside 20–250 bpm is left out, and at most `FleetHeartRate.maximumSensors` are read.
    static func heartRates(in values: Values) -> [FleetHeartRate] {
        var rates: [FleetHeartRate] = []
        for (path, _) in values.byPath {
            let sensor: String?
            if path == rowing + "heartRate" {
                sensor = nil
            } else if path.hasPrefix(crew), path.hasSuffix(".heartRate") {
                let seat = path.dropFirst(crew.count).dropLast(".heartRate".count)
                guard !seat.isEmpty, seat.utf8.count <= seatBytes, !seat.contains(".") else { continue }
                sensor = String(seat)
            } else {
                continue
            }
            guard let hz = values.number(path) else { continue }
            let bpm = (hz * 60 * 100).rounded() / 100
            guard bpm >= 20, bpm <= 250 else { continue }
            rates.append(FleetHeartRate(sensor: sensor, bpm: bpm))
        }
        rates.sort { ($0.sensor ?? "") < ($1.sensor ?? "") }
        return Array(rates.prefix(FleetHeartRate.maximumSensors))
    }
}
