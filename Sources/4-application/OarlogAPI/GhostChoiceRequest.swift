import Foundation
import OarlogCore

/// `PUT /api/live/ghost`: the attempt the next recordings race — `{"course": "NK 2k", "ghost":
/// "best"}` (the fastest kept attempt, of `"boat"` when given), `{"course": "NK 2k", "ghost":
/// "ID"}` or `"ID:K"` (that session's K-th attempt, from 1), or `{"ghost": null}` (none). The
/// course is a saved course's name and the session an exact id: a phone never names a file.
public struct GhostChoiceRequest: Equatable, Sendable {
    public enum Choice: Equatable, Sendable {
        case best(course: String, boat: String?)
        case session(course: String, id: String, attempt: Int)
        case none
    }

    /// Longest course or boat name (characters).
    public static let maximumNameCharacters = 100

    public let choice: Choice

    public init(body: [UInt8]) throws(APIRequestError) {
        let example = "{\"course\": \"NK 2k\", \"ghost\": \"best\"}, {\"course\": \"NK 2k\", \"ghost\": \"SESSION:K\"} or {\"ghost\": null}"
        let object = try APIRequest.object(body, allowEmpty: false, example: example)
        guard let ghost = object["ghost"] else { throw .malformed("expected \(example)") }
        if ghost is NSNull {
            choice = .none
            return
        }
        guard let text = ghost as? String, case let spec = text.trimmingWhitespace(), !spec.isEmpty, spec.utf8.count <= 200 else {
            throw .malformed("ghost must be \"best\", a session's id or \"ID:K\", or null")
        }
        let course = try Self.name(object["course"], "course", required: true)!
        if spec.lowercased() == "best" {
            choice = .best(course: course, boat: try Self.name(object["boat"], "boat", required: false))
            return
        }
        let parts = spec.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard (1...2).contains(parts.count), APIRequest.isPlausibleSessionID(parts[0]) else {
            throw .malformed("ghost '\(spec)': expected \"best\", a session's id or \"ID:K\"")
        }
        var k = 1
        if parts.count == 2 {
            guard let n = Int(parts[1]), (1...1000).contains(n) else {
                throw .malformed("ghost '\(spec)': K is the attempt's number in that session, from 1")
            }
            k = n
        }
        choice = .session(course: course, id: parts[0], attempt: k)
    }

    /// A name field: a string of 1 to `maximumNameCharacters` characters once cleaned.
    static func name(_ value: Any?, _ key: String, required: Bool) throws(APIRequestError) -> String? {
        guard let value, !(value is NSNull) else {
            if required { throw .malformed("\(key) must be a saved course's name") }
            return nil
        }
        guard let raw = value as? String, case let name = StoredText.cleaned(raw), !name.isEmpty,
              name.count <= maximumNameCharacters else {
            throw .malformed("\(key) must be a name of 1 to \(maximumNameCharacters) characters")
        }
        return name
    }
}
