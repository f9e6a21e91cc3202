import OarlogCore
import OarlogWorkouts

/// The live stream's workout messages (docs/API.md): where the crew is in its plan, each interval
/// as it is concluded, the plan chosen for the next recording, and a coach's plan to answer.
extension LiveMessage {
    /// `{"type":"workout", "phase", "step", "piece", "pieces", "remaining_s"|"remaining_m", …}`.
    public static func workout(_ status: WorkoutStatus) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("type", "workout")
        w.workoutStatusFields(status)
        w.endObject()
        return w.take()
    }

    /// An interval concluded: the fields of an `intervals` entry.
    public static func interval(_ interval: WorkoutInterval) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("type", "interval")
        w.intervalFields(interval)
        w.endObject()
        return w.take()
    }

    /// The plan the next recording rows (`plan: null` when none).
    public static func workoutPlan(_ plan: WorkoutPlan?, startsAtGo: Bool) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("type", "workout_plan")
        w.planObject("plan", plan)
        w.field("starts_at_go", startsAtGo)
        w.endObject()
        return w.take()
    }

    /// A coach's plan waiting for the cox's answer (`offer: null` once answered).
    public static func workoutOffer(_ offer: WorkoutOffer?) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("type", "workout_offer")
        w.offerObject("offer", offer)
        w.endObject()
        return w.take()
    }
}

extension JSONWriter {
    /// `key: {"id", "from", "plan"}`, or `key: null` when no offer waits.
    mutating func offerObject(_ key: String, _ offer: WorkoutOffer?) {
        guard let offer else {
            field(key, json: nil)
            return
        }
        beginObject(key: key)
        field("id", offer.id)
        field("from", offer.from)
        planObject("plan", offer.plan)
        endObject()
    }
}
