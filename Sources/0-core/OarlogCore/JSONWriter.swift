
/// A small streaming JSON writer: values are appended in order, so a long stroke list can be
/// written as it is produced without being held in memory. Non-finite numbers and missing values
/// become `null`.
public struct JSONWriter {
    public private(set) var text = ""
    private var needsComma: [Bool] = [false]

    public init() {}

    /// Hands over what has been written so far and clears it (for streaming to a file).
    public mutating func take() -> String {
        defer { text = "" }
        return text
    }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { text += "," }
        needsComma[needsComma.count - 1] = true
    }

    public mutating func beginObject(key: String? = nil) {
        if let key { self.key(key) } else { separate() }
        text += "{"
        needsComma.append(false)
    }

    public mutating func endObject() {
        needsComma.removeLast()
        text += "}"
    }

    public mutating func beginArray(key: String? = nil) {
        if let key { self.key(key) } else { separate() }
        text += "["
        needsComma.append(false)
    }

    public mutating func endArray() {
        needsComma.removeLast()
        text += "]"
    }

    private mutating func key(_ key: String) {
        separate()
        text += JSONWriter.quoted(key) + ":"
    }

    public mutating func field(_ key: String, _ value: Double?, places: Int? = nil) {
        self.key(key)
        text += JSONWriter.number(value, places: places)
    }

    public mutating func field(_ key: String, _ value: Int?) {
        self.key(key)
        text += value.map(String.init) ?? "null"
    }

    public mutating func field(_ key: String, _ value: String?) {
        self.key(key)
        text += value.map(JSONWriter.quoted) ?? "null"
    }

    public mutating func field(_ key: String, _ value: Bool) {
        self.key(key)
        text += value ? "true" : "false"
    }

    /// A value already written as JSON (a nested report, a stored GeoJSON), as it is; nil is `null`.
    public mutating func field(_ key: String, json value: String?) {
        self.key(key)
        text += value ?? "null"
    }

    /// A number as an array element.
    public mutating func element(_ value: Double?, places: Int? = nil) {
        separate()
        text += JSONWriter.number(value, places: places)
    }

    /// A whole number as an array element.
    public mutating func element(_ value: Int) {
        separate()
        text += String(value)
    }

    /// A string as an array element.
    public mutating func element(_ value: String) {
        separate()
        text += JSONWriter.quoted(value)
    }

    /// `key: [numbers…]`, each with `places` decimals (null for nil or not finite).
    public mutating func array<S: Sequence>(_ key: String, _ values: S, places: Int? = nil) where S.Element == Double? {
        beginArray(key: key)
        for value in values { element(value, places: places) }
        endArray()
    }

    /// `key: [numbers…]` of numbers that are always there.
    public mutating func array<S: Sequence>(_ key: String, _ values: S, places: Int? = nil) where S.Element == Double {
        array(key, values.lazy.map { Optional($0) }, places: places)
    }

    /// `key: [whole numbers…]`.
    public mutating func array<S: Sequence>(_ key: String, _ values: S) where S.Element == Int {
        beginArray(key: key)
        for value in values { element(value) }
        endArray()
    }

    /// `key: ["text", …]`.
    public mutating func array<S: Sequence>(_ key: String, _ values: S) where S.Element == String {
        beginArray(key: key)
        for value in values { element(value) }
        endArray()
    }

    public static func number(_ value: Double?, places: Int? = nil) -> String {
        guard let value, value.isFinite else { return "null" }
        if let places { return DecimalText.fixed(value, places: places, nonFinite: "null") }
        return String(value)
    }

    /// `s` as a JSON string literal (`JSONString.quoted`).
    public static func quoted(_ s: String) -> String { JSONString.quoted(s) }
}
