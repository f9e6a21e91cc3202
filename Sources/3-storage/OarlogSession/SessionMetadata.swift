import OarlogCore

/// What a session is: written once, in the first frame after the preamble. Stored as key/value
/// strings (numbers in Swift's shortest round-trip form, so they read back bit-exact), which lets
/// later versions add keys that older readers keep in `extra` without understanding them.
public struct SessionMetadata: Sendable, Equatable {
    public var title: String
    /// UTC at session time 0, seconds since 1970-01-01.
    public var startUTC: Double
    /// CLOCK_MONOTONIC reading at session time 0 (see `SessionClock`).
    public var monotonicOrigin: Seconds
    /// The sensors, one line each (e.g. "accelerometer: iio:device0 adxl345", "gps: gpsd /dev/ttyACM0").
    public var devices: [String]
    public var accelerometerRate: Hertz?
    public var gpsRate: Hertz?
    /// e.g. "oarlog 0.4.0".
    public var softwareVersion: String
    /// Analysis and recording settings that shaped the concluded figures, in order.
    public var settings: [Setting]
    /// The GeoJSON fences and course the session was recorded with (`--fences`), as text: the
    /// session page draws them and their crossings.
    public var fencesGeoJSON: String?
    /// Keys this version does not know (from a newer writer), kept in order.
    public var extra: [Setting]

    /// One named setting.
    public struct Setting: Sendable, Equatable {
        public var key: String
        public var value: String
        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    public init(title: String, startUTC: Double, monotonicOrigin: Seconds = 0, devices: [String] = [],
                accelerometerRate: Hertz? = nil, gpsRate: Hertz? = nil, softwareVersion: String = "oarlog",
                settings: [Setting] = [], extra: [Setting] = []) {
        self.title = title
        self.startUTC = startUTC
        self.monotonicOrigin = monotonicOrigin
        self.devices = devices
        self.accelerometerRate = accelerometerRate
        self.gpsRate = gpsRate
        self.softwareVersion = softwareVersion
        self.settings = settings
        self.extra = extra
    }

    /// The boat that rowed it (the `boat` key, kept with the other keys this version has no
    /// field for); empty when none was named. The archive filters and a club's bests go by it.
    public var boat: String {
        get { extra.last(where: { $0.key == "boat" })?.value ?? "" }
        set {
            extra.removeAll { $0.key == "boat" }
            if !newValue.isEmpty { extra.append(Setting("boat", newValue)) }
        }
    }

    /// Placeholder metadata for a recovered file whose metadata frame was lost.
    static func lost() -> SessionMetadata {
        SessionMetadata(title: "recovered session (metadata lost)", startUTC: 0, softwareVersion: "unknown")
    }

    static let settingPrefix = "setting."

    /// The title (and the boat's name) are written as `StoredText.cleaned` gives them: whatever
    /// set them — a phone, a boat over MQTT, the command line — no control character is stored.
    func encode(into w: inout ByteWriter) {
        var pairs: [(String, String)] = [("title", StoredText.cleaned(title)), ("start_utc", "\(startUTC)"),
                                         ("monotonic_origin", "\(monotonicOrigin)"), ("software", softwareVersion)]
        for d in devices { pairs.append(("device", d)) }
        if let accelerometerRate { pairs.append(("accelerometer_rate_hz", "\(accelerometerRate)")) }
        if let gpsRate { pairs.append(("gps_rate_hz", "\(gpsRate)")) }
        for s in settings { pairs.append((Self.settingPrefix + s.key, s.value)) }
        if let fencesGeoJSON { pairs.append(("fences_geojson", fencesGeoJSON)) }
        for e in extra { pairs.append((e.key, e.key == "boat" ? StoredText.cleaned(e.value) : e.value)) }
        w.varint(UInt64(pairs.count))
        for (k, v) in pairs {
            w.string(k)
            w.string(v)
        }
    }

    static func decode(_ r: inout ByteReader) throws -> SessionMetadata {
        var m = SessionMetadata(title: "", startUTC: 0, softwareVersion: "")
        let n = try r.length(limit: r.remaining)
        for _ in 0..<n {
            let key = try r.string()
            let value = try r.string()
            switch key {
            case "title": m.title = value
            case "start_utc": m.startUTC = Double(value) ?? 0
            case "monotonic_origin": m.monotonicOrigin = Double(value) ?? 0
            case "software": m.softwareVersion = value
            case "device": m.devices.append(value)
            case "accelerometer_rate_hz": m.accelerometerRate = Double(value)
            case "gps_rate_hz": m.gpsRate = Double(value)
            case "fences_geojson": m.fencesGeoJSON = value
            default:
                if key.hasPrefix(settingPrefix) {
                    m.settings.append(Setting(String(key.dropFirst(settingPrefix.count)), value))
                } else {
                    m.extra.append(Setting(key, value))
                }
            }
        }
        return m
    }
}
