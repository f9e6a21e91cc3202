import ArgumentParser
import Foundation
import OarlogApp
import OarlogCore
import OarlogTerminal

/// `oarlog challenges`: challenges on the club's courses — set one, see which attempt met it,
/// accept or reject it. docs/CHALLENGES.md.
struct ChallengesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "challenges",
        abstract: "Challenges on the kept courses: list, set, accept, reject (see docs/CHALLENGES.md).",
        discussion: """
            One person sets a challenge, a boat rows the course, and the first attempt that meets \
            it is linked by itself and waits for the challenger's answer. Through the fleet \
            (`serve --coach`, `serve --publish`) challenges, attempts and answers go between boats.
            Examples:
              oarlog challenges
              oarlog challenges set --course "Bridge 2k" --under 9:30 --before 2026-12-20 --boat Eight --by Coach
              oarlog challenges set --course "Bridge 2k" --under 7:00 --handicap --note "any boat, handicapped"
              oarlog challenges accept c-20261126213000000-3fa9c2d1 --note "well rowed"
              oarlog challenges reject c-20261126213000000-3fa9c2d1 --note "missed the buoy: go again"
            """,
        subcommands: [List.self, Set.self, Accept.self, Reject.self],
        defaultSubcommand: List.self
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Every challenge with its state and linked attempt.")

        @Flag(help: "Print a JSON array: id, course, target_s, deadline, boat, handicap, set_by, note, created, state, attempt, tried, answer.")
        var json = false

        func run() throws {
            let now = Clock.now
            let all = try Courses.reporting { try SessionStore.default.listChallenges(now: now) }
            if json {
                StandardStreams.write(Challenge.json(all, now: now) + "\n")
            } else if all.isEmpty {
                StandardStreams.error("no challenges (oarlog challenges set --course NAME --under 9:30)\n")
            } else {
                StandardStreams.write(ChallengeTable.text(all, now: now))
            }
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Set a challenge on a kept course.")

        @Option(help: "The kept course's name.")
        var course: String

        @Option(help: "The time to beat: 9:30, 9:30.5, 1:02:30.")
        var under: String

        @Option(help: "Attempts must start before this UTC date (2026-12-20) or time (2026-12-20T18:00).")
        var before: String?

        @Option(help: "The challenged boat's name (default: any boat).")
        var boat: String?

        @Option(name: .customLong("class"), help: "The boat's class when its name holds none: 1x, 2x, 2-, 4x, 4-, 4+, 8+.")
        var boatClass: String?

        @Flag(help: "Compare handicapped times (time × the class's factor: an eight's time; docs/CHALLENGES.md).")
        var handicap = false

        @Option(help: "Who sets it (a coach's or a crew's name).")
        var by: String?

        @Option(help: "A note for the crew.")
        var note: String?

        func run() throws {
            let request = SessionStore.ChallengeRequest(course: course, target: under, deadline: before, boat: boat, boatClass: boatClass,
                                                        handicap: handicap, setBy: by, note: note)
            let store = SessionStore.default
            let c = try Courses.reporting { () throws -> Challenge in
                let set = try store.setChallenge(request)
                return try store.listChallenges().first { $0.id == set.id } ?? set
            }
            StandardStreams.write("set \(c.id): \(ChallengeTable.describe(c))\n")
            if let a = c.attempt { StandardStreams.write("already met by \(a.session) in \(RowingFormat.duration(a.time)): waiting for your answer\n") }
        }
    }

    struct Accept: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "accept", abstract: "Accept the attempt waiting on a challenge.")
        @Argument(help: "The challenge's id.") var id: String
        @Option(help: "Your note to the crew.") var note: String = ""
        @Option(help: "Who answers (default: who set it).") var by: String?

        func run() throws { try ChallengesCommand.answer(id: id, accept: true, note: note, by: by) }
    }

    struct Reject: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reject", abstract: "Reject the attempt waiting on a challenge (the challenge stays open for another).")
        @Argument(help: "The challenge's id.") var id: String
        @Option(help: "Why, for the crew.") var note: String = ""
        @Option(help: "Who answers (default: who set it).") var by: String?

        func run() throws { try ChallengesCommand.answer(id: id, accept: false, note: note, by: by) }
    }

    static func answer(id: String, accept: Bool, note: String, by: String?) throws {
        let store = SessionStore.default
        let c = try Courses.reporting { () throws -> Challenge in
            try store.challenges.refresh(store)
            return try store.challenges.answer(id: id, accept: accept, note: note, by: by)
        }
        StandardStreams.write("\(c.id): \(c.state(now: Clock.now).rawValue)\(c.attempt.map { " (next attempt waiting: \($0.session))" } ?? "")\n")
    }

    enum Clock {
        static var now: Double { Date().timeIntervalSince1970 }
    }
}

/// The challenges as a table: id, course, target, boat, state, the attempt's time and session.
enum ChallengeTable {
    static func text(_ all: [Challenge], now: Double) -> String {
        let rows = [["id", "course", "under", "boat", "by", "deadline", "state", "time", "session"]] + all.map { row($0, now: now) }
        var text = TextTable.columns(rows, rightAligned: [2, 7])
        for c in all {
            if let answer = c.lastAnswer, !answer.note.isEmpty {
                text += "\(c.id): \(answer.accepted ? "accepted" : "rejected") by \(StoredText.escapedForTerminal(answer.by)): "
                    + "\(StoredText.escapedForTerminal(answer.note))\n"
            }
        }
        return text
    }

    static func row(_ c: Challenge, now: Double) -> [String] {
        let a = c.attempt
        var time = "—"
        if let a {
            time = RowingFormat.duration(a.time)
            if c.handicap { time += " (\(RowingFormat.duration(a.handicapped)) h)" }
        }
        let boat = c.boat.map { StoredText.escapedForTerminal($0) } ?? "any"
        let deadline = c.deadline.map { String(UTCTime.iso8601($0).prefix(10)) } ?? "—"
        let session = a?.session ?? (c.tried.isEmpty ? "—" : "\(c.tried.count) tried")
        return [c.id, StoredText.escapedForTerminal(c.course), RowingFormat.duration(c.target) + (c.handicap ? " h" : ""), boat,
                StoredText.escapedForTerminal(c.setBy), deadline, c.state(now: now).rawValue, time, session]
    }

    static func describe(_ c: Challenge) -> String {
        "\(StoredText.escapedForTerminal(c.course)) under \(RowingFormat.duration(c.target))\(c.handicap ? " handicapped" : "")"
            + (c.deadline.map { " before \(String(UTCTime.iso8601($0).prefix(10)))" } ?? "")
            + " for \(c.boat.map { StoredText.escapedForTerminal($0) } ?? "any boat")"
    }
}
