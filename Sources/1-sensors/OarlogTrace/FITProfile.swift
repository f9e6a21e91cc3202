import OarlogCore

/// The part of Garmin's FIT profile this project reads: the names of the common messages and of
/// their fields, with each field's scale and offset (a value is stored as (value + offset) ×
/// scale), and the names of a few enumerations (sport, manufacturer, file type). Names are the
/// profile's, as Garmin's SDKs print them; a message or field not listed here is shown by number.
public enum FITProfile {
    /// A field's profile name, scale and offset.
    public struct Field: Sendable {
        public var name: String
        public var scale: Double
        public var offset: Double
        init(_ name: String, _ scale: Double = 1, _ offset: Double = 0) {
            self.name = name
            self.scale = scale
            self.offset = offset
        }
    }

    /// Global message numbers read by `FITReader`.
    public enum Message {
        public static let fileID: UInt16 = 0, sport: UInt16 = 12, session: UInt16 = 18, lap: UInt16 = 19
        public static let record: UInt16 = 20, event: UInt16 = 21, deviceInfo: UInt16 = 23, activity: UInt16 = 34
        public static let fieldDescription: UInt16 = 206, developerDataID: UInt16 = 207
    }

    /// The profile's name of message `number`, if listed.
    public static func messageName(_ number: UInt16) -> String? { messages[number]?.name }

    /// The profile's entry for field `field` of message `message`, if listed.
    public static func field(_ field: UInt8, of message: UInt16) -> Field? {
        if field == 253, message != Message.fieldDescription { return Field("timestamp") }
        if field == 254 { return Field("message_index") }
        return messages[message]?.fields[field]
    }

    static let timeAndPlace: [UInt8: Field] = [
        2: Field("start_time"), 3: Field("start_position_lat"), 4: Field("start_position_long"),
        7: Field("total_elapsed_time", 1000), 8: Field("total_timer_time", 1000), 9: Field("total_distance", 100),
        10: Field("total_cycles"), 11: Field("total_calories"), 0: Field("event"), 1: Field("event_type"),
    ]

    static let session: [UInt8: Field] = timeAndPlace.merging([
        5: Field("sport"), 6: Field("sub_sport"), 14: Field("avg_speed", 1000), 15: Field("max_speed", 1000),
        16: Field("avg_heart_rate"), 17: Field("max_heart_rate"), 18: Field("avg_cadence"), 19: Field("max_cadence"),
        20: Field("avg_power"), 21: Field("max_power"), 25: Field("first_lap_index"), 26: Field("num_laps"),
        28: Field("trigger"), 124: Field("enhanced_avg_speed", 1000), 125: Field("enhanced_max_speed", 1000),
    ]) { a, _ in a }

    static let lap: [UInt8: Field] = timeAndPlace.merging([
        5: Field("end_position_lat"), 6: Field("end_position_long"), 13: Field("avg_speed", 1000),
        14: Field("max_speed", 1000), 15: Field("avg_heart_rate"), 16: Field("max_heart_rate"),
        17: Field("avg_cadence"), 18: Field("max_cadence"), 19: Field("avg_power"), 20: Field("max_power"),
        23: Field("intensity"), 24: Field("lap_trigger"), 25: Field("sport"), 39: Field("sub_sport"),
        110: Field("enhanced_avg_speed", 1000), 111: Field("enhanced_max_speed", 1000),
    ]) { a, _ in a }

    static let messages: [UInt16: (name: String, fields: [UInt8: Field])] = [
        0: ("file_id", [0: Field("type"), 1: Field("manufacturer"), 2: Field("product"), 3: Field("serial_number"),
                        4: Field("time_created"), 5: Field("number"), 8: Field("product_name")]),
        12: ("sport", [0: Field("sport"), 1: Field("sub_sport"), 3: Field("name")]),
        18: ("session", session),
        19: ("lap", lap),
        20: ("record", [0: Field("position_lat"), 1: Field("position_long"), 2: Field("altitude", 5, 500),
                        3: Field("heart_rate"), 4: Field("cadence"), 5: Field("distance", 100), 6: Field("speed", 1000),
                        7: Field("power"), 13: Field("temperature"), 19: Field("total_cycles"),
                        53: Field("fractional_cadence", 128), 73: Field("enhanced_speed", 1000),
                        78: Field("enhanced_altitude", 5, 500)]),
        21: ("event", [0: Field("event"), 1: Field("event_type"), 3: Field("data"), 4: Field("event_group")]),
        23: ("device_info", [0: Field("device_index"), 1: Field("device_type"), 2: Field("manufacturer"),
                             3: Field("serial_number"), 4: Field("product"), 5: Field("software_version", 100),
                             6: Field("hardware_version"), 27: Field("product_name")]),
        34: ("activity", [0: Field("total_timer_time", 1000), 1: Field("num_sessions"), 2: Field("type"),
                          3: Field("event"), 4: Field("event_type"), 5: Field("local_timestamp")]),
        49: ("file_creator", [0: Field("software_version"), 1: Field("hardware_version")]),
        206: ("field_description", [0: Field("developer_data_index"), 1: Field("field_definition_number"),
                                    2: Field("fit_base_type_id"), 3: Field("field_name"), 6: Field("scale"),
                                    7: Field("offset"), 8: Field("units")]),
        207: ("developer_data_id", [0: Field("developer_id"), 1: Field("application_id"), 2: Field("manufacturer_id"),
                                    3: Field("developer_data_index"), 4: Field("application_version")]),
    ]

    /// FIT sport numbers (`sport` type) and names, the profile's spelling; others by number.
    public static func sportName(_ sport: Int64) -> String {
        let names: [Int64: String] = [
            0: "generic", 1: "running", 2: "cycling", 3: "transition", 4: "fitness_equipment", 5: "swimming",
            10: "training", 11: "walking", 12: "cross_country_skiing", 15: "rowing", 17: "hiking", 18: "multisport",
            19: "paddling", 21: "e_biking", 23: "boating", 32: "sailing", 37: "stand_up_paddleboarding",
            41: "kayaking", 42: "rafting", 88: "canoeing", 254: "all",
        ]
        return names[sport] ?? "sport \(sport)"
    }

    /// FIT manufacturer numbers and names (a few that make rowing and sports devices).
    public static func manufacturerName(_ manufacturer: Int64) -> String {
        let names: [Int64: String] = [
            1: "Garmin", 23: "Suunto", 32: "Wahoo Fitness", 40: "Concept2", 87: "Nielsen-Kellerman",
            95: "Stryd", 118: "WaterRower", 123: "Polar", 255: "development", 294: "COROS",
        ]
        return names[manufacturer] ?? "FIT manufacturer \(manufacturer)"
    }

    /// FIT file types (`file` type) by name, for a refusal.
    public static func fileTypeName(_ type: Int64) -> String {
        let names: [Int64: String] = [1: "device", 2: "settings", 3: "sport", 4: "activity", 5: "workout", 6: "course",
                                      7: "schedules", 9: "weight", 10: "totals", 11: "goals", 15: "monitoring",
                                      20: "activity summary", 34: "segment"]
        return names[type] ?? "type \(type)"
    }

    /// One message as a JSON object, `{"message": name, "fields": {name: value}}`: names from this
    /// profile (numbers as strings when not listed), numbers scaled by the profile (a field not
    /// listed is raw), developer fields by their description's name (else
    /// `developer_<index>_<number>`), scaled by their description.
    public static func json(_ message: FITMessage) -> String {
        var out = "{\"message\":"
        out += messageName(message.globalNumber).map(JSONString.quoted) ?? "\(message.globalNumber)"
        out += ",\"fields\":{"
        var first = true
        func add(_ key: String, _ value: String) {
            if !first { out += "," }
            first = false
            out += JSONString.quoted(key) + ":" + value
        }
        for f in message.fields {
            let profile = field(f.number, of: message.globalNumber)
            add(profile?.name ?? String(f.number), json(f.value, scale: profile?.scale ?? 1, offset: profile?.offset ?? 0))
        }
        for f in message.developerFields {
            add(f.name ?? "developer_\(f.developerIndex)_\(f.number)", json(f.value, scale: f.scale, offset: f.offset))
        }
        return out + "}}"
    }

    static func json(_ value: FITValue, scale: Double, offset: Double) -> String {
        switch value {
        case .text(let s): return JSONString.quoted(s)
        case .array(let values): return "[" + values.map { json($0, scale: scale, offset: offset) }.joined(separator: ",") + "]"
        case .integer(let v) where scale == 1 && offset == 0: return String(v)
        case .unsigned(let v) where scale == 1 && offset == 0: return String(v)
        default: return JSONWriter.number(value.number.map { $0 / scale - offset })
        }
    }
}
