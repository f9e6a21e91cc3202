import OarlogCore

/// The crew's zones looked up by the name a heart rate comes with: the rower's own (the case of
/// the name ignored), else those named `default`, else none. A strap without a name uses
/// `default`. Small (at most 64 rowers): a plain search, made once when the zones change.
public struct HeartRateZoneTable: Sendable, Equatable {
    public private(set) var settings: [HeartRateZoneSetting]
    private var lowercasedNames: [String]
    private var fallback: HeartRateZoneSetting?

    public init(_ settings: [HeartRateZoneSetting] = []) {
        self.settings = settings
        lowercasedNames = settings.map { $0.sensor.lowercased() }
        fallback = settings.first { $0.sensor.lowercased() == HeartRateZones.defaultName }
    }

    public var isEmpty: Bool { settings.isEmpty }

    /// The zones of `sensor` (nil: a strap without a name).
    public func setting(for sensor: String?) -> HeartRateZoneSetting? {
        guard let sensor else { return fallback }
        if let i = lowercasedNames.firstIndex(of: sensor.lowercased()) { return settings[i] }
        return fallback
    }

    /// The zone (1–5) of `bpm` from `sensor`; nil when that sensor has no zones.
    public func zone(of bpm: BeatsPerMinute, sensor: String?) -> Int? {
        setting(for: sensor)?.zone(of: bpm)
    }
}
