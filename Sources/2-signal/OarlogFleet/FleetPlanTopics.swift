/// The topics of the coach's workout plans, which go the other way from everything else: the
/// coach publishes a plan for one boat on `PREFIX/BOAT/plan` or for every boat on
/// `PREFIX/all/plan` (retained, QoS 1: a boat that joins late or reconnects gets it), and each
/// boat answers on `PREFIX/BOAT/plan/answer` (retained: a coach that starts again sees who
/// accepted). docs/FLEET.md "Workouts from the coach".
extension FleetTopics {
    /// Where the coach's plan for one boat is, or for every boat with `boat` nil.
    public func plan(boat: String?) -> String { "\(prefix)/\(boat ?? FleetTopics.everyBoatLevel)/plan" }

    /// Where a boat's answer to a plan goes.
    public func planAnswer(boat: String) -> String { "\(prefix)/\(boat)/plan/answer" }

    /// The filter for every boat's answers (the coach's).
    public var everyPlanAnswer: String { "\(prefix)/+/plan/answer" }

    /// What a plan topic is for: `.some(nil)` every boat, `.some(id)` one boat; nil for a topic
    /// that is not a plan's (or whose boat id breaks the rule).
    public func parsePlan(_ topic: String) -> String?? {
        guard let boat = level(of: topic, ending: ["plan"]) else { return nil }
        if boat == FleetTopics.everyBoatLevel { return .some(nil) }
        return FleetTopics.isBoatID(boat) ? .some(boat) : nil
    }

    /// The boat of a plan answer's topic; nil for any other topic.
    public func parsePlanAnswer(_ topic: String) -> String? {
        guard let boat = level(of: topic, ending: ["plan", "answer"]), FleetTopics.isBoatID(boat) else { return nil }
        return boat
    }

    /// The level after the prefix of `PREFIX/LEVEL/ending…`.
    private func level(of topic: String, ending: [Substring]) -> String? {
        guard topic.hasPrefix(prefix + "/") else { return nil }
        let rest = topic.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard rest.count == ending.count + 1, !rest[0].isEmpty, Array(rest.dropFirst()) == ending else { return nil }
        return String(rest[0])
    }
}
