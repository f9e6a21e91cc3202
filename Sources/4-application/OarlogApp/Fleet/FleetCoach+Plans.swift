import Foundation
import OarlogCore
import OarlogFences
import OarlogFleet
import OarlogMQTT
import OarlogWorkouts

/// The coach's plans: sent to one boat (`PREFIX/BOAT/plan`) or to all (`PREFIX/all/plan`),
/// retained at the broker, so that a boat that joins late or reconnects gets it; each boat's
/// answer comes back on `PREFIX/BOAT/plan/answer`. What was sent is read back from the broker
/// too, so a coach that starts again knows it. docs/FLEET.md "Workouts from the coach".
extension FleetCoach {
    /// Sends `plan` to the boat with topic id `boat`, or to every boat (nil). Returns the offer.
    @discardableResult
    public func sendPlan(_ plan: WorkoutPlan, to boat: String?, now: Double = Date().timeIntervalSince1970) throws -> FleetPlanOffer {
        if let boat, !FleetTopics.isBoatID(boat) { throw FleetPlanError("'\(boat)' is not a boat's id (a-z, 0-9, - and _, at most 64)") }
        let id = "\(UTCTime.iso8601(now).filter { $0.isNumber })-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
        let offer = FleetPlanOffer(id: id, from: connection.broker.username ?? "coach", boat: boat, sentUTC: now, plan: plan)
        state.withLock { $0.plans.sent(offer) }
        client?.publish(OutgoingMessage(topic: connection.topics.plan(boat: boat), payload: offer.payload, retain: true))
        return offer
    }

    /// `POST /api/fleet/workout`'s body: `{"spec": "3x4:00/2:00r"}` (or `{"plan": {…}}` in the
    /// JSON shape of the plans) with `"boat"`: a boat's name or id, or null for every boat.
    public static func planRequest(body: [UInt8]) throws(FleetPlanRequestError) -> (plan: WorkoutPlan, boat: String?) {
        let example = #"{"spec": "3x4:00/2:00r", "boat": null}"#
        guard body.count <= FleetPlanOffer.maximumBytes else { throw .init("a body of over \(FleetPlanOffer.maximumBytes) bytes") }
        guard let root = try? OarlogFences.JSONValue.parse(utf8: body, maxValues: 8192), case .object = root else {
            throw .init("expected a JSON object such as \(example)")
        }
        var boat: String?
        switch root["boat"] {
        case nil, .null?: boat = nil
        case .string(let name)? where !name.trimmingCharacters(in: .whitespaces).isEmpty && name.utf8.count <= FleetText.nameBytes:
            boat = FleetTopics.boatID(FleetText.clip(name, bytes: FleetText.nameBytes))
        default: throw .init("boat is a boat's name or null for every boat")
        }
        switch (root["spec"], root["plan"]) {
        case (.string(let spec)?, nil):
            guard spec.count <= 1000 else { throw .init("a spec of over 1000 characters") }
            do { return (try WorkoutSpec.parse(spec), boat) } catch {
                throw FleetPlanRequestError(error.description, column: error.column, pointer: error.pointer)
            }
        case (nil, let plan?):
            do { return (try FleetPlanJSON.plan(plan), boat) } catch { throw .init("plan: \(error.description)") }
        default:
            throw .init("give the plan as spec (text) or plan (an object), one of them, e.g. \(example)")
        }
    }

    /// The plan offered to a boat now (its own or the one for all, the newer) and its answer.
    public func plan(for boat: String) -> FleetCoachPlans.BoatPlan? { state.withLock { $0.plans.plan(for: boat) } }

    static func writePlans(_ plans: FleetCoachPlans, names: [String: String], to w: inout JSONWriter) {
        w.beginObject(key: "plans")
        w.beginArray(key: "sent")
        for offer in plans.sentOffers {
            w.beginObject()
            w.field("id", offer.id)
            w.field("to", offer.boat ?? FleetTopics.everyBoatLevel)
            w.field("from", offer.from)
            w.field("sent_utc", UTCTime.iso8601(offer.sentUTC))
            w.planObject("plan", offer.plan)
            w.endObject()
        }
        w.endArray()
        w.beginArray(key: "answers")
        for answer in plans.answers.values.sorted(by: { $0.boat < $1.boat }) {
            w.beginObject()
            w.field("boat", answer.boat)
            w.field("name", names[answer.boat] ?? answer.boat)
            w.field("id", answer.id)
            w.field("accepted", answer.accepted)
            w.field("utc", UTCTime.iso8601(answer.utc))
            w.endObject()
        }
        w.endArray()
        w.field("refused", plans.refused)
        w.field("last_problem", plans.lastProblem)
        w.endObject()
    }

    /// A boat's `workout` (where it is in its plan, as the live stream's `workout` message has
    /// it, with `utc`: when the boat sent it) and `plan` (the plan offered and its answer).
    static func writeWorkout(of b: FleetBoard.Boat, plans: FleetCoachPlans, to w: inout JSONWriter) {
        if let s = b.workout {
            w.beginObject(key: "workout")
            w.workoutStatusFields(s)
            w.field("utc", b.workoutUTC.map { UTCTime.iso8601($0) })
            w.endObject()
        } else {
            w.field("workout", json: nil)
        }
        w.field("intervals_done", b.intervals.count)
        guard let p = plans.plan(for: b.id) else { return w.field("plan", json: nil) }
        w.beginObject(key: "plan")
        w.field("id", p.offer.id)
        w.field("name", p.offer.plan.name)
        w.field("pieces", p.offer.plan.pieceCount)
        w.field("to", p.offer.boat ?? FleetTopics.everyBoatLevel)
        w.field("sent_utc", UTCTime.iso8601(p.offer.sentUTC))
        w.field("answer", p.answer.rawValue)
        w.field("answered_utc", p.answeredUTC.map { UTCTime.iso8601($0) })
        w.endObject()
    }
}

/// What the coach knows of its plans: the newest sent to each boat and to all (read back from the
/// broker's retained messages), and each boat's latest answer. At most `limit` of each.
public struct FleetCoachPlans: Sendable {
    public enum Answer: String, Sendable {
        case accepted, declined, waiting
    }
    public struct BoatPlan: Sendable, Equatable {
        public var offer: FleetPlanOffer
        public var answer: Answer
        public var answeredUTC: Double?
    }

    public static let limit = 65
    /// By boat id, or `all` for every boat.
    private(set) var sent: [String: FleetPlanOffer] = [:]
    public private(set) var answers: [String: FleetPlanAnswer] = [:]
    public private(set) var refused = 0
    public private(set) var lastProblem: String?

    public init() {}

    public var sentOffers: [FleetPlanOffer] { sent.values.sorted { $0.sentUTC > $1.sentUTC || ($0.sentUTC == $1.sentUTC && $0.id < $1.id) } }

    mutating func sent(_ offer: FleetPlanOffer) {
        let key = offer.boat ?? FleetTopics.everyBoatLevel
        if sent[key] == nil, sent.count >= Self.limit, let oldest = sent.min(by: { $0.value.sentUTC < $1.value.sentUTC })?.key {
            sent.removeValue(forKey: oldest)
        }
        if let had = sent[key], had.sentUTC > offer.sentUTC { return }
        sent[key] = offer
    }

    /// Takes a plan or an answer; false for a topic that is neither (a boat's own stream).
    public mutating func receive(topic: String, payload: [UInt8], topics: FleetTopics) -> Bool {
        if let target = topics.parsePlan(topic) {
            let key = target ?? FleetTopics.everyBoatLevel
            if payload.isEmpty {
                sent.removeValue(forKey: key)   // withdrawn
            } else {
                do { sent(try FleetPlanOffer(payload: payload, boat: target)) } catch { refuse("\(topic): \(error)") }
            }
            return true
        }
        if let boat = topics.parsePlanAnswer(topic) {
            do {
                let answer = try FleetPlanAnswer(payload: payload, boat: boat)
                if answers[boat] == nil, answers.count >= Self.limit { refuse("\(topic): answers of more than \(Self.limit) boats") } else {
                    answers[boat] = answer
                }
            } catch { refuse("\(topic): \(error)") }
            return true
        }
        // `PREFIX/all/…` is no boat's: the plan topics' level.
        return topics.parse(topic)?.boat == FleetTopics.everyBoatLevel
    }

    /// The plan offered to `boat` (the newer of its own and the one for all) and its answer.
    public func plan(for boat: String) -> BoatPlan? {
        let offer = [sent[boat], sent[FleetTopics.everyBoatLevel]].compactMap { $0 }.max { $0.sentUTC < $1.sentUTC }
        guard let offer else { return nil }
        guard let answer = answers[boat], answer.id == offer.id else { return BoatPlan(offer: offer, answer: .waiting) }
        return BoatPlan(offer: offer, answer: answer.accepted ? .accepted : .declined, answeredUTC: answer.utc)
    }

    private mutating func refuse(_ problem: String) {
        refused += 1
        lastProblem = String(problem.prefix(300))
    }
}

/// A plan the coach's page sent that cannot be sent: the message, and for a spec the column.
public struct FleetPlanRequestError: Error, CustomStringConvertible {
    public var description: String
    public var column: Int?
    public var pointer: String?
    public init(_ d: String, column: Int? = nil, pointer: String? = nil) {
        description = d
        self.column = column
        self.pointer = pointer
    }

    /// The error answer: `{"error": {"message", "column", "pointer"}}` (null column and pointer
    /// for what is not a spec's).
    public var json: String {
        var w = JSONWriter()
        w.beginObject()
        w.beginObject(key: "error")
        w.field("message", description)
        w.field("column", column)
        w.field("pointer", pointer)
        w.endObject()
        w.endObject()
        return w.take()
    }
}
