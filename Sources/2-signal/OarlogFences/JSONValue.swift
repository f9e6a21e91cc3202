/// A parsed JSON value, from a small hand-written parser (no Foundation): enough for GeoJSON
/// fence files, with errors that give the line and column.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in file order (GeoJSON files are small; order helps error messages).
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The member `key` of an object (`nil` if absent or not an object).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// A short name of the value's type, for error messages.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Parses a whole JSON text.
    public static func parse(_ text: String) throws -> JSONValue {
        try parse(utf8: Array(text.utf8))
    }

    /// Parses a whole JSON text given as UTF-8 bytes. At most `maxValues` values (each number,
    /// string, array, object, true, false, null counts one), nested at most 200 deep, numbers at
    /// most `FenceLimits.maxNumberCharacters` long: beyond, a `JSONSyntaxError`.
    public static func parse(utf8 bytes: [UInt8], maxValues: Int = FenceLimits.maxJSONValues) throws -> JSONValue {
        var parser = JSONParser(bytes)
        parser.maxValues = maxValues
        parser.valuesLeft = maxValues
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.atEnd else { throw parser.error("unexpected text after the JSON value") }
        return value
    }
}

/// A JSON syntax error, with where it is.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String
    public var description: String { "line \(line), column \(column): \(message)" }
}

private struct JSONParser {
    let bytes: [UInt8]
    var i = 0
    var valuesLeft = Int.max
    var maxValues = Int.max
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { i >= bytes.count }

    func error(_ message: String) -> JSONSyntaxError {
        var line = 1, column = 1
        for b in bytes[0..<min(i, bytes.count)] {
            if b == UInt8(ascii: "\n") { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
        }
        return JSONSyntaxError(line: line, column: column, message: message)
    }

    mutating func skipSpace() {
        while i < bytes.count {
            let b = bytes[i]
            guard b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D else { break }
            i += 1
        }
        if i == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {  // BOM
            i = 3
            skipSpace()
        }
    }

    mutating func value(depth: Int) throws -> JSONValue {
        guard depth < 200 else { throw error("nesting deeper than 200 levels") }
        guard i < bytes.count else { throw error("unexpected end of the text, expected a value") }
        guard valuesLeft > 0 else {
            throw error("more than \(maxValues) JSON values: a fence file holds at most \(FenceLimits.maxPositionsPerFile) positions")
        }
        valuesLeft -= 1
        switch bytes[i] {
        case UInt8(ascii: "{"):
            i += 1
            var members: [(String, JSONValue)] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
                let key = try string()
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':' after member name \"\(key)\"") }
                i += 1
                skipSpace()
                members.append((key, try value(depth: depth + 1)))
                skipSpace()
                guard i < bytes.count else { throw error("unexpected end of the text inside an object") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                throw error("expected ',' or '}' in an object")
            }
        case UInt8(ascii: "["):
            i += 1
            var items: [JSONValue] = []
            skipSpace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard i < bytes.count else { throw error("unexpected end of the text inside an array") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                throw error("expected ',' or ']' in an array")
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default:
            return .number(try number())
        }
    }

    mutating func literal(_ word: String, _ result: JSONValue) throws -> JSONValue {
        let w = Array(word.utf8)
        guard i + w.count <= bytes.count, Array(bytes[i..<(i + w.count)]) == w else { throw error("unexpected character") }
        i += w.count
        return result
    }

    mutating func number() throws -> Double {
        let start = i
        scan: while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "e"), UInt8(ascii: "E"):
                i += 1
            default:
                break scan
            }
        }
        guard i - start <= FenceLimits.maxNumberCharacters else {
            i = start
            throw error("a number longer than \(FenceLimits.maxNumberCharacters) characters")
        }
        guard i > start, case let text = String(decoding: bytes[start..<i], as: UTF8.self), let value = Double(text),
              value.isFinite, bytes[start] != UInt8(ascii: "+")
        else {
            i = start
            throw error("expected a value (number, string, object, array, true, false or null)")
        }
        return value
    }

    mutating func string() throws -> String {
        i += 1  // opening quote
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw error("unterminated string") }
            let b = bytes[i]
            i += 1
            if b == UInt8(ascii: "\"") { break }
            if out.count >= FenceLimits.maxStringBytes { throw error("a string longer than \(FenceLimits.maxStringBytes) bytes") }
            if b < 0x20 { throw error("control character in a string") }
            guard b == UInt8(ascii: "\\") else { out.append(b); continue }
            guard i < bytes.count else { throw error("unterminated string") }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                // A high surrogate pairs with a low one that follows; anything else (a lone
                // surrogate, two high ones) becomes U+FFFD and the next escape is read as itself.
                if (0xD800..<0xDC00).contains(scalar), i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"),
                   bytes[i + 1] == UInt8(ascii: "u") {
                    let resume = i
                    i += 2
                    let low = try hex4()
                    if (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        i = resume
                    }
                }
                let s = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(s)).utf8))
            default:
                throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))' in a string")
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    mutating func hex4() throws -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            i += 1
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape")
            }
            v = v * 16 + digit
        }
        return v
    }
}
