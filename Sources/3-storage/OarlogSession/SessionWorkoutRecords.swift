import OarlogCore
import OarlogWorkouts

/// A workout in the session file (record kind `workout`, minor version 4; see
/// docs/SESSION_FORMAT.md): the plan (`workout.plan`, then one `workout.step` per step), each
/// step's start (`workout.start`), each interval with its figures (`workout.interval`, written
/// when its figures are known, so a power cut keeps every interval that ended before it) and the
/// end (`workout.finish`). Fields are key/value text with their unit in the key.
extension SessionEvent {
    typealias Field = SessionMetadata.Setting

    /// The records of a plan, all at `time`.
    static func planRecords(_ plan: WorkoutPlan, time: Seconds) -> [SessionEvent] {
        var records = [SessionEvent(time: time, name: "workout.plan", fields: [
            Field("name", plan.name), Field("steps", "\(plan.steps.count)"),
        ])]
        for (i, step) in plan.steps.enumerated() {
            var fields = [Field("index", "\(i)"), Field("kind", step.kind.rawValue)]
            switch step.length {
            case .time(let s): fields.append(Field("time_s", "\(s)"))
            case .distance(let m): fields.append(Field("distance_m", "\(m)"))
            }
            fields += bandFields(step.target)
            if let label = step.label { fields.append(Field("label", label)) }
            records.append(SessionEvent(time: time, name: "workout.step", fields: fields))
        }
        return records
    }

    static func bandFields(_ target: WorkoutTarget) -> [Field] {
        var fields: [Field] = []
        if let r = target.strokeRate {
            fields += [Field("rate_min_spm", "\(r.lowerBound)"), Field("rate_max_spm", "\(r.upperBound)")]
        }
        if let s = target.split {
            fields += [Field("split_min_s_per_500m", "\(s.lowerBound)"), Field("split_max_s_per_500m", "\(s.upperBound)")]
        }
        return fields
    }

    /// The records of a tracker's event (none for the live status; the plan is written by the
    /// writer with the session's first record).
    static func workoutRecords(_ event: WorkoutEvent) -> [SessionEvent] {
        switch event {
        case .planned, .status: return []
        case .started(let step, let time):
            return [SessionEvent(time: time, name: "workout.start", fields: [Field("step", "\(step)")])]
        case .finished(let time):
            return [SessionEvent(time: time, name: "workout.finish")]
        case .interval(let i):
            var fields = [
                Field("index", "\(i.index)"), Field("step", "\(i.stepIndex)"), Field("kind", i.kind.rawValue),
                Field("start_s", "\(i.start)"), Field("end_s", "\(i.end)"), Field("strokes", "\(i.strokes)"),
                Field("completed", i.completed ? "true" : "false"),
            ]
            if let n = i.pieceNumber { fields.append(Field("piece", "\(n)")) }
            if let d = i.distance { fields.append(Field("distance_m", "\(d)")) }
            if let r = i.averageStrokeRate { fields.append(Field("avg_rate_spm", "\(r)")) }
            if let f = i.strokeRateInBand { fields.append(Field("rate_in_band", "\(f)")) }
            if let f = i.splitInBand { fields.append(Field("split_in_band", "\(f)")) }
            fields += bandFields(i.target)
            if let label = i.label { fields.append(Field("label", label)) }
            return [SessionEvent(time: i.end, name: "workout.interval", fields: fields)]
        }
    }
}

/// A session's workout as recorded: its plan and the intervals that were concluded.
public struct RecordedWorkout: Sendable, Equatable {
    public var plan: WorkoutPlan
    public var intervals: [WorkoutInterval]
    /// When the first step started (nil if the crew never started the plan).
    public var startTime: Seconds?

    /// Reads the workout records (`SessionReader.workoutEvents`); nil when the session has no plan.
    public init?(records: [SessionEvent]) {
        guard let head = records.first(where: { $0.name == "workout.plan" }) else { return nil }
        var steps: [WorkoutStep] = []
        for record in records where record.name == "workout.step" {
            guard let step = Self.step(record) else { return nil }
            steps.append(step)
        }
        guard !steps.isEmpty, steps.count == Int(head.field("steps") ?? "") else { return nil }
        let plan = WorkoutPlan(name: head.field("name") ?? "", steps: steps)
        self.plan = plan
        startTime = records.first(where: { $0.name == "workout.start" && $0.field("step") == "0" })?.time
        intervals = records.filter { $0.name == "workout.interval" }.compactMap { Self.interval($0, plan: plan) }
    }

    static func number(_ record: SessionEvent, _ key: String) -> Double? {
        record.field(key).flatMap { Double($0) }.flatMap { $0.isFinite ? $0 : nil }
    }

    static func target(_ record: SessionEvent) -> WorkoutTarget {
        var target = WorkoutTarget()
        if let lo = number(record, "rate_min_spm"), let hi = number(record, "rate_max_spm"), lo <= hi { target.strokeRate = lo...hi }
        if let lo = number(record, "split_min_s_per_500m"), let hi = number(record, "split_max_s_per_500m"), lo <= hi { target.split = lo...hi }
        return target
    }

    static func step(_ record: SessionEvent) -> WorkoutStep? {
        guard let kind = record.field("kind").flatMap(WorkoutStep.Kind.init(rawValue:)) else { return nil }
        let length: WorkoutLength
        if let s = number(record, "time_s") { length = .time(s) } else if let m = number(record, "distance_m") { length = .distance(m) } else { return nil }
        return WorkoutStep(kind: kind, length: length, target: target(record), label: record.field("label"))
    }

    static func interval(_ record: SessionEvent, plan: WorkoutPlan) -> WorkoutInterval? {
        guard let index = record.field("index").flatMap({ Int($0) }), let step = record.field("step").flatMap({ Int($0) }),
              plan.steps.indices.contains(step), let start = number(record, "start_s"), let end = number(record, "end_s"),
              let strokes = record.field("strokes").flatMap({ Int($0) }) else { return nil }
        return WorkoutInterval(
            index: index, stepIndex: step, kind: plan.steps[step].kind, pieceNumber: record.field("piece").flatMap { Int($0) },
            label: record.field("label"), start: start, end: end, distance: number(record, "distance_m"), strokes: strokes,
            averageStrokeRate: number(record, "avg_rate_spm"), target: target(record),
            strokeRateInBand: number(record, "rate_in_band"), splitInBand: number(record, "split_in_band"),
            completed: record.field("completed") != "false")
    }
}

extension SessionReader {
    /// The session's workout (plan and intervals), nil when it rowed none.
    public func workout(onDamage: DamagePolicy = .skipDamagedChunks) throws -> RecordedWorkout? {
        RecordedWorkout(records: try workoutEvents(onDamage: onDamage))
    }
}
