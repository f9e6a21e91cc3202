import OarlogCore
import OarlogFleet

/// The fleet's course and challenge payloads (docs/FLEET.md "Courses and challenges"), written
/// and taken. Every payload is JSON of at most `maximumBytes` (the course list: 16 MiB).
///
/// - `PREFIX/all/courses`: `{"from", "courses": [{"name", "geojson"}]}`
/// - `PREFIX/SETTER/challenge/ID`: `{"id", "course", "target_s", "deadline", "boat", "boat_class",
///   "handicap", "set_by", "note", "created"}`
/// - `PREFIX/BOAT/challenge/ID/attempt`: `{"id", "boat", "attempt": {"session", "boat", "date",
///   "start_s", "time_s", "handicapped_s", "met"} | null, "tried": [the same]}`
/// - `PREFIX/SETTER/challenge/ID/answer`: `{"id", "answers": [{"by", "note", "at", "accepted",
///   "session", "start_s"}]}` (every answer, oldest first)
enum ChallengePayloads {
    static let maximumBytes = 256 * 1024
    static let maximumCourseBytes = 16 << 20

    struct Refused: Error, CustomStringConvertible {
        var description: String
    }

    /// The retained messages `me` owes for `c`, by topic.
    static func add(_ c: Challenge, me: String, topics: FleetTopics, to wanted: inout [String: [UInt8]]) {
        if c.from == me {
            var w = JSONWriter()
            w.beginObject()
            c.writeDefinition(into: &w)
            w.endObject()
            wanted[topics.challenge(from: me, id: c.id)] = Array(w.take().utf8)
            let answers = (c.rejected.map(\.answer) + [c.acceptance].compactMap { $0 }).sorted { $0.at < $1.at }
            if !answers.isEmpty {
                var a = JSONWriter()
                a.beginObject()
                a.field("id", c.id)
                a.beginArray(key: "answers")
                for answer in answers { Challenge.write(answer, key: nil, into: &a) }
                a.endArray()
                a.endObject()
                wanted[topics.challengeAnswer(from: me, id: c.id)] = Array(a.take().utf8)
            }
        }
        guard c.boat.map({ FleetTopics.boatID($0) == me }) ?? true else { return }
        let mine = { (a: ChallengeAttempt) in FleetTopics.boatID(a.boat) == me }
        let attempt = c.attempt.flatMap { mine($0) ? $0 : nil }
        let tried = c.tried.filter(mine) + c.rejected.map(\.attempt).filter(mine)
        guard attempt != nil || !tried.isEmpty else { return }
        var w = JSONWriter()
        w.beginObject()
        w.field("id", c.id)
        w.field("boat", me)
        if let attempt { c.write(attempt, key: "attempt", into: &w) } else { w.field("attempt", json: nil) }
        w.beginArray(key: "tried")
        for a in tried { c.write(a, key: nil, into: &w) }
        w.endArray()
        w.endObject()
        wanted[topics.challengeAttempt(boat: me, id: c.id)] = Array(w.take().utf8)
    }

    static func courses(_ courses: [SavedCourse], from: String) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.field("from", from)
        w.beginArray(key: "courses")
        for c in courses {
            w.beginObject()
            w.field("name", c.name)
            w.field("geojson", c.geoJSON)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return Array(w.take().utf8)
    }

    static func readCourses(_ payload: [UInt8]) throws -> (from: String, list: [(name: String, geoJSON: String)]) {
        guard payload.count <= maximumCourseBytes else { throw Refused(description: "a course list over 16 MiB") }
        guard case .object(let o) = try JSONValue.read(payload), case .string(let from)? = o["from"],
              case .array(let items)? = o["courses"] else { throw Refused(description: "not a course list ({\"from\", \"courses\": [...]})") }
        let list = try items.map { item -> (name: String, geoJSON: String) in
            guard case .object(let c) = item, case .string(let name)? = c["name"], case .string(let text)? = c["geojson"] else {
                throw Refused(description: "each course has a name and its geojson")
            }
            return (name, text)
        }
        return (from, list)
    }

    /// Applies a challenge (`kind` ""), a boat's attempts (`attempt`) or a challenger's answers
    /// (`answer`) written under `writer`'s level to the book; refused when the writer may not
    /// write it.
    static func apply(kind: String, writer: String, id: String, payload: [UInt8], to book: ChallengeBook) throws {
        guard payload.count <= maximumBytes else { throw Refused(description: "a payload over 256 KB") }
        guard case .object(let o) = try JSONValue.read(payload), o["id"] == .string(id) else {
            throw Refused(description: "not a challenge message, or of another id than its topic's")
        }
        switch kind {
        case "":
            var incoming = try ChallengeReading.challenge(.object(o))
            incoming.from = writer
            try book.change { (all: inout [Challenge]) throws(ChallengeError) in
                if let k = all.firstIndex(where: { $0.id == id }) {
                    guard all[k].from == writer else { throw .conflict("challenge \(id) is \(all[k].from ?? "this book")'s, not \(writer)'s") }
                    // The definition as its writer sends it; what was linked here stays.
                    incoming.attempt = all[k].attempt
                    incoming.acceptance = all[k].acceptance
                    incoming.tried = all[k].tried
                    incoming.rejected = all[k].rejected
                    all[k] = incoming
                } else {
                    guard all.count < ChallengeBook.maximumChallenges else { throw .full("\(ChallengeBook.maximumChallenges) challenges kept") }
                    all.append(incoming)
                }
            }
        case "attempt":
            let attempt = try o["attempt"].flatMap { $0 == .null ? nil : try ChallengeReading.attempt($0) }
            guard case .array(let items)? = o["tried"] else { throw Refused(description: "tried: an array is needed") }
            let reported = ([attempt].compactMap { $0 } + (try items.map(ChallengeReading.attempt)))
            try book.change { (all: inout [Challenge]) throws(ChallengeError) in
                guard let k = all.firstIndex(where: { $0.id == id }) else { return }
                var c = all[k]
                guard c.boat.map({ FleetTopics.boatID($0) == writer }) ?? true else {
                    throw .conflict("\(writer) reported an attempt of challenge \(id), which is for \(c.boat ?? "")")
                }
                // Only the writer's own attempts, each checked and handicapped here as if rowed here.
                let counted = reported.filter { FleetTopics.boatID($0.boat) == writer }.map { a -> ChallengeAttempt in
                    var a = a
                    a.handicapped = c.boatClass(of: a)?.handicapped(a.time)
                    return a
                }.filter { c.counts($0, course: c.course) }.sorted { ($0.date ?? 0) < ($1.date ?? 0) }
                ChallengeLinking.take(counted, into: &c)
                all[k] = c
            }
        default:
            guard case .array(let items)? = o["answers"] else { throw Refused(description: "answers: an array is needed") }
            let answers = try items.map(ChallengeReading.answer)
            try book.change { (all: inout [Challenge]) throws(ChallengeError) in
                guard let k = all.firstIndex(where: { $0.id == id }) else { return }
                guard all[k].from == writer else { throw .conflict("\(writer) answered challenge \(id), which \(all[k].from ?? "this book") set") }
                for answer in answers.sorted(by: { $0.at < $1.at }) { ChallengeLinking.apply(answer, to: &all[k]) }
            }
        }
    }
}
