import Foundation
import OarlogCore

/// The challenges through the one door: set one on a kept course, list them (attempts linked
/// first), accept or reject the attempt waiting.
extension SessionStore {
    /// The challenges beside these sessions.
    public var challenges: ChallengeBook { ChallengeBook(sessionsPath: path) }

    /// What a person gives to set a challenge, as typed (`oarlog challenges set`, `POST
    /// /api/challenges`): the course's name, the target (`9:30`, `9:30.5`, `1:02:30` or seconds),
    /// the deadline (`2026-12-20`: attempts must start before that day, UTC; or a UTC time
    /// `2026-12-20T18:00`), the boat (nil: any), its class (`8+`, …) when its name holds none,
    /// handicap, who sets it and a note.
    public struct ChallengeRequest: Sendable {
        public var course: String
        public var target: String
        public var deadline: String?
        public var boat: String?
        public var boatClass: String?
        public var handicap: Bool
        public var setBy: String?
        public var note: String?

        public init(course: String, target: String, deadline: String? = nil, boat: String? = nil, boatClass: String? = nil,
                    handicap: Bool = false, setBy: String? = nil, note: String? = nil) {
            self.course = course
            self.target = target
            self.deadline = deadline
            self.boat = boat
            self.boatClass = boatClass
            self.handicap = handicap
            self.setBy = setBy
            self.note = note
        }
    }

    /// Sets a challenge on a kept course; refused with the reason (an unknown course, a target
    /// or deadline that cannot be read, a deadline already past, a handicap without a class).
    public func setChallenge(_ r: ChallengeRequest, now: Double = Date().timeIntervalSince1970) throws -> Challenge {
        let course = try courses.course(named: r.course)
        guard let target = Self.parseTarget(r.target) else {
            throw ChallengeError.badRequest("target: '\(r.target)' is not a time such as 9:30, 9:30.5 or 1:02:30")
        }
        var deadline: Double?
        if let text = r.deadline?.trimmingWhitespace(), !text.isEmpty {
            guard let d = Self.parseDeadline(text) else {
                throw ChallengeError.badRequest("deadline: '\(text)' is not a UTC date such as 2026-12-20 (or 2026-12-20T18:00)")
            }
            guard d > now else { throw ChallengeError.badRequest("deadline: \(text) is past") }
            deadline = d
        }
        var boatClass: BoatClass?
        if let text = r.boatClass?.trimmingWhitespace(), !text.isEmpty {
            guard let c = BoatClass(parsing: text) else {
                throw ChallengeError.badRequest("class: '\(text)' is not one of \(BoatClass.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            boatClass = c
        }
        let boat = r.boat?.trimmingWhitespace()
        let setBy = r.setBy?.trimmingWhitespace() ?? ""
        for (name, text, limit) in [("boat", boat ?? "", 200), ("by", setBy, 200), ("note", r.note ?? "", 2000)] {
            if let problem = ChallengeBook.textProblem(text, limit: limit) { throw ChallengeError.badRequest("\(name): \(problem)") }
        }
        if r.handicap, let boat, !boat.isEmpty, boatClass == nil, BoatClass.of(boatName: boat) == nil {
            throw ChallengeError.badRequest("handicap: the class of \"\(boat)\" is not in its name: give it (class 8+, 4x, …)")
        }
        let challenge = Challenge(id: ChallengeBook.newID(now: now), course: course.name, target: target, deadline: deadline,
                                  boat: boat?.isEmpty == false ? boat : nil, boatClass: boatClass, handicap: r.handicap,
                                  setBy: setBy.isEmpty ? "coach" : setBy, note: r.note ?? "", created: now)
        return try challenges.add(challenge)
    }

    /// Every challenge with the attempts linked first (newest first).
    public func listChallenges(now: Double = Date().timeIntervalSince1970) throws -> [Challenge] {
        try challenges.refresh(self, now: now)
        return try challenges.list()
    }

    /// `9:30`, `9:30.5`, `1:02:30`, `570` → seconds (0 to 24 h); nil for anything else.
    public static func parseTarget(_ text: String) -> Seconds? {
        let parts = text.trimmingWhitespace().split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var total = 0.0
        for (k, part) in parts.enumerated() {
            let last = k == parts.count - 1
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && ($0.isNumber || (last && $0 == ".")) }),
                  let v = Double(part), v >= 0, k == 0 || v < 60 else { return nil }
            total = total * 60 + v
        }
        return total > 0 && total < 86_400 ? total : nil
    }

    /// `2026-12-20` (the start of that UTC day) or a UTC time `2026-12-20T18:00[:00]` → seconds since 1970.
    public static func parseDeadline(_ text: String) -> Double? {
        if let t = UTCTime.parseTypedUTC(text) { return t }
        let parts = text.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              (1...12).contains(m), (1...31).contains(d) else { return nil }
        return UTCTime.epochSeconds(year: y, month: m, day: d)
    }
}
