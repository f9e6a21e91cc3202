import OarlogCore
import OarlogFences
import OarlogWorkouts

/// The workout's messages (`PREFIX/BOAT/workout`) as Signal K values under
/// `performance.rowing.workout.*`, in SI units as the rest: times in s, distances in m, rates in
/// Hz, splits in s per 500 m; a target band is `{"lower": …, "upper": …}` (Signal K's zones
/// name their ends so). A status has the step's values one path each; an interval is one object
/// at `performance.rowing.workout.interval`. docs/FLEET.md lists them.
extension SignalKDelta {
    public static let workout = "performance.rowing.workout."
    /// A step's label as carried (a receiver refuses a longer one).
    public static let labelBytes = 200

    // MARK: - Writing

    /// A status's values: where the crew is in the plan, what is left of the step, its target,
    /// the live rate and split against it, and the next step.
    static func workoutValues(_ s: WorkoutStatus, _ add: (String, String) -> Void) {
        add(workout + "phase", JSONString.quoted(s.phase.rawValue))
        add(workout + "step", "\(s.stepIndex + 1)")
        add(workout + "steps", "\(s.stepCount)")
        add(workout + "kind", s.kind == .rest ? "\"rest\"" : "\"work\"")
        add(workout + "stepKind", JSONString.quoted(s.kind.rawValue))
        add(workout + "label", label(s.label))
        add(workout + "piece", s.pieceNumber.map { "\($0)" } ?? "null")
        add(workout + "pieces", "\(s.pieceCount)")
        add(workout + "stepTime", number(s.length.seconds))
        add(workout + "stepDistance", number(s.length.metres))
        add(workout + "targetStrokeRate", band(s.target.strokeRate, scale: 1.0 / 60))
        add(workout + "targetSplit", band(s.target.split))
        add(workout + "elapsedTime", number(s.elapsed))
        add(workout + "remainingTime", number(s.remainingTime))
        add(workout + "remainingDistance", number(s.remainingDistance))
        add(workout + "log", number(s.distance))
        add(workout + "strokeRateBand", s.strokeRateBand.map { JSONString.quoted($0.rawValue) } ?? "null")
        add(workout + "splitBand", s.splitBand.map { JSONString.quoted($0.rawValue) } ?? "null")
        add(workout + "next", s.next.map(stepJSON) ?? "null")
        add(rowing + "strokeRate", hertz(s.strokeRate))
        add(rowing + "split", number(s.split))
    }

    /// The value at `performance.rowing.workout.interval`.
    static func intervalJSON(_ i: WorkoutInterval) -> String {
        var body = "{\"index\":\(i.index),\"step\":\(i.stepIndex + 1),\"kind\":\"\(i.workOrRest)\",\"stepKind\":\"\(i.kind.rawValue)\""
        body += ",\"piece\":\(i.pieceNumber.map { "\($0)" } ?? "null"),\"label\":\(label(i.label))"
        body += ",\"startTime\":\(number(i.start)),\"endTime\":\(number(i.end)),\"elapsedTime\":\(number(i.elapsed))"
        body += ",\"log\":\(number(i.distance)),\"strokeCount\":\(i.strokes),\"averageStrokeRate\":\(hertz(i.averageStrokeRate))"
        body += ",\"averageSplit\":\(number(i.averageSplit)),\"strokeDistance\":\(number(i.distancePerStroke))"
        body += ",\"targetStrokeRate\":\(band(i.target.strokeRate, scale: 1.0 / 60)),\"targetSplit\":\(band(i.target.split))"
        body += ",\"strokeRateInBand\":\(number(i.strokeRateInBand)),\"splitInBand\":\(number(i.splitInBand))"
        return body + ",\"completed\":\(i.completed)}"
    }

    /// A step of the plan (the status's next one): kind, length, target, label.
    private static func stepJSON(_ step: WorkoutStep) -> String {
        "{\"kind\":\(JSONString.quoted(step.kind.rawValue)),\"stepTime\":\(number(step.length.seconds))"
            + ",\"stepDistance\":\(number(step.length.metres)),\"targetStrokeRate\":\(band(step.target.strokeRate, scale: 1.0 / 60))"
            + ",\"targetSplit\":\(band(step.target.split)),\"label\":\(label(step.label))}"
    }

    private static func band(_ range: ClosedRange<Double>?, scale: Double = 1) -> String {
        guard let range else { return "null" }
        return "{\"lower\":\(number(range.lowerBound * scale)),\"upper\":\(number(range.upperBound * scale))}"
    }

    private static func label(_ text: String?) -> String { text.map { quoted($0, labelBytes) } ?? "null" }

    // MARK: - Reading

    /// A status from its values; what breaks the plan's limits is refused.
    static func workoutStatus(_ v: Values) throws(FleetMessageError) -> WorkoutStatus {
        guard let phase = WorkoutStatus.Phase(rawValue: try text(v.byPath[workout + "phase"], "the workout phase", limit: 16)) else {
            throw FleetMessageError("an unknown workout phase")
        }
        let steps = try v.count(workout + "steps")
        let step = try v.count(workout + "step")
        guard steps <= WorkoutLimits.maximumSteps, (1...max(1, steps)).contains(step) else { throw FleetMessageError("a workout step out of its plan") }
        let pieces = try v.count(workout + "pieces")
        guard pieces <= WorkoutLimits.maximumPieces else { throw FleetMessageError("more pieces than a plan has") }
        let piece = try optionalCount(v.byPath[workout + "piece"], "piece")
        if let piece, !(1...max(1, pieces)).contains(piece) { throw FleetMessageError("a piece out of its plan") }
        let kind = try stepKind(v.byPath[workout + "stepKind"])
        return WorkoutStatus(phase: phase, stepIndex: step - 1, stepCount: steps, kind: kind,
                             label: try optionalText(v.byPath[workout + "label"], "the step's label"), pieceNumber: piece,
                             pieceCount: pieces, length: try length(time: v.byPath[workout + "stepTime"], distance: v.byPath[workout + "stepDistance"]),
                             target: try target(rate: v.byPath[workout + "targetStrokeRate"], split: v.byPath[workout + "targetSplit"]),
                             elapsed: try v.required(workout + "elapsedTime"), remainingTime: v.number(workout + "remainingTime"),
                             remainingDistance: v.number(workout + "remainingDistance"), distance: v.number(workout + "log"),
                             strokeRate: v.spm(rowing + "strokeRate"), split: v.number(rowing + "split"),
                             strokeRateBand: try targetBand(v.byPath[workout + "strokeRateBand"]),
                             splitBand: try targetBand(v.byPath[workout + "splitBand"]),
                             next: try nextStep(v.byPath[workout + "next"]))
    }

    /// An interval from the object at `performance.rowing.workout.interval`.
    static func interval(_ o: JSONValue) throws(FleetMessageError) -> WorkoutInterval {
        func n(_ key: String) -> Double? { if case .number(let x)? = o[key], x.isFinite { return x } else { return nil } }
        guard let index = try optionalCount(o["index"], "interval index"), index >= 1, let step = try optionalCount(o["step"], "step"),
              (1...WorkoutLimits.maximumSteps).contains(step), let start = n("startTime"), let end = n("endTime"), end >= start,
              let strokes = try optionalCount(o["strokeCount"], "strokeCount"), case .bool(let completed)? = o["completed"] else {
            throw FleetMessageError("an interval without index, step, startTime, endTime, strokeCount or completed")
        }
        return WorkoutInterval(index: index, stepIndex: step - 1, kind: try stepKind(o["stepKind"]),
                               pieceNumber: try optionalCount(o["piece"], "piece"), label: try optionalText(o["label"], "the step's label"),
                               start: start, end: end, distance: n("log"), strokes: strokes,
                               averageStrokeRate: perMinute(n("averageStrokeRate")),
                               target: try target(rate: o["targetStrokeRate"], split: o["targetSplit"]),
                               strokeRateInBand: n("strokeRateInBand"), splitInBand: n("splitInBand"), completed: completed)
    }

    private static func nextStep(_ o: JSONValue?) throws(FleetMessageError) -> WorkoutStep? {
        guard let o, o != .null else { return nil }
        return WorkoutStep(kind: try stepKind(o["kind"]), length: try length(time: o["stepTime"], distance: o["stepDistance"]),
                           target: try target(rate: o["targetStrokeRate"], split: o["targetSplit"]),
                           label: try optionalText(o["label"], "the next step's label"))
    }

    private static func stepKind(_ v: JSONValue?) throws(FleetMessageError) -> WorkoutStep.Kind {
        guard let kind = WorkoutStep.Kind(rawValue: try text(v, "the step's kind", limit: 16)) else {
            throw FleetMessageError("an unknown step kind")
        }
        return kind
    }

    /// A step's length: a time or a distance within the plan's limits, exactly one of them.
    private static func length(time: JSONValue?, distance: JSONValue?) throws(FleetMessageError) -> WorkoutLength {
        switch (time, distance) {
        case (.number(let s)?, nil), (.number(let s)?, .null?):
            guard s >= WorkoutLimits.minimumStepTime, s <= WorkoutLimits.maximumStepTime else { throw FleetMessageError("a step's time out of the limits") }
            return .time(s)
        case (nil, .number(let m)?), (.null?, .number(let m)?):
            guard m >= WorkoutLimits.minimumStepDistance, m <= WorkoutLimits.maximumStepDistance else {
                throw FleetMessageError("a step's distance out of the limits")
            }
            return .distance(m)
        default:
            throw FleetMessageError("a step needs stepTime or stepDistance")
        }
    }

    private static func target(rate: JSONValue?, split: JSONValue?) throws(FleetMessageError) -> WorkoutTarget {
        WorkoutTarget(strokeRate: try band(rate, scale: 60, within: WorkoutLimits.strokeRateRange),
                      split: try band(split, scale: 1, within: WorkoutLimits.splitRange))
    }

    private static func band(_ v: JSONValue?, scale: Double, within limits: ClosedRange<Double>) throws(FleetMessageError) -> ClosedRange<Double>? {
        guard let v, v != .null else { return nil }
        guard case .number(let lower)? = v["lower"], case .number(let upper)? = v["upper"], lower <= upper,
              // Hz back to spm is within rounding of the limits.
              lower * scale >= limits.lowerBound - 1e-6, upper * scale <= limits.upperBound + 1e-6 else {
            throw FleetMessageError("a target band without lower ≤ upper within the limits")
        }
        return (lower * scale)...(upper * scale)
    }

    private static func targetBand(_ v: JSONValue?) throws(FleetMessageError) -> TargetBand? {
        guard let v, v != .null else { return nil }
        guard let band = TargetBand(rawValue: try text(v, "a band", limit: 8)) else { throw FleetMessageError("an unknown band") }
        return band
    }

    private static func optionalCount(_ v: JSONValue?, _ what: String) throws(FleetMessageError) -> Int? {
        guard let v, v != .null else { return nil }
        guard case .number(let x) = v, x >= 0, x <= 1e9, x == x.rounded() else { throw FleetMessageError("\(what) is not a count") }
        return Int(x)
    }

    private static func optionalText(_ v: JSONValue?, _ what: String) throws(FleetMessageError) -> String? {
        guard let v, v != .null else { return nil }
        return try text(v, what, limit: labelBytes)
    }
}
