import Foundation
import OarlogCore

/// What the web API accepts from a phone, checked and decoded without any HTTP machinery, so the
/// same code is served by `oarlog serve` and fuzzed (`Fuzz/`, target `web-request`). Every check
/// answers with the status a person's request deserves: 404 for what cannot be a session or a page,
/// 413 for a body over the limit, 400 with a message for a body that is not what the call expects.
public enum APIRequest {
    /// Longest request path looked at (bytes, as sent): beyond it nothing in Oarlog can be meant.
    public static let maximumPathBytes = 2048
    /// Largest request body any call takes (bytes): a note of 2,000 characters fits many times.
    public static let maximumBodyBytes = 16 * 1024
    /// Longest session title (characters), as `oarlog replay --save --title` allows.
    public static let maximumTitleCharacters = 200
    /// Longest note (characters): a longer one is cut there.
    public static let maximumNoteCharacters = 2000

    /// Whether a request path may be looked at: not absurdly long, valid percent-encoding, no `.`
    /// or `..` segment (raw or encoded) and no NUL. Anything else is 404 — there is nothing there.
    public static func isAcceptablePath(_ raw: String) -> Bool {
        guard raw.utf8.count <= maximumPathBytes, let path = raw.removingPercentEncoding else { return false }
        if path.utf8.contains(0) { return false }
        return !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0 == "." }
    }

    /// Whether a path parameter can be a session id at all: 1–160 bytes of letters, digits, `-`,
    /// `_` and `.`, not starting with a dot (so never a path and never hidden).
    public static func isPlausibleSessionID(_ id: String) -> Bool {
        guard (1...160).contains(id.utf8.count), !id.hasPrefix(".") else { return false }
        return id.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D || c == 0x5F || c == 0x2E
        }
    }

    /// The token of an `Authorization: Bearer TOKEN` header, or nil when there is none.
    public static func bearerToken(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// A JSON `true` or `false`; nil for anything else, numbers included.
    static func boolean(_ value: Any) -> Bool? {
        guard let n = value as? NSNumber, String(cString: n.objCType) == "c" else { return nil }
        return n.boolValue
    }

    /// A JSON number as a Double; nil for anything else, `true` and `false` included.
    /// A query's `points=N`: absent is `default`; otherwise a whole number within `limits`.
    static func points(_ text: String?, within limits: ClosedRange<Int>, default value: Int) throws(APIRequestError) -> Int {
        guard let text else { return value }
        guard let n = Int(text), limits.contains(n) else {
            throw .malformed("points: a whole number from \(limits.lowerBound) to \(limits.upperBound)")
        }
        return n
    }

    static func number(_ value: Any) -> Double? {
        if let n = value as? NSNumber {
            if boolean(n) != nil { return nil }
            return n.doubleValue
        }
        switch value {
        case let d as Double: return d
        case let i as Int: return Double(i)
        default: return nil
        }
    }

    /// The body as a JSON object, or an error saying what is wrong with it.
    static func object(_ body: [UInt8], allowEmpty: Bool, example: String) throws(APIRequestError) -> [String: Any] {
        guard body.count <= maximumBodyBytes else { throw .tooLarge(limitBytes: maximumBodyBytes) }
        if allowEmpty && body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return [:] }
        let value: Any
        do { value = try JSONSerialization.jsonObject(with: Data(body)) } catch {
            throw .malformed("malformed JSON: expected an object such as \(example)")
        }
        guard let object = value as? [String: Any] else { throw .malformed("expected a JSON object such as \(example)") }
        return object
    }
}

/// Why a request was refused, with the HTTP status it gets.
public enum APIRequestError: Error, Equatable, CustomStringConvertible {
    case tooLarge(limitBytes: Int)
    case malformed(String)

    public var status: Int {
        switch self {
        case .tooLarge: 413
        case .malformed: 400
        }
    }

    public var description: String {
        switch self {
        case .tooLarge(let limit): "the body is over \(limit / 1024) KiB"
        case .malformed(let message): message
        }
    }
}

/// `POST /api/pair`: `{"code": "123456"}`.
public struct PairingRequest: Equatable, Sendable {
    public let code: String

    public init(body: [UInt8]) throws(APIRequestError) {
        let example = "{\"code\": \"123456\"}"
        let object = try APIRequest.object(body, allowEmpty: false, example: example)
        guard let code = object["code"] as? String, code.utf8.count <= 64 else { throw .malformed("expected \(example)") }
        self.code = code
    }
}

/// `POST /api/record/start`: an empty body or `{"title": "…"}` (a longer title is cut).
public struct StartRequest: Equatable, Sendable {
    public let title: String?

    public init(body: [UInt8]) throws(APIRequestError) {
        let example = "{\"title\": \"Head race\"}"
        let object = try APIRequest.object(body, allowEmpty: true, example: example)
        switch object["title"] {
        case nil, is NSNull: title = nil
        case let text as String:
            // Without control characters (StoredText): a title is shown on terminals and pages.
            let trimmed = StoredText.cleaned(text)
            title = trimmed.isEmpty ? nil : String(trimmed.prefix(APIRequest.maximumTitleCharacters))
        default: throw .malformed("the title must be text, as in \(example)")
        }
    }
}

/// `POST /api/sessions/{id}/notes`: `{"text": "…", "t_s": 12.5}`; `t_s` (seconds into the
/// session) only for a stored session, where it defaults to the end.
public struct NoteRequest: Equatable, Sendable {
    public let text: String
    public let sessionTime: Double?

    public init(body: [UInt8]) throws(APIRequestError) {
        let example = "{\"text\": \"Pushed on 500 to go\"}"
        let object = try APIRequest.object(body, allowEmpty: false, example: example)
        // Without control characters (StoredText): ESC, BEL, NUL or a bidi override in a note
        // would reach every terminal and page that shows it. One that is nothing else is empty.
        guard let raw = object["text"] as? String, case let text = StoredText.cleaned(raw), !text.isEmpty else {
            throw .malformed("expected \(example) with some text")
        }
        self.text = String(text.prefix(APIRequest.maximumNoteCharacters))
        switch object["t_s"] {
        case nil, is NSNull: sessionTime = nil
        case let value?:
            guard let t = APIRequest.number(value) else { throw .malformed("t_s must be a number of seconds into the session") }
            guard t.isFinite, t >= 0 else { throw .malformed("t_s must be seconds into the session, 0 or more") }
            sessionTime = t
        }
    }

    /// The time of the note in a stored session that ends at `end` seconds, or why it cannot be.
    public func time(inSessionEndingAt end: Double) throws(APIRequestError) -> Double {
        let end = end.isFinite ? max(end, 0) : 0
        guard let t = sessionTime else { return end }
        guard t <= end + 1 else { throw .malformed("t_s must be a time within the session (0 to \(Int(end)) s)") }
        return min(t, end)
    }
}

/// `PATCH /api/sessions/{id}`: `{"title": "…"}` of at most 200 characters.
public struct RetitleRequest: Equatable, Sendable {
    public let title: String

    public init(body: [UInt8]) throws(APIRequestError) {
        let example = "{\"title\": \"Head race\"}"
        let object = try APIRequest.object(body, allowEmpty: false, example: example)
        guard let raw = object["title"] as? String else { throw .malformed("expected \(example)") }
        let title = StoredText.cleaned(raw)  // without control characters, as a note
        guard !title.isEmpty, title.count <= APIRequest.maximumTitleCharacters else {
            throw .malformed("a title has 1 to \(APIRequest.maximumTitleCharacters) characters")
        }
        self.title = title
    }
}

/// A message from the phone on `/api/sessions/{id}/playback`: `{"seek": 754.5}`, `{"speed": 10}`,
/// `{"pause": true}` or `{"pause": false}` (play); several keys in one object are applied in
/// that order. Speeds from 0.1× to 60×; a seek is clamped to the session by the player.
public struct PlaybackCommand: Equatable, Sendable {
    public static let speeds: ClosedRange<Double> = 0.1...60
    public let seek: Double?
    public let speed: Double?
    public let pause: Bool?

    public init(seek: Double? = nil, speed: Double? = nil, pause: Bool? = nil) {
        self.seek = seek
        self.speed = speed
        self.pause = pause
    }

    public init(body: [UInt8]) throws(APIRequestError) {
        let example = "{\"seek\": 600}, {\"speed\": 10} or {\"pause\": true}"
        let object = try APIRequest.object(body, allowEmpty: false, example: example)
        var seek: Double?, speed: Double?, pause: Bool?
        if let value = object["seek"], !(value is NSNull) {
            guard let t = APIRequest.number(value), t.isFinite, t >= 0 else { throw .malformed("seek must be seconds into the session, 0 or more") }
            seek = t
        }
        if let value = object["speed"], !(value is NSNull) {
            guard let s = APIRequest.number(value), s.isFinite, Self.speeds.contains(s) else {
                throw .malformed("speed must be a number from 0.1 to 60")
            }
            speed = s
        }
        if let value = object["pause"], !(value is NSNull) {
            guard let flag = APIRequest.boolean(value) else { throw .malformed("pause must be true or false") }
            pause = flag
        }
        guard seek != nil || speed != nil || pause != nil else { throw .malformed("expected \(example)") }
        self.init(seek: seek, speed: speed, pause: pause)
    }
}

/// `GET /api/sessions/{id}/series?fields=split,rate,speed,distance&points=N`: which series to
/// send for the plots, downsampled on the server to `points` buckets (2 to 5,000; default 600).
/// Per stroke: `split`, `rate`, `speed`, `distance`; from the session's records: `heart_rate`
/// (one series per strap or seat), `power` (the oarlock's, else the device's strokes'),
/// `catch_angle`, `finish_angle`, `avg_force`, `max_force` (the oarlock's).
public struct SeriesRequest: Equatable, Sendable {
    public enum Field: String, CaseIterable, Sendable {
        case split, rate, speed, distance
        case heartRate = "heart_rate", power
        case catchAngle = "catch_angle", finishAngle = "finish_angle"
        case averageForce = "avg_force", maxForce = "max_force"
        /// The boat's fused speed within the strokes, as stored (`SessionSpeedSeries`).
        case boatSpeed = "boat_speed"
        /// The key in the answer (units as `oarlog replay --json`).
        public var key: String {
            switch self {
            case .split: "split_s_per_500m"
            case .rate: "rate_spm"
            case .speed: "speed_mps"
            case .distance: "distance_m"
            case .heartRate: "heart_rate_bpm"
            case .power: "power_w"
            case .catchAngle: "catch_angle_deg"
            case .finishAngle: "finish_angle_deg"
            case .averageForce: "avg_force_n"
            case .maxForce: "max_force_n"
            case .boatSpeed: "boat_speed_mps"
            }
        }

        /// A series of the strokes the analyzer concluded (the others come from the records).
        public var isPerStroke: Bool { [.split, .rate, .speed, .distance].contains(self) }
    }

    public static let defaultPoints = 600
    public static let pointLimits = 2...5_000
    public let fields: [Field]
    public let points: Int

    public init(fields: String?, points: String?) throws(APIRequestError) {
        var chosen: [Field] = []
        let names = Field.allCases.map(\.rawValue).joined(separator: ", ")
        for name in (fields ?? "split,rate,speed,distance").split(separator: ",") {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard let field = Field(rawValue: trimmed) else {
                throw .malformed("fields: a comma-separated list of \(names) (not '\(trimmed.prefix(40))')")
            }
            if !chosen.contains(field) { chosen.append(field) }
        }
        guard !chosen.isEmpty else { throw .malformed("fields: at least one of \(names)") }
        self.fields = chosen
        self.points = try APIRequest.points(points, within: Self.pointLimits, default: Self.defaultPoints)
    }

    /// Whether any series comes from the session's records (they are read for it).
    public var wantsRecords: Bool { fields.contains { !$0.isPerStroke } }
}

/// `GET /api/sessions/{id}/trail?points=N`: the track for the session page's map, at most N
/// points (2 to 100,000; default 10,000), evenly thinned when the session has more fixes.
public struct TrailRequest: Equatable, Sendable {
    public static let defaultPoints = 10_000
    public static let pointLimits = 2...100_000
    public let points: Int

    public init(points: String?) throws(APIRequestError) {
        self.points = try APIRequest.points(points, within: Self.pointLimits, default: Self.defaultPoints)
    }
}

/// `GET /api/sessions/{id}/curve?piece=K` (the averaged stroke of piece K, from 0) or
/// `?stroke=N` (stroke N of the session, from 0), with `points=P` samples over the stroke
/// (10 to 500; default 100).
public struct CurveRequest: Equatable, Sendable {
    public enum Target: Equatable, Sendable {
        case piece(Int)
        case stroke(Int)
    }

    public static let defaultPoints = 100
    public static let pointLimits = 10...500
    public let target: Target
    public let points: Int

    public init(piece: String?, stroke: String?, points: String?) throws(APIRequestError) {
        func index(_ text: String, _ name: String) throws(APIRequestError) -> Int {
            guard let n = Int(text), (0...10_000_000).contains(n) else { throw .malformed("\(name): a whole number from 0") }
            return n
        }
        switch (piece, stroke) {
        case (let p?, nil): target = .piece(try index(p, "piece"))
        case (nil, let s?): target = .stroke(try index(s, "stroke"))
        default: throw .malformed("give piece=K (a piece's average stroke) or stroke=N (one stroke), not both")
        }
        self.points = try APIRequest.points(points, within: Self.pointLimits, default: Self.defaultPoints)
    }
}
