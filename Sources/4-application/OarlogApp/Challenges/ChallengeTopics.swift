import OarlogFleet

/// The topics of the club's courses and of challenges (docs/FLEET.md "Courses and challenges").
/// Everything is retained at the broker (QoS 1), so a boat or a coach that joins late, or starts
/// again, gets it; each writer writes only under its own level (the shipped ACL's
/// `pattern write PREFIX/%u/#`), except the club's course list, which the coach writes under
/// `all` (no boat's id is `all`).
///
/// - `PREFIX/all/courses`: the coach's course library, names and GeoJSON.
/// - `PREFIX/SETTER/challenge/ID`: a challenge, by whoever set it.
/// - `PREFIX/BOAT/challenge/ID/attempt`: the boat's attempts of it (the one that met it, the others tried).
/// - `PREFIX/SETTER/challenge/ID/answer`: the challenger's answers (accepted, rejected, with notes).
extension FleetTopics {
    public var clubCourses: String { "\(prefix)/\(FleetTopics.everyBoatLevel)/courses" }

    public func challenge(from writer: String, id: String) -> String { "\(prefix)/\(writer)/challenge/\(id)" }
    public func challengeAttempt(boat: String, id: String) -> String { "\(prefix)/\(boat)/challenge/\(id)/attempt" }
    public func challengeAnswer(from writer: String, id: String) -> String { "\(prefix)/\(writer)/challenge/\(id)/answer" }

    /// What a challenge link subscribes to.
    public var challengeFilters: [String] {
        [clubCourses, "\(prefix)/+/challenge/+", "\(prefix)/+/challenge/+/attempt", "\(prefix)/+/challenge/+/answer"]
    }

    /// A challenge topic's parts: the writer, the challenge id, and `""`, `attempt` or `answer`;
    /// nil for any other topic (or a writer or id that breaks the rules).
    public func parseChallenge(_ topic: String) -> (writer: String, id: String, kind: String)? {
        guard topic.hasPrefix(prefix + "/") else { return nil }
        let rest = topic.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard rest.count == 3 || rest.count == 4, rest[1] == "challenge", FleetTopics.isBoatID(rest[0]) else { return nil }
        let kind = rest.count == 4 ? String(rest[3]) : ""
        guard ["", "attempt", "answer"].contains(kind), ChallengeBook.isID(String(rest[2])) else { return nil }
        return (String(rest[0]), String(rest[2]), kind)
    }
}
