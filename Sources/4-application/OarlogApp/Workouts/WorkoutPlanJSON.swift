import OarlogCore

/// The JSON form of a workout plan, for anything the whiteboard form cannot write: a warm-up and
/// a cool-down, named steps, repeats of several steps, rests of different lengths.
///
///     {"name": "Saturday pyramid",
///      "steps": [{"kind": "warmup", "time_s": 600},
///                {"repeat": 3, "steps": [{"kind": "work", "distance_m": 500, "rate_spm": [22, 24],
///                                         "split_s_per_500m": [108, 112], "label": "race pace"},
///                                        {"kind": "rest", "time_s": 90}]},
///                {"spec": "4x1:00/1:00r"},
///                {"kind": "cooldown", "time_s": 600}]}
///
/// A step is `kind` (`warmup`, `work`, `rest`, `cooldown`) with exactly one of `time_s` and
/// `distance_m` (a rest only `time_s`), optional `rate_spm` and `split_s_per_500m` (a number or a
/// band `[low, high]`; not on a rest) and `label`. A repeat is `repeat` (1–100) and its `steps`
/// (nested at most 3 deep), rowed in full each time. A `spec` step is the whiteboard form's
/// pieces and rests in place. Unknown keys are refused; the limits are `WorkoutLimits`, checked
/// after repeats are unrolled. Every error names its path: `steps[2].time_s: …`. docs/WORKOUTS.md.
public enum WorkoutPlanJSON {
    /// The largest JSON plan read (bytes).
    public static let maximumBytes = 32 * 1024
    /// How deep repeats may nest.
    public static let maximumRepeatDepth = 3

    /// Why a JSON plan was refused: where (`steps[2].time_s`, empty for the whole) and why.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        public var path: String
        public var message: String
        public var description: String { path.isEmpty ? message : "\(path): \(message)" }
    }

    /// Reads a plan from the JSON form's bytes; `name` when the plan gives none.
    public static func decode(_ bytes: [UInt8], name: String = "workout") throws(Failure) -> WorkoutPlan {
        guard bytes.count <= maximumBytes else {
            throw Failure(path: "", message: "a plan of \(bytes.count) bytes: at most \(maximumBytes / 1024) KiB")
        }
        return try plan(from: try JSONValue.read(bytes), path: "", name: name)
    }

    /// Reads a plan from a JSON value already read (an object with `steps` and maybe `name`);
    /// `path` is where it sits in a larger body (`plan`).
    static func plan(from value: JSONValue, path: String, name: String) throws(Failure) -> WorkoutPlan {
        let fields = try object(value, path, allowed: ["name", "steps"], hint: "a plan takes name and steps")
        var planName = name
        if let given = fields["name"] { planName = try self.name(given, path: join(path, "name")) }
        guard let stepsValue = fields["steps"] else { throw Failure(path: path, message: "a plan needs steps") }
        var steps: [WorkoutStep] = []
        try read(stepsValue, path: join(path, "steps"), depth: 0, into: &steps)
        let pieces = steps.filter { $0.kind == .work }.count
        guard pieces >= 1 else { throw Failure(path: join(path, "steps"), message: "a workout needs at least one work step") }
        guard pieces <= WorkoutLimits.maximumPieces else {
            throw Failure(path: join(path, "steps"), message: "\(pieces) pieces: a workout has at most \(WorkoutLimits.maximumPieces)")
        }
        return WorkoutPlan(name: planName, steps: steps)
    }

    /// A plan's or a saved plan's name: 1–80 characters, no control characters.
    static func name(_ value: JSONValue, path: String) throws(Failure) -> String {
        guard case .string(let text) = value else { throw Failure(path: path, message: "a name is a string, not \(value.kindName)") }
        if let problem = WorkoutLibrary.nameProblem(text) { throw Failure(path: path, message: problem) }
        return text
    }

    /// Appends the steps of the array `value` (repeats unrolled) to `steps`.
    static func read(_ value: JSONValue, path: String, depth: Int, into steps: inout [WorkoutStep]) throws(Failure) {
        guard case .array(let items) = value else { throw Failure(path: path, message: "steps are an array, not \(value.kindName)") }
        guard !items.isEmpty else { throw Failure(path: path, message: "no steps: give at least one") }
        for (i, item) in items.enumerated() {
            let itemPath = "\(path)[\(i)]"
            guard case .object(let fields) = item else { throw Failure(path: itemPath, message: "a step is an object, not \(item.kindName)") }
            if fields["repeat"] != nil {
                try readRepeat(fields, path: itemPath, depth: depth, into: &steps)
            } else if let spec = fields["spec"] {
                _ = try object(item, itemPath, allowed: ["spec"], hint: "a spec step takes only spec")
                guard case .string(let text) = spec else { throw Failure(path: join(itemPath, "spec"), message: "a spec is a string, not \(spec.kindName)") }
                do { steps += try WorkoutSpec.parse(text).steps } catch {
                    throw Failure(path: join(itemPath, "spec"), message: error.description)
                }
            } else {
                steps.append(try step(fields, path: itemPath))
            }
            guard steps.count <= WorkoutLimits.maximumSteps else {
                throw Failure(path: itemPath, message: "the plan would have more than \(WorkoutLimits.maximumSteps) steps")
            }
        }
    }

    /// `{"repeat": N, "steps": [...]}`: the steps N times over.
    static func readRepeat(_ fields: [String: JSONValue], path: String, depth: Int, into steps: inout [WorkoutStep]) throws(Failure) {
        _ = try object(.object(fields), path, allowed: ["repeat", "steps"], hint: "a repeat takes repeat and steps")
        guard depth < maximumRepeatDepth else { throw Failure(path: path, message: "repeats nest at most \(maximumRepeatDepth) deep") }
        let count = try wholeNumber(fields["repeat"]!, path: join(path, "repeat"), within: 1...WorkoutLimits.maximumPieces)
        guard let inner = fields["steps"] else { throw Failure(path: path, message: "a repeat needs steps") }
        var block: [WorkoutStep] = []
        try read(inner, path: join(path, "steps"), depth: depth + 1, into: &block)
        guard steps.count + block.count * count <= WorkoutLimits.maximumSteps else {
            throw Failure(path: path, message: "the plan would have more than \(WorkoutLimits.maximumSteps) steps")
        }
        for _ in 0..<count { steps += block }
    }

    static let stepKeys = ["kind", "time_s", "distance_m", "rate_spm", "split_s_per_500m", "label"]

    /// One step: its kind, its length, its target, its label.
    static func step(_ fields: [String: JSONValue], path: String) throws(Failure) -> WorkoutStep {
        _ = try object(.object(fields), path, allowed: stepKeys,
                       hint: "a step takes kind, time_s or distance_m, rate_spm, split_s_per_500m and label; a repeat, repeat and steps")
        guard let kindValue = fields["kind"] else {
            throw Failure(path: path, message: "a step needs a kind: warmup, work, rest or cooldown (or is a repeat or a spec)")
        }
        guard case .string(let kindText) = kindValue, let kind = WorkoutStep.Kind(rawValue: kindText) else {
            throw Failure(path: join(path, "kind"), message: "the kind is warmup, work, rest or cooldown")
        }
        let length: WorkoutLength
        switch (fields["time_s"], fields["distance_m"]) {
        case (let time?, nil):
            let limits = WorkoutLimits.minimumStepTime...WorkoutLimits.maximumStepTime
            length = .time(try number(time, path: join(path, "time_s"), within: limits, unit: "s") { WorkoutText.clock($0) })
        case (nil, let distance?):
            guard kind != .rest else { throw Failure(path: join(path, "distance_m"), message: "a rest is a time: give time_s") }
            let limits = WorkoutLimits.minimumStepDistance...WorkoutLimits.maximumStepDistance
            length = .distance(try number(distance, path: join(path, "distance_m"), within: limits, unit: "m") { WorkoutText.number($0) + " m" })
        case (nil, nil): throw Failure(path: path, message: "a step needs its length: time_s or distance_m")
        case (_?, _?): throw Failure(path: path, message: "a step is a time or a distance: give time_s or distance_m, not both")
        }
        var target = WorkoutTarget.none
        if let rate = fields["rate_spm"] {
            target.strokeRate = try band(rate, path: join(path, "rate_spm"), within: WorkoutLimits.strokeRateRange, unit: "spm") { WorkoutText.number($0) }
        }
        if let split = fields["split_s_per_500m"] {
            target.split = try band(split, path: join(path, "split_s_per_500m"), within: WorkoutLimits.splitRange, unit: "s") { WorkoutText.clock($0) }
        }
        if kind == .rest && !target.isEmpty { throw Failure(path: path, message: "a rest has no target") }
        var label: String?
        if let value = fields["label"] {
            guard case .string(let text) = value else { throw Failure(path: join(path, "label"), message: "a label is a string, not \(value.kindName)") }
            let cleaned = StoredText.cleaned(text)
            guard cleaned.count <= WorkoutLimits.maximumNameLength else {
                throw Failure(path: join(path, "label"), message: "a label of \(cleaned.count) characters: at most \(WorkoutLimits.maximumNameLength)")
            }
            label = cleaned.isEmpty ? nil : cleaned
        }
        return WorkoutStep(kind: kind, length: length, target: target, label: label)
    }

    /// A number within `limits`; the message gives the limits in `unit` and as `shown`.
    static func number(_ value: JSONValue, path: String, within limits: ClosedRange<Double>, unit: String,
                       shown: (Double) -> String) throws(Failure) -> Double {
        guard case .number(let n) = value, n.isFinite else { throw Failure(path: path, message: "a number, not \(value.kindName)") }
        guard limits.contains(n) else {
            let range = "\(WorkoutText.number(limits.lowerBound))–\(WorkoutText.number(limits.upperBound)) \(unit)"
            let shownRange = unit == "s" ? " (\(shown(limits.lowerBound))–\(shown(limits.upperBound)))" : ""
            throw Failure(path: path, message: "\(Self.number(n)) \(unit) is outside \(range)\(shownRange)")
        }
        return n
    }

    /// A target: one number, or `[low, high]` with low ≤ high, within `limits`.
    static func band(_ value: JSONValue, path: String, within limits: ClosedRange<Double>, unit: String,
                     shown: (Double) -> String) throws(Failure) -> ClosedRange<Double> {
        switch value {
        case .number:
            let n = try number(value, path: path, within: limits, unit: unit, shown: shown)
            return n...n
        case .array(let ends) where ends.count == 2:
            let low = try number(ends[0], path: path + "[0]", within: limits, unit: unit, shown: shown)
            let high = try number(ends[1], path: path + "[1]", within: limits, unit: unit, shown: shown)
            guard low <= high else { throw Failure(path: path, message: "a band runs from low to high: [\(shown(high)), \(shown(low))]?") }
            return low...high
        default:
            throw Failure(path: path, message: "a number or a band [low, high], not \(value.kindName)")
        }
    }

    static func wholeNumber(_ value: JSONValue, path: String, within limits: ClosedRange<Int>) throws(Failure) -> Int {
        guard case .number(let n) = value, n == n.rounded(), n.isFinite else {
            throw Failure(path: path, message: "a whole number, not \(value.kindName == "a number" ? "a fraction" : value.kindName)")
        }
        guard n >= Double(limits.lowerBound), n <= Double(limits.upperBound) else {
            throw Failure(path: path, message: "\(Self.number(n)) is outside \(limits.lowerBound)–\(limits.upperBound)")
        }
        return Int(n)
    }

    /// The fields of an object holding only `allowed` keys (the first unknown one, in order, refused).
    static func object(_ value: JSONValue, _ path: String, allowed: [String], hint: String) throws(Failure) -> [String: JSONValue] {
        guard case .object(let fields) = value else { throw Failure(path: path, message: "an object, not \(value.kindName)") }
        if let unknown = fields.keys.filter({ !allowed.contains($0) }).sorted().first {
            throw Failure(path: join(path, StoredText.escapedForTerminal(String(unknown.prefix(40)))), message: "unknown key (\(hint))")
        }
        return fields
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }
}

extension WorkoutPlanJSON {
    /// The plan in the JSON form: its name and every step in order (repeats written out), keys
    /// with units; a single value for a band of width zero.
    public static func encode(_ plan: WorkoutPlan) -> String {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("name", plan.name)
        writer.field("steps", json: stepsText(plan.steps))
        writer.endObject()
        return writer.take()
    }

    /// `[{"kind":"work","time_s":240,…},…]`.
    public static func stepsText(_ steps: [WorkoutStep]) -> String {
        "[" + steps.map(stepText).joined(separator: ",") + "]"
    }

    static func stepText(_ step: WorkoutStep) -> String {
        var fields = ["\"kind\":\"\(step.kind.rawValue)\""]
        switch step.length {
        case .time(let s): fields.append("\"time_s\":" + number(s))
        case .distance(let m): fields.append("\"distance_m\":" + number(m))
        }
        if let rate = step.target.strokeRate { fields.append("\"rate_spm\":" + bandText(rate)) }
        if let split = step.target.split { fields.append("\"split_s_per_500m\":" + bandText(split)) }
        if let label = step.label { fields.append("\"label\":" + JSONString.quoted(label)) }
        return "{" + fields.joined(separator: ",") + "}"
    }

    static func bandText(_ band: ClosedRange<Double>) -> String {
        band.lowerBound == band.upperBound ? number(band.lowerBound) : "[\(number(band.lowerBound)),\(number(band.upperBound))]"
    }

    /// A JSON number as short as it can be written and read back exactly: `240`, `20.5`.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }
}
