import Foundation
import OarlogCore

/// The challenges, kept in `challenges.json` beside the sessions (locked, replaced atomically:
/// `DataFile`): those set here and those that came through the fleet, each with its linked
/// attempt, the attempts tried and the challenger's answers. At most 500.
public struct ChallengeBook: Sendable {
    public static let fileName = "challenges.json"
    public static let maximumChallenges = 500
    static let version = 1

    public let path: String

    public init(sessionsPath: String) {
        path = (sessionsPath.hasSuffix("/") ? sessionsPath : sessionsPath + "/") + Self.fileName
    }

    var file: DataFile { DataFile(path: path, maximumBytes: 16 << 20) }

    /// Every challenge, newest first.
    public func list() throws(ChallengeError) -> [Challenge] {
        let bytes: [UInt8]?
        do { bytes = try file.read() } catch { throw .unreadable(error.description) }
        guard let bytes, !bytes.isEmpty else { return [] }
        return try Self.challenges(in: bytes)
    }

    /// The challenge `id`.
    public func challenge(id: String) throws(ChallengeError) -> Challenge {
        guard let c = try list().first(where: { $0.id == id }) else { throw .notFound("no challenge \(Self.quoted(id))") }
        return c
    }

    /// Reads the challenges, lets `body` change them, and writes them back, under the lock.
    @discardableResult
    func change<T>(_ body: (inout [Challenge]) throws(ChallengeError) -> T) throws(ChallengeError) -> T {
        do {
            return try file.locked { () throws(ChallengeError) -> T in
                var all = try list()
                let before = all
                let result = try body(&all)
                if all != before {
                    do { try file.replace(with: Self.text(of: all)) } catch { throw .unreadable("\(error)") }
                }
                return result
            }
        } catch let error as ChallengeError {
            throw error
        } catch {
            throw .unreadable("\(error)")
        }
    }

    /// Keeps a new challenge (its id made here).
    public func add(_ challenge: Challenge) throws(ChallengeError) -> Challenge {
        try change { (all: inout [Challenge]) throws(ChallengeError) -> Challenge in
            guard all.count < Self.maximumChallenges else { throw .full("\(Self.maximumChallenges) challenges are kept already") }
            all.append(challenge)
            return challenge
        }
    }

    /// The challenger's answer to the attempt waiting on challenge `id`: accepted, or rejected
    /// (the challenge then stays open for another attempt).
    public func answer(id: String, accept: Bool, note: String, by: String?, now: Double = Date().timeIntervalSince1970)
        throws(ChallengeError) -> Challenge {
        if let problem = Self.textProblem(note, limit: 2000) { throw .badRequest("note: \(problem)") }
        return try change { (all: inout [Challenge]) throws(ChallengeError) -> Challenge in
            guard let k = all.firstIndex(where: { $0.id == id }) else { throw .notFound("no challenge \(Self.quoted(id))") }
            var c = all[k]
            guard let attempt = c.attempt else {
                throw .conflict("challenge \(id) has no attempt waiting for an answer (it is \(c.state(now: now).rawValue))")
            }
            guard c.acceptance == nil else { throw .conflict("challenge \(id) is accepted already") }
            let answer = ChallengeAnswer(by: by ?? c.setBy, note: note, at: now, accepted: accept, session: attempt.session, start: attempt.start)
            ChallengeLinking.apply(answer, to: &c)
            all[k] = c
            return c
        }
    }

    /// Links the attempts in `store` to the challenges (sessions not yet searched are searched
    /// first): each challenge's first attempt that meets it and was not rejected, and the
    /// others it tried. Returns every challenge.
    @discardableResult
    public func refresh(_ store: SessionStore, now: Double = Date().timeIntervalSince1970) throws -> [Challenge] {
        let names = Set(try list().map { $0.course.lowercased() })
        guard !names.isEmpty else { return [] }
        let known = try store.courses.list().filter { names.contains($0.name.lowercased()) }
        var attempts: [CourseAttempt] = []
        for course in known { attempts += try store.attempts(course: course.name) }
        return try change { (all: inout [Challenge]) -> [Challenge] in
            for k in all.indices { ChallengeLinking.link(attempts, to: &all[k]) }
            return all
        }
    }

    static func text(of challenges: [Challenge]) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("version", version)
        w.beginArray(key: "challenges")
        for c in challenges { c.write(into: &w, now: nil, keeping: true) }
        w.endArray()
        w.endObject()
        return w.take() + "\n"
    }

    static func challenges(in bytes: [UInt8]) throws(ChallengeError) -> [Challenge] {
        let top: JSONValue
        do { top = try JSONValue.read(bytes) } catch { throw .unreadable("\(fileName): \(error.message)") }
        guard case .object(let fields) = top, case .array(let entries)? = fields["challenges"] else {
            throw .unreadable("\(fileName): not a list of challenges ({\"version\": 1, \"challenges\": [...]})")
        }
        if case .number(let v)? = fields["version"], v > Double(version) {
            throw .unreadable("\(fileName) is of a newer version than this oarlog reads (\(version))")
        }
        var out: [Challenge] = []
        for (i, entry) in entries.enumerated() {
            do { out.append(try ChallengeReading.challenge(entry)) } catch {
                throw .unreadable("\(fileName): challenges[\(i)]: \(error.description)")
            }
        }
        return out.sorted { $0.created > $1.created || ($0.created == $1.created && $0.id < $1.id) }
    }

    /// A new challenge id: the UTC time's digits and 8 hex digits (a topic level, `c-…`).
    static func newID(now: Double) -> String {
        "c-\(UTCTime.iso8601(now).filter(\.isNumber))-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
    }

    /// Whether `id` could be a challenge's: 1–64 of a-z, 0-9 and `-` (a topic level).
    public static func isID(_ id: String) -> Bool {
        let b = id.utf8
        return !b.isEmpty && b.count <= 64 && b.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 }
    }

    static func textProblem(_ text: String, limit: Int) -> String? {
        if text.utf8.count > limit { return "at most \(limit) bytes" }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" }) { return "no control characters" }
        return nil
    }

    static func quoted(_ text: String) -> String { "\"\(StoredText.escapedForTerminal(text))\"" }
}

/// What went wrong with a challenge, in words; the server maps each kind to a status.
public enum ChallengeError: Error, Sendable, Equatable, CustomStringConvertible {
    case notFound(String)
    case badRequest(String)
    case conflict(String)
    case full(String)
    case unreadable(String)

    public var description: String {
        switch self {
        case .notFound(let why), .badRequest(let why), .conflict(let why), .full(let why), .unreadable(let why): return why
        }
    }
}
