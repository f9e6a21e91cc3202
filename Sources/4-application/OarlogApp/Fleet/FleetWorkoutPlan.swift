import OarlogCore
import OarlogFences

/// A coach's plan on its way to a boat (`PREFIX/BOAT/plan` or `PREFIX/all/plan`, retained, QoS 1):
/// `{"id", "from", "boat" (null: every boat), "sent_utc", "plan": {name, pieces, steps: […]}}`,
/// the plan in the JSON shape every workout answer has (`JSONWriter.planFields`). A boat refuses
/// a payload over `maximumBytes` and a plan that breaks `WorkoutLimits`. docs/FLEET.md.
public struct FleetPlanOffer: Sendable, Equatable {
    /// The coach's id for this sending (the boat's answer quotes it).
    public var id: String
    /// Who sent it: the coach's user name at the broker, else "coach".
    public var from: String
    /// The boat's topic id; nil for every boat.
    public var boat: String?
    /// When the coach sent it (UTC seconds; milliseconds on the wire): a boat offers the newest.
    public var sentUTC: Double
    public var plan: WorkoutPlan

    public init(id: String, from: String, boat: String?, sentUTC: Double, plan: WorkoutPlan) {
        self.id = id
        self.from = from
        self.boat = boat
        self.sentUTC = sentUTC
        self.plan = plan
    }

    /// A plan of 200 steps with targets and labels is about 40 KB.
    public static let maximumBytes = 64 * 1024
    /// An offer id, a sender: at most this many UTF-8 bytes.
    public static let maximumIDBytes = 64

    /// As the live station takes it.
    public var workoutOffer: WorkoutOffer { WorkoutOffer(id: id, from: from, plan: plan) }

    public var payload: [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.field("id", id)
        w.field("from", from)
        w.field("boat", boat)
        w.field("sent_utc", UTCTime.iso8601(sentUTC))
        w.planObject("plan", plan)
        w.endObject()
        return Array(w.take().utf8)
    }

    /// Reads an offer that came on a plan topic for `boat` (nil: every boat's).
    public init(payload: [UInt8], boat: String?) throws(FleetPlanError) {
        guard payload.count <= Self.maximumBytes else { throw FleetPlanError("a plan of \(payload.count) bytes (at most \(Self.maximumBytes))") }
        let root: OarlogFences.JSONValue
        do { root = try OarlogFences.JSONValue.parse(utf8: payload, maxValues: 8192) } catch { throw FleetPlanError("not JSON: \(error)") }
        guard case .string(let id)? = root["id"], !id.isEmpty, id.utf8.count <= Self.maximumIDBytes else { throw FleetPlanError("no offer id") }
        guard case .string(let from)? = root["from"], from.utf8.count <= Self.maximumIDBytes else { throw FleetPlanError("no sender (from)") }
        var named: String?
        if case .string(let b)? = root["boat"] { named = b }
        guard named == boat else { throw FleetPlanError("a plan for boat '\(named ?? "all")' on the topic of '\(boat ?? "all")'") }
        guard case .string(let sent)? = root["sent_utc"], let sentUTC = UTCTime.parseISO8601(sent) else { throw FleetPlanError("no sent_utc") }
        guard let plan = root["plan"] else { throw FleetPlanError("no plan") }
        self.init(id: id, from: from, boat: boat, sentUTC: sentUTC, plan: try FleetPlanJSON.plan(plan))
    }
}

/// A boat's answer to a plan (`PREFIX/BOAT/plan/answer`, retained, QoS 1):
/// `{"id", "boat", "accepted", "utc"}`.
public struct FleetPlanAnswer: Sendable, Equatable {
    public var id: String
    public var boat: String
    public var accepted: Bool
    public var utc: Double

    public init(id: String, boat: String, accepted: Bool, utc: Double) {
        self.id = id
        self.boat = boat
        self.accepted = accepted
        self.utc = utc
    }

    public var payload: [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.field("id", id)
        w.field("boat", boat)
        w.field("accepted", accepted)
        w.field("utc", UTCTime.iso8601(utc))
        w.endObject()
        return Array(w.take().utf8)
    }

    /// Reads an answer that came on `boat`'s answer topic.
    public init(payload: [UInt8], boat: String) throws(FleetPlanError) {
        guard payload.count <= 4096 else { throw FleetPlanError("an answer of \(payload.count) bytes") }
        let root: OarlogFences.JSONValue
        do { root = try OarlogFences.JSONValue.parse(utf8: payload, maxValues: 64) } catch { throw FleetPlanError("not JSON: \(error)") }
        guard case .string(let id)? = root["id"], !id.isEmpty, id.utf8.count <= FleetPlanOffer.maximumIDBytes,
              case .bool(let accepted)? = root["accepted"] else { throw FleetPlanError("an answer without id or accepted") }
        guard case .string(boat)? = root["boat"] else { throw FleetPlanError("an answer for another boat than its topic's") }
        var utc = 0.0
        if case .string(let t)? = root["utc"], let u = UTCTime.parseISO8601(t) { utc = u }
        self.init(id: id, boat: boat, accepted: accepted, utc: utc)
    }
}

/// A plan in the JSON shape of `JSONWriter.planFields` (`{"name", "pieces", "steps": [{"kind",
/// "time_s" | "distance_m", "target": {"stroke_rate_spm": [lo, hi], "split_s_per_500m": [lo,
/// hi]} | null, "label"}]}`), read back and held to `WorkoutLimits`.
public enum FleetPlanJSON {
    public static func plan(_ value: OarlogFences.JSONValue) throws(FleetPlanError) -> WorkoutPlan {
        guard case .string(let name)? = value["name"], !name.isEmpty, name.count <= WorkoutLimits.maximumNameLength else {
            throw FleetPlanError("a plan needs a name of 1 to \(WorkoutLimits.maximumNameLength) characters")
        }
        guard case .array(let list)? = value["steps"], !list.isEmpty else { throw FleetPlanError("a plan needs steps") }
        guard list.count <= WorkoutLimits.maximumSteps else {
            throw FleetPlanError("\(list.count) steps: a plan has at most \(WorkoutLimits.maximumSteps)")
        }
        var steps: [WorkoutStep] = []
        for (k, item) in list.enumerated() {
            do { steps.append(try step(item)) } catch { throw FleetPlanError("step \(k + 1): \(error.description)") }
        }
        let plan = WorkoutPlan(name: name, steps: steps)
        guard plan.pieceCount <= WorkoutLimits.maximumPieces else {
            throw FleetPlanError("\(plan.pieceCount) pieces: a plan has at most \(WorkoutLimits.maximumPieces)")
        }
        if let pieces = value["pieces"], pieces != .null, pieces != .number(Double(plan.pieceCount)) {
            throw FleetPlanError("pieces says \(pieces) but the steps have \(plan.pieceCount)")
        }
        return plan
    }

    static func step(_ value: OarlogFences.JSONValue) throws(FleetPlanError) -> WorkoutStep {
        guard case .string(let k)? = value["kind"], let kind = WorkoutStep.Kind(rawValue: k) else {
            throw FleetPlanError("kind is warmup, work, rest or cooldown")
        }
        let length: WorkoutLength
        switch (number(value["time_s"]), number(value["distance_m"])) {
        case (let s?, nil):
            guard s >= WorkoutLimits.minimumStepTime, s <= WorkoutLimits.maximumStepTime else {
                throw FleetPlanError("a time of \(s) s: from \(Int(WorkoutLimits.minimumStepTime)) to \(Int(WorkoutLimits.maximumStepTime)) s")
            }
            length = .time(s)
        case (nil, let m?):
            guard m >= WorkoutLimits.minimumStepDistance, m <= WorkoutLimits.maximumStepDistance else {
                throw FleetPlanError("a distance of \(m) m: from \(Int(WorkoutLimits.minimumStepDistance)) to \(Int(WorkoutLimits.maximumStepDistance)) m")
            }
            length = .distance(m)
        default:
            throw FleetPlanError("a step has time_s or distance_m, one of them")
        }
        var label: String?
        if case .string(let l)? = value["label"] {
            guard l.count <= WorkoutLimits.maximumNameLength else { throw FleetPlanError("a label of over \(WorkoutLimits.maximumNameLength) characters") }
            label = l
        }
        var target = WorkoutTarget.none
        if let t = value["target"], t != .null {
            guard case .object = t else { throw FleetPlanError("target is an object or null") }
            target.strokeRate = try band(t["stroke_rate_spm"], within: WorkoutLimits.strokeRateRange, "stroke_rate_spm")
            target.split = try band(t["split_s_per_500m"], within: WorkoutLimits.splitRange, "split_s_per_500m")
        }
        return WorkoutStep(kind: kind, length: length, target: target, label: label)
    }

    /// `[low, high]` within `limits`, or nil for null or absent.
    static func band(_ value: OarlogFences.JSONValue?, within limits: ClosedRange<Double>, _ key: String) throws(FleetPlanError) -> ClosedRange<Double>? {
        guard let value, value != .null else { return nil }
        guard case .array(let ends) = value, ends.count == 2, let low = number(ends[0]), let high = number(ends[1]), low <= high,
              limits.contains(low), limits.contains(high) else {
            throw FleetPlanError("\(key) is [low, high] within \(Int(limits.lowerBound))–\(Int(limits.upperBound))")
        }
        return low...high
    }

    /// A finite number; nil for null, absent or anything else.
    static func number(_ value: OarlogFences.JSONValue?) -> Double? {
        if case .number(let x)? = value, x.isFinite { return x }
        return nil
    }
}

/// A plan or an answer off the broker that cannot be read, and why.
public struct FleetPlanError: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}
