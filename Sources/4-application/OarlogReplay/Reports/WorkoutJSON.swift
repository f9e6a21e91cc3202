import OarlogCore
import OarlogWorkouts

/// A workout in JSON, the same keys everywhere (`replay --json` and `show --json`'s `intervals`,
/// the live stream's `workout` message, `/api/workouts`): units in the keys, `null` for no data.
extension JSONWriter {
    /// `{"stroke_rate_spm": [22, 24], "split_s_per_500m": [108, 112]}` — a band as [low, high];
    /// `null` for no target.
    public mutating func targetField(_ key: String, _ target: WorkoutTarget) {
        guard !target.isEmpty else {
            field(key, json: nil)
            return
        }
        beginObject(key: key)
        if let r = target.strokeRate { array("stroke_rate_spm", [r.lowerBound, r.upperBound], places: 1) }
        if let s = target.split { array("split_s_per_500m", [s.lowerBound, s.upperBound], places: 1) }
        endObject()
    }

    /// One step's length: `time_s` or `distance_m` (the other null).
    public mutating func lengthFields(_ length: WorkoutLength) {
        field("time_s", length.seconds, places: 1)
        field("distance_m", length.metres, places: 1)
    }

    /// `key: {plan}`, or `key: null` without one.
    public mutating func planObject(_ key: String, _ plan: WorkoutPlan?) {
        guard let plan else {
            field(key, json: nil)
            return
        }
        beginObject(key: key)
        planFields(plan)
        endObject()
    }

    /// `key: {status}`, or `key: null` without one.
    public mutating func workoutStatusObject(_ key: String, _ status: WorkoutStatus?) {
        guard let status else {
            field(key, json: nil)
            return
        }
        beginObject(key: key)
        workoutStatusFields(status)
        endObject()
    }

    /// A plan: name, pieces and steps.
    public mutating func planFields(_ plan: WorkoutPlan) {
        field("name", plan.name)
        field("pieces", plan.pieceCount)
        beginArray(key: "steps")
        for step in plan.steps {
            beginObject()
            field("kind", step.kind.rawValue)
            lengthFields(step.length)
            targetField("target", step.target)
            field("label", step.label)
            endObject()
        }
        endArray()
    }

    /// An `intervals` entry: index, kind (`work`|`rest`), start on the strokes' clock, elapsed,
    /// distance, strokes, average rate and split, distance per stroke, the target and how much of
    /// the interval was in its band.
    public mutating func intervalFields(_ i: WorkoutInterval) {
        field("index", i.index)
        field("kind", i.workOrRest)
        field("step", i.kind.rawValue)
        field("piece", i.pieceNumber)
        field("label", i.label)
        field("start_s", i.start, places: 3)
        field("elapsed_s", i.elapsed, places: 3)
        field("distance_m", i.distance, places: 1)
        field("strokes", i.strokes)
        field("avg_stroke_rate_spm", i.averageStrokeRate, places: 2)
        field("avg_split_s_per_500m", i.averageSplit, places: 2)
        field("distance_per_stroke_m", i.distancePerStroke, places: 2)
        targetField("target", i.target)
        field("stroke_rate_in_band", i.strokeRateInBand, places: 3)
        field("split_in_band", i.splitInBand, places: 3)
        field("completed", i.completed)
    }

    /// The `intervals` array (an empty array when the session rowed a plan but no interval ended).
    /// With `deviceFigures` (a replay's), each interval has its heart rate and oarlock keys
    /// (`intervalDeviceFields`).
    public mutating func intervalsArray(_ intervals: [WorkoutInterval], deviceFigures: [Int: IntervalDeviceFigures]? = nil) {
        beginArray(key: "intervals")
        for interval in intervals {
            beginObject()
            intervalFields(interval)
            if let deviceFigures { intervalDeviceFields(deviceFigures[interval.stepIndex] ?? IntervalDeviceFigures()) }
            endObject()
        }
        endArray()
    }

    /// Where the crew is in its plan (the live `workout` message's body): the step's own length as
    /// `time_s`/`distance_m`, the metres rowed in it as `rowed_m`.
    public mutating func workoutStatusFields(_ s: WorkoutStatus) {
        field("phase", s.phase.rawValue)
        field("step", s.stepIndex + 1)
        field("steps", s.stepCount)
        field("kind", s.kind == .rest ? "rest" : "work")
        field("step_kind", s.kind.rawValue)
        field("label", s.label)
        field("piece", s.pieceNumber)
        field("pieces", s.pieceCount)
        lengthFields(s.length)
        targetField("target", s.target)
        field("elapsed_s", s.elapsed, places: 1)
        field("remaining_s", s.remainingTime, places: 1)
        field("remaining_m", s.remainingDistance, places: 1)
        field("rowed_m", s.distance, places: 1)
        field("stroke_rate_spm", s.strokeRate, places: 1)
        field("split_s_per_500m", s.split, places: 1)
        field("stroke_rate_band", s.strokeRateBand?.rawValue)
        field("split_band", s.splitBand?.rawValue)
        if let next = s.next {
            beginObject(key: "next")
            field("kind", next.kind.rawValue)
            lengthFields(next.length)
            targetField("target", next.target)
            field("label", next.label)
            endObject()
        } else {
            field("next", json: nil)
        }
    }
}
