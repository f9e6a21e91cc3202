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
        if let plan {
            w.beginObject(key: "plan")
            w.planFields(plan)
            w.endObject()
        } else {
            w.field("plan", json: nil)
        }
        w.field("starts_at_go", startsAtGo)
        w.endObject()
        return w.take()
    }

    /// A coach's plan waiting for the cox's answer (`offer: null` once answered).
    public static func workoutOffer(_ offer: WorkoutOffer?) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("type", "workout_offer")
        if let offer {
            w.beginObject(key: "offer")
            w.field("id", offer.id)
            w.field("from", offer.from)
            w.beginObject(key: "plan")
            w.planFields(offer.plan)
            w.endObject()
            w.endObject()
        } else {
            w.field("offer", json: nil)
        }
        w.endObject()
        return w.take()
    }
}
