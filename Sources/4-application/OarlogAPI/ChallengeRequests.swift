import Foundation
import OarlogCore

/// `POST /api/challenges`: `{"course": "Bridge 2k", "under": "9:30", "before": "2026-12-20",
/// "boat": "Eight", "class": "8+", "handicap": false, "by": "Coach", "note": "…"}` — course and
/// under needed (under as typed, or `target_s` in seconds), the rest optional. Texts are cleaned
/// of control characters (`StoredText`) and bounded.
public struct ChallengeSetRequest: Equatable, Sendable {
    public let course: String
    public let under: String
    public let before: String?
    public let boat: String?
    public let boatClass: String?
    public let handicap: Bool
    public let by: String?
    public let note: String?

    public init(body: [UInt8]) throws(APIRequestError) {
        let example = #"{"course": "Bridge 2k", "under": "9:30", "before": "2026-12-20", "boat": "Eight"}"#
        let object = try APIRequest.object(body, allowEmpty: false, example: example)
        func text(_ key: String, limit: Int) throws(APIRequestError) -> String? {
            switch object[key] {
            case nil, is NSNull: return nil
            case let s as String:
                let cleaned = StoredText.cleaned(s).trimmingCharacters(in: .whitespaces)
                guard cleaned.count <= limit else { throw .malformed("\(key): at most \(limit) characters") }
                return cleaned.isEmpty ? nil : cleaned
            default: throw .malformed("\(key) must be text")
            }
        }
        guard let course = try text("course", limit: 80) else { throw .malformed("expected \(example): a course is needed") }
        self.course = course
        if let under = try text("under", limit: 20) {
            self.under = under
        } else if let seconds = object["target_s"].flatMap(APIRequest.number), seconds.isFinite, seconds > 0 {
            under = String(seconds)
        } else {
            throw .malformed("expected \(example): the time to beat is needed (under: \"9:30\")")
        }
        before = try text("before", limit: 40)
        boat = try text("boat", limit: 200)
        boatClass = try text("class", limit: 10)
        by = try text("by", limit: 200)
        note = try text("note", limit: APIRequest.maximumNoteCharacters)
        switch object["handicap"] {
        case nil, is NSNull: handicap = false
        case let n as NSNumber where APIRequest.boolean(n) != nil: handicap = APIRequest.boolean(n)!
        default: throw .malformed("handicap must be true or false")
        }
    }
}

/// `POST /api/challenges/{id}/accept` and `/reject`: `{"note": "…", "by": "Coach"}`, both
/// optional (an empty body is no note).
public struct ChallengeAnswerRequest: Equatable, Sendable {
    public let note: String
    public let by: String?

    public init(body: [UInt8]) throws(APIRequestError) {
        let object = try APIRequest.object(body, allowEmpty: true, example: #"{"note": "well rowed"}"#)
        switch object["note"] {
        case nil, is NSNull: note = ""
        case let s as String: note = String(StoredText.cleaned(s).prefix(APIRequest.maximumNoteCharacters))
        default: throw .malformed("note must be text")
        }
        switch object["by"] {
        case nil, is NSNull: by = nil
        case let s as String:
            let cleaned = StoredText.cleaned(s).trimmingCharacters(in: .whitespaces)
            by = cleaned.isEmpty ? nil : String(cleaned.prefix(200))
        default: throw .malformed("by must be text")
        }
    }
}
