import Foundation
import OarlogCore

/// One rower's heart-rate zones, kept by the name of the strap or seat the heart rate comes with
/// (`stroke`, `7`, `bow`; `default` for a strap without a name and for every seat without zones
/// of its own): the rower's maximum heart rate and, optionally, the resting one.
///
/// Five zones, by the share of the maximum (`rest_bpm` not given):
/// Z1 under 60 %, Z2 60–70 %, Z3 70–80 %, Z4 80–90 %, Z5 90 % and over. With `rest_bpm` the same
/// bounds are shares of the heart-rate reserve (Karvonen: `(bpm − rest) / (max − rest)`), which
/// puts a fit rower's easy paddling in Z1–Z2 rather than Z2–Z3. A bound belongs to the zone above
/// it (133 bpm of a 190 maximum is 70 %: Z3).
public struct HeartRateZoneSetting: Codable, Sendable, Equatable {
    public var sensor: String
    public var maxBPM: BeatsPerMinute
    public var restBPM: BeatsPerMinute?

    enum CodingKeys: String, CodingKey {
        case sensor
        case maxBPM = "max_bpm"
        case restBPM = "rest_bpm"
    }

    public init(sensor: String, maxBPM: BeatsPerMinute, restBPM: BeatsPerMinute? = nil) {
        self.sensor = sensor
        self.maxBPM = maxBPM
        self.restBPM = restBPM
    }

    /// The lower bounds of Z2 to Z5, in per cent of the maximum (or of the reserve).
    public static let zoneFloorsPercent: [Double] = [60, 70, 80, 90]

    /// The zone (1–5) of a heart rate; nil for a rate that is not a finite number.
    public func zone(of bpm: BeatsPerMinute) -> Int? {
        guard bpm.isFinite else { return nil }
        let rest = restBPM ?? 0
        // Whole-number rates compare exactly: (bpm − rest) × 100 against percent × (max − rest).
        let above = (bpm - rest) * 100, span = maxBPM - rest
        var zone = 1
        for floor in Self.zoneFloorsPercent where above >= floor * span { zone += 1 }
        return zone
    }

    /// The rate at which each of Z2 to Z5 starts (for the plots' shading).
    public var zoneFloorsBPM: [BeatsPerMinute] {
        let rest = restBPM ?? 0
        return Self.zoneFloorsPercent.map { rest + $0 / 100 * (maxBPM - rest) }
    }
}

/// The crew's heart-rate zones (`GET /api/heart-rate/zones`, the live screen's seat colours, the
/// session page's shading), in `hr-zones.json` beside the sessions: read whole, changed under the
/// file's lock and replaced atomically (`DataFile`). At most 64 rowers.
public struct HeartRateZones: Sendable {
    public static let fileName = "hr-zones.json"
    public static let maximumRowers = 64
    /// A maximum heart rate a rower can have (the lowest seen in the old, the highest in the young).
    public static let maxBPMRange: ClosedRange<Double> = 100...230
    /// A resting heart rate (under the maximum as well).
    public static let restBPMRange: ClosedRange<Double> = 20...150
    /// The name whose zones a strap without a name, and a seat without zones of its own, uses.
    public static let defaultName = "default"
    /// The largest body of `PUT /api/heart-rate/zones/{sensor}`.
    public static let maximumRequestBytes = 4096

    public let path: String

    public init(sessionsPath: String) {
        path = (sessionsPath.hasSuffix("/") ? sessionsPath : sessionsPath + "/") + Self.fileName
    }

    public init(sessions: SessionStore) { self.init(sessionsPath: sessions.path) }

    var file: DataFile { DataFile(path: path, maximumBytes: 1 << 18) }

    /// Every rower's zones, by name.
    public func list() throws(HeartRateZonesError) -> [HeartRateZoneSetting] {
        do {
            return try file.items(HeartRateZoneSetting.self).sorted { $0.sensor.lowercased() < $1.sensor.lowercased() }
        } catch {
            throw .unreadable("\(error)")
        }
    }

    /// The zones as the live station and the plots look them up.
    public func table() -> HeartRateZoneTable {
        HeartRateZoneTable((try? list()) ?? [])
    }

    /// Sets `sensor`'s zones (replacing what that name had, its case ignored). Returns the setting
    /// kept and whether it replaced one.
    @discardableResult
    public func set(_ setting: HeartRateZoneSetting) throws(HeartRateZonesError) -> (setting: HeartRateZoneSetting, replaced: Bool) {
        if let problem = Self.problem(setting) { throw .badRequest(problem) }
        // The file's helper wraps what its body throws: the body answers, the error is thrown here.
        let replaced: Bool?
        do {
            replaced = try file.changeItems(HeartRateZoneSetting.self, pretty: true) { all -> Bool? in
                if let i = all.firstIndex(where: { Self.sameName($0.sensor, setting.sensor) }) {
                    all[i] = setting
                    return true
                }
                guard all.count < Self.maximumRowers else { return nil }
                all.append(setting)
                return false
            }
        } catch {
            throw .unreadable("\(error)")
        }
        guard let replaced else { throw .full("\(Self.maximumRowers) rowers have zones, the most kept: remove one first") }
        return (setting, replaced)
    }

    /// Sets `sensor`'s zones from a request's body: `{"max_bpm": 190, "rest_bpm": 55}`
    /// (`rest_bpm` may be left out or null).
    @discardableResult
    public func set(sensor: String, requestBody bytes: [UInt8]) throws(HeartRateZonesError) -> (setting: HeartRateZoneSetting, replaced: Bool) {
        guard bytes.count <= Self.maximumRequestBytes else { throw .badRequest("a body of over \(Self.maximumRequestBytes) bytes") }
        let value: JSONValue
        do { value = try JSONValue.read(bytes) } catch { throw .badRequest(error.message) }
        guard case .object(let object) = value else {
            throw .badRequest("expected a JSON object such as {\"max_bpm\": 190, \"rest_bpm\": 55}")
        }
        for key in object.keys where key != "max_bpm" && key != "rest_bpm" {
            throw .badRequest("\(Self.quoted(key)): unknown key (max_bpm, rest_bpm)")
        }
        guard case .number(let max)? = object["max_bpm"] else { throw .badRequest("max_bpm: expected a number of beats per minute") }
        var rest: Double?
        switch object["rest_bpm"] {
        case nil, .null?: rest = nil
        case .number(let value)?: rest = value
        default: throw .badRequest("rest_bpm: expected a number of beats per minute, or null")
        }
        return try set(HeartRateZoneSetting(sensor: sensor, maxBPM: max, restBPM: rest))
    }

    /// Removes `sensor`'s zones (its case ignored).
    public func remove(sensor: String) throws(HeartRateZonesError) {
        let found: Bool
        do {
            found = try file.changeItems(HeartRateZoneSetting.self, pretty: true) { all -> Bool in
                guard let i = all.firstIndex(where: { Self.sameName($0.sensor, sensor) }) else { return false }
                all.remove(at: i)
                return true
            }
        } catch {
            throw .unreadable("\(error)")
        }
        guard found else { throw .notFound("no zones for \(Self.quoted(sensor))") }
    }

    /// Why `setting` cannot be kept (nil when it can).
    public static func problem(_ setting: HeartRateZoneSetting) -> String? {
        if let problem = nameProblem(setting.sensor) { return "sensor: \(problem)" }
        let max = setting.maxBPM
        guard max.isFinite, maxBPMRange.contains(max) else {
            return "max_bpm: \(show(max)) is no maximum heart rate (expected \(Int(maxBPMRange.lowerBound))–\(Int(maxBPMRange.upperBound)) bpm)"
        }
        if let rest = setting.restBPM {
            guard rest.isFinite, restBPMRange.contains(rest) else {
                return "rest_bpm: \(show(rest)) is no resting heart rate (expected \(Int(restBPMRange.lowerBound))–\(Int(restBPMRange.upperBound)) bpm)"
            }
            guard rest < max else { return "rest_bpm: \(show(rest)) is not below max_bpm \(show(max))" }
        }
        return nil
    }

    /// Why `name` cannot name a strap or seat (nil when it can): 1–40 printable characters, no
    /// `/`, no space at either end.
    public static func nameProblem(_ name: String) -> String? {
        if name.isEmpty { return "a name needs at least one character" }
        if name.count > 40 { return "a name of \(name.count) characters: at most 40" }
        if StoredText.cleaned(name) != name || name.contains("/") {
            return "a name of printable characters only, no '/', without spaces at its ends"
        }
        return nil
    }

    static func sameName(_ a: String, _ b: String) -> Bool { a.lowercased() == b.lowercased() }

    private static func show(_ v: Double) -> String {
        v.isFinite && v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(v)
    }

    static func quoted(_ text: String) -> String {
        "‘" + StoredText.escapedForTerminal(String(text.prefix(100))) + "’"
    }

    /// The answer of `GET /api/heart-rate/zones`: `{"zones": [{"sensor", "max_bpm", "rest_bpm"}],
    /// "zone_floors_percent": [60, 70, 80, 90]}`.
    public static func json(_ settings: [HeartRateZoneSetting]) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.beginArray(key: "zones")
        for s in settings { s.write(&w) }
        w.endArray()
        w.array("zone_floors_percent", HeartRateZoneSetting.zoneFloorsPercent, places: 0)
        w.endObject()
        return w.take()
    }
}

extension HeartRateZoneSetting {
    /// `{"sensor", "max_bpm", "rest_bpm", "zone_floors_bpm"}`.
    public var json: String {
        var w = JSONWriter()
        write(&w)
        return w.take()
    }

    func write(_ w: inout JSONWriter) {
        w.beginObject()
        w.field("sensor", sensor)
        w.field("max_bpm", maxBPM, places: 1)
        w.field("rest_bpm", restBPM, places: 1)
        w.array("zone_floors_bpm", zoneFloorsBPM, places: 1)
        w.endObject()
    }
}

/// What went wrong with the zones, in words: the server answers 404, 400, 409 or 500.
public enum HeartRateZonesError: Error, Sendable, Equatable, CustomStringConvertible {
    case notFound(String)
    case badRequest(String)
    case full(String)
    case unreadable(String)

    public var description: String {
        switch self {
        case .notFound(let s), .badRequest(let s), .full(let s), .unreadable(let s): return s
        }
    }
}
