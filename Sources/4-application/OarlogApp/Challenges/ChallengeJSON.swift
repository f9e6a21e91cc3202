import OarlogCore

/// Challenges as JSON: what `oarlog challenges --json` and `GET /api/challenges` give (with
/// `state`), what `challenges.json` keeps (the same, with `from`), and the fleet's payloads.
///
/// A challenge: `id`, `course`, `target_s`, `deadline` (ISO 8601 UTC or null), `boat` (null: any
/// boat), `boat_class`, `handicap`, `set_by`, `note`, `created`, `state` (`open`, `waiting`,
/// `accepted`, `rejected`, `expired`), `attempt` (the linked attempt or null: `session`, `boat`,
/// `date`, `start_s`, `time_s`, `handicapped_s`, `met`), `tried` (the other attempts in its time,
/// the same keys), `answer` (`by`, `note`, `at`, `accepted`; null while none), and `rejected`
/// (each rejected attempt with its answer).
extension Challenge {
    public func write(into w: inout JSONWriter, now: Double?, keeping: Bool = false) {
        w.beginObject()
        writeDefinition(into: &w)
        if let now { w.field("state", state(now: now).rawValue) }
        if keeping { w.field("from", from) }
        if let attempt { write(attempt, key: "attempt", into: &w) } else { w.field("attempt", json: nil) }
        w.beginArray(key: "tried")
        for a in tried { write(a, key: nil, into: &w) }
        w.endArray()
        if keeping {
            if let acceptance { Self.write(acceptance, key: "acceptance", into: &w) }
        } else if let answer = lastAnswer {
            Self.write(answer, key: "answer", into: &w)
        } else {
            w.field("answer", json: nil)
        }
        w.beginArray(key: "rejected")
        for r in rejected {
            w.beginObject()
            write(r.attempt, key: "attempt", into: &w)
            Self.write(r.answer, key: "answer", into: &w)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    /// The fields that define it (the fleet's challenge payload has these alone).
    func writeDefinition(into w: inout JSONWriter) {
        w.field("id", id)
        w.field("course", course)
        w.field("target_s", target, places: 1)
        w.field("deadline", deadline.map { UTCTime.iso8601($0) })
        w.field("boat", boat)
        w.field("boat_class", boatClass?.rawValue)
        w.field("handicap", handicap)
        w.field("set_by", setBy)
        w.field("note", note)
        w.field("created", UTCTime.iso8601(created))
    }

    func write(_ a: ChallengeAttempt, key: String?, into w: inout JSONWriter) {
        w.beginObject(key: key)
        w.field("session", a.session)
        w.field("boat", a.boat)
        w.field("date", a.date.map { UTCTime.iso8601($0) })
        w.field("start_s", a.start, places: 2)
        w.field("time_s", a.time, places: 2)
        w.field("handicapped_s", a.handicapped, places: 2)
        w.field("met", meets(a))
        w.endObject()
    }

    static func write(_ answer: ChallengeAnswer, key: String?, into w: inout JSONWriter) {
        w.beginObject(key: key)
        w.field("by", answer.by)
        w.field("note", answer.note)
        w.field("at", UTCTime.iso8601(answer.at))
        w.field("accepted", answer.accepted)
        w.field("session", answer.session)
        w.field("start_s", answer.start, places: 2)
        w.endObject()
    }

    /// A list as a JSON array, with each one's state at `now`.
    public static func json(_ challenges: [Challenge], now: Double) -> String {
        var w = JSONWriter()
        w.beginArray()
        for c in challenges { c.write(into: &w, now: now) }
        w.endArray()
        return w.take()
    }

    public func json(now: Double) -> String {
        var w = JSONWriter()
        write(into: &w, now: now)
        return w.take()
    }
}

/// Reading challenges back (the file, the fleet's payloads); each error names the key.
enum ChallengeReading {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func challenge(_ value: JSONValue) throws(Failure) -> Challenge {
        guard case .object(let o) = value else { throw Failure(description: "a challenge is an object") }
        let id = try string(o, "id")
        guard ChallengeBook.isID(id) else { throw Failure(description: "id: not a challenge id") }
        var c = Challenge(id: id, course: try string(o, "course"), target: try number(o, "target_s"),
                          deadline: try date(o, "deadline", optional: true), boat: try optionalString(o, "boat"),
                          boatClass: try optionalString(o, "boat_class").flatMap(BoatClass.init(rawValue:)),
                          handicap: o["handicap"] == .bool(true), setBy: try string(o, "set_by"),
                          note: try optionalString(o, "note") ?? "", created: try date(o, "created", optional: false)!,
                          from: try optionalString(o, "from"))
        guard c.target > 0, c.target < 86_400 else { throw Failure(description: "target_s: not a time to row (0 to 24 h)") }
        if let a = o["attempt"], a != .null { c.attempt = try attempt(a) }
        if case .array(let items)? = o["tried"] { c.tried = try items.map(attempt) }
        if let a = o["acceptance"], a != .null { c.acceptance = try answer(a) }
        if case .array(let items)? = o["rejected"] {
            c.rejected = try items.map { item throws(Failure) in
                guard case .object(let r) = item, let a = r["attempt"], let b = r["answer"] else {
                    throw Failure(description: "rejected: each has an attempt and an answer")
                }
                return Challenge.Rejection(attempt: try attempt(a), answer: try answer(b))
            }
        }
        return c
    }

    static func attempt(_ value: JSONValue) throws(Failure) -> ChallengeAttempt {
        guard case .object(let o) = value else { throw Failure(description: "an attempt is an object") }
        let start = try number(o, "start_s")
        let date = try self.date(o, "date", optional: true)
        var handicapped: Double?
        if case .number(let h)? = o["handicapped_s"] { handicapped = h }
        return ChallengeAttempt(session: try string(o, "session"), boat: try optionalString(o, "boat") ?? "",
                                startUTC: date.map { $0 - start }, start: start, time: try number(o, "time_s"), handicapped: handicapped)
    }

    static func answer(_ value: JSONValue) throws(Failure) -> ChallengeAnswer {
        guard case .object(let o) = value else { throw Failure(description: "an answer is an object") }
        guard case .bool(let accepted)? = o["accepted"] else { throw Failure(description: "answer: accepted is true or false") }
        return ChallengeAnswer(by: try string(o, "by"), note: try optionalString(o, "note") ?? "", at: try date(o, "at", optional: false)!,
                               accepted: accepted, session: try string(o, "session"), start: try number(o, "start_s"))
    }

    static func string(_ o: [String: JSONValue], _ key: String) throws(Failure) -> String {
        guard case .string(let s)? = o[key] else { throw Failure(description: "\(key): a string is needed") }
        guard s.utf8.count <= 4096 else { throw Failure(description: "\(key): over 4096 bytes") }
        return s
    }

    static func optionalString(_ o: [String: JSONValue], _ key: String) throws(Failure) -> String? {
        if o[key] == nil || o[key] == .null { return nil }
        return try string(o, key)
    }

    static func number(_ o: [String: JSONValue], _ key: String) throws(Failure) -> Double {
        guard case .number(let n)? = o[key], n.isFinite else { throw Failure(description: "\(key): a number is needed") }
        return n
    }

    static func date(_ o: [String: JSONValue], _ key: String, optional: Bool) throws(Failure) -> Double? {
        if optional, o[key] == nil || o[key] == .null { return nil }
        guard case .string(let s)? = o[key], let t = UTCTime.parseISO8601(s) else {
            throw Failure(description: "\(key): an ISO 8601 UTC time is needed")
        }
        return t
    }
}
