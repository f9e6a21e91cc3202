import OarlogCore
import OarlogFleet

/// A challenge: "the Bridge 2k under 9:30 before 2026-12-20, for boat Eight". One person (a coach
/// or a crew) sets it, a boat rows the course, and an attempt that meets it is linked to it by
/// itself and waits for the challenger, who accepts or rejects it with a note. docs/CHALLENGES.md.
public struct Challenge: Sendable, Equatable {
    public var id: String
    /// The course's name, as the course library keeps it.
    public var course: String
    /// The time to beat, seconds: an attempt meets it when its time (its handicapped time, with
    /// `handicap`) is under it.
    public var target: Seconds
    /// Attempts must start before this (seconds since 1970, UTC); nil: no deadline.
    public var deadline: Double?
    /// The challenged boat's name; nil: any boat.
    public var boat: String?
    /// The challenged boat's class when its name holds none (`BoatClass.of(boatName:)`).
    public var boatClass: BoatClass?
    /// Compare handicapped times (`BoatClass`: time × factor, an eight's time).
    public var handicap: Bool
    /// Who set it: a coach's or a crew's name.
    public var setBy: String
    public var note: String
    /// When it was set (seconds since 1970, UTC): attempts before it do not count.
    public var created: Double
    /// The fleet id of whoever published it (`PREFIX/FROM/challenge/ID`); nil: set here and not
    /// yet published.
    public var from: String?

    /// The attempt linked to it (the first that met it, not rejected), waiting or accepted.
    public var attempt: ChallengeAttempt?
    /// The challenger's acceptance of `attempt`.
    public var acceptance: ChallengeAnswer?
    /// Other attempts of the course by the boat in the challenge's time, not linked.
    public var tried: [ChallengeAttempt] = []
    /// Attempts the challenger rejected, with the answer; a rejected challenge stays open.
    public var rejected: [Rejection] = []

    public struct Rejection: Sendable, Equatable {
        public var attempt: ChallengeAttempt
        public var answer: ChallengeAnswer
    }

    public init(id: String, course: String, target: Seconds, deadline: Double? = nil, boat: String? = nil, boatClass: BoatClass? = nil,
                handicap: Bool = false, setBy: String, note: String = "", created: Double, from: String? = nil) {
        self.id = id
        self.course = course
        self.target = target
        self.deadline = deadline
        self.boat = boat
        self.boatClass = boatClass
        self.handicap = handicap
        self.setBy = setBy
        self.note = note
        self.created = created
        self.from = from
    }

    /// Where a challenge stands.
    public enum State: String, Sendable, CaseIterable {
        /// Set; no attempt has met it yet (or the last was rejected and none since: `rejected`).
        case open
        /// An attempt met it and waits for the challenger's answer.
        case waiting
        /// The challenger accepted the linked attempt: done.
        case accepted
        /// The challenger rejected the last attempt; the challenge stays open for another one.
        case rejected
        /// Past its deadline with no attempt waiting or accepted.
        case expired
    }

    public func state(now: Double) -> State {
        if acceptance != nil, attempt != nil { return .accepted }
        if attempt != nil { return .waiting }
        if let deadline, now >= deadline { return .expired }
        return rejected.isEmpty ? .open : .rejected
    }

    /// The answer to show: the acceptance, or the last rejection when no attempt waits.
    public var lastAnswer: ChallengeAnswer? {
        if let acceptance { return acceptance }
        return attempt == nil ? rejected.last?.answer : nil
    }

    /// Whether `attempt` (of any course, any boat) counts for this challenge: its course, the
    /// challenged boat (by fleet id: "Eight" and "eight" are one boat), started after the
    /// challenge was set and before its deadline.
    public func counts(_ a: ChallengeAttempt, course name: String) -> Bool {
        guard name.lowercased() == course.lowercased(), let date = a.date, date >= created else { return false }
        if let deadline, date >= deadline { return false }
        if let boat, FleetTopics.boatID(boat) != FleetTopics.boatID(a.boat) { return false }
        return true
    }

    /// The class an attempt's boat is handicapped as: the challenged boat's given class, else
    /// the class in the attempt's boat name.
    public func boatClass(of a: ChallengeAttempt) -> BoatClass? {
        if let boat, let boatClass, FleetTopics.boatID(boat) == FleetTopics.boatID(a.boat) { return boatClass }
        return BoatClass.of(boatName: a.boat) ?? (boat == nil ? nil : boatClass)
    }

    /// The time compared with the target: the attempt's time, or with a handicap its
    /// handicapped time (nil when its boat's class is not known).
    public func measured(_ a: ChallengeAttempt) -> Seconds? { handicap ? a.handicapped : a.time }

    /// Whether the attempt meets the target.
    public func meets(_ a: ChallengeAttempt) -> Bool { measured(a).map { $0 < target } ?? false }

    /// Whether the attempt was rejected already.
    public func wasRejected(_ a: ChallengeAttempt) -> Bool { rejected.contains { $0.attempt.isSame(as: a) } }
}

/// One attempt as a challenge keeps it: the session, the boat, when, and its times.
public struct ChallengeAttempt: Sendable, Equatable {
    public var session: String
    public var boat: String
    /// The session's start (seconds since 1970, UTC).
    public var startUTC: Double?
    /// Session time of the start crossing.
    public var start: Seconds
    public var time: Seconds
    /// time × the boat class's factor, when the class is known.
    public var handicapped: Seconds?

    public init(session: String, boat: String, startUTC: Double?, start: Seconds, time: Seconds, handicapped: Seconds?) {
        self.session = session
        self.boat = boat
        self.startUTC = startUTC
        self.start = start
        self.time = time
        self.handicapped = handicapped
    }

    /// When the attempt started (its start crossing, UTC).
    public var date: Double? { startUTC.map { $0 + start } }

    /// The same passage: one session, start crossings within 0.05 s.
    public func isSame(as other: ChallengeAttempt) -> Bool {
        session == other.session && abs(start - other.start) < 0.05
    }
}

/// The challenger's answer to an attempt: who, the note, when, accepted or rejected, and which
/// attempt (session and start) it answers.
public struct ChallengeAnswer: Sendable, Equatable {
    public var by: String
    public var note: String
    public var at: Double
    public var accepted: Bool
    public var session: String
    public var start: Seconds

    public init(by: String, note: String, at: Double, accepted: Bool, session: String, start: Seconds) {
        self.by = by
        self.note = note
        self.at = at
        self.accepted = accepted
        self.session = session
        self.start = start
    }

    public func answers(_ a: ChallengeAttempt) -> Bool { a.session == session && abs(a.start - start) < 0.05 }
}
