import Foundation
import OarlogCore

/// A JSON value as it was read, so a workout plan can be checked key by key — unknown keys
/// refused, each error naming its path — and a saved plan written back as it was given.
/// `true` is never a number and `1` never a boolean (JSONDecoder keeps them apart).
enum JSONValue: Sendable, Equatable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// The value of `bytes`, or why they are not JSON.
    static func read(_ bytes: [UInt8]) throws(WorkoutPlanJSON.Failure) -> JSONValue {
        do { return try JSONDecoder().decode(JSONValue.self, from: Data(bytes)) } catch {
            throw WorkoutPlanJSON.Failure(path: "", message: "not valid JSON (\(Self.reason(error)))")
        }
    }

    /// What JSONDecoder found wrong, in one short line.
    private static func reason(_ error: any Error) -> String {
        var text: String
        switch error {
        case DecodingError.dataCorrupted(let context): text = context.underlyingError.map { "\($0)" } ?? context.debugDescription
        case DecodingError.typeMismatch(_, let context): text = context.debugDescription
        default: text = "\(error)"
        }
        text = StoredText.cleaned(text)
        return text.count > 160 ? String(text.prefix(160)) + "…" : text
    }

    /// What a person calls this kind of value in a message.
    var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Compact JSON; an object's keys in `keyOrder` first, then the others sorted.
    func text(keyOrder: [String] = []) -> String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return WorkoutPlanJSON.number(n)
        case .string(let s): return JSONString.quoted(s)
        case .array(let items): return "[" + items.map { $0.text(keyOrder: keyOrder) }.joined(separator: ",") + "]"
        case .object(let fields):
            let keys = keyOrder.filter { fields[$0] != nil } + fields.keys.filter { !keyOrder.contains($0) }.sorted()
            return "{" + keys.map { JSONString.quoted($0) + ":" + fields[$0]!.text(keyOrder: keyOrder) }.joined(separator: ",") + "}"
        }
    }
}
