import OarlogCore

/// A plan kept in the `WorkoutLibrary`: its name, the plan (named so), and the form it was given
/// in — the whiteboard text or the JSON form — kept as given.
public struct SavedWorkout: Sendable, Equatable {
    public let name: String
    /// The steps, the plan named `name`.
    public let plan: WorkoutPlan
    /// The whiteboard text it was saved as (nil when it was given in the JSON form).
    public let savedSpec: String?
    /// The JSON form as it was given (nil when saved as text).
    let savedJSON: JSONValue?

    /// The whiteboard text: as saved, else the plan written so when it can be (nil otherwise).
    public var spec: String? { savedSpec ?? plan.spec }

    /// One line for a list (`3 × 4:00 / 2:00 rest`).
    public var summary: String { plan.summary }

    /// The JSON form as it was given (its keys in the documented order), nil when saved as text.
    public var planJSON: String? { savedJSON?.text(keyOrder: Self.keyOrder) }

    static let keyOrder = ["name", "kind", "repeat", "spec", "time_s", "distance_m", "rate_spm", "split_s_per_500m", "label", "steps"]

    /// What `oarlog workouts list --json` and `GET /api/workouts` give for it:
    /// `{"name", "spec", "plan", "summary", "pieces", "steps"}` — `spec` null when the plan has
    /// no whiteboard form, `plan` the JSON form as saved (null when saved as text), `steps` every
    /// step in order (repeats written out) in the JSON form's keys.
    public var json: String {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("name", name)
        writer.field("spec", spec)
        writer.field("plan", json: planJSON)
        writer.field("summary", summary)
        writer.field("pieces", plan.pieceCount)
        writer.field("steps", json: WorkoutPlanJSON.stepsText(plan.steps))
        writer.endObject()
        return writer.take()
    }

    /// A list of them as a JSON array.
    public static func json(_ workouts: [SavedWorkout]) -> String {
        "[" + workouts.map(\.json).joined(separator: ",") + "]"
    }

    /// Its entry in `workouts.json`: the name and the plan as given.
    var fileEntry: String {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("name", name)
        if let savedSpec { writer.field("spec", savedSpec) } else { writer.field("plan", json: planJSON) }
        writer.endObject()
        return writer.take()
    }
}
