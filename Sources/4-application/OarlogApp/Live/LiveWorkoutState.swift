import OarlogCore
import OarlogWorkouts

/// The cox's workout as `GET /api/live/workout` answers it (docs/API.md): the plan chosen for the
/// next recording, whether it starts at the go, the coach's plan waiting for an answer, and where
/// the crew is in its plan while a recording rows it — read at one moment, under one lock.
extension LiveStation {
    /// Whether the chosen plan's first piece starts at the countdown's go (else at the first catch).
    public var workoutStartsAtGo: Bool { state.withLock { $0.workoutStartsAtGo } }

    /// `{"plan": {…}|null, "starts_at_go": bool, "offer": {"id", "from", "plan"}|null,
    /// "status": {…}|null, "recording": bool}` — the keys of the live stream's `workout_plan`,
    /// `workout_offer` and `workout` messages. `status` is null unless a recording is rowing
    /// the plan.
    public func workoutJSON() -> String {
        let (plan, atGo, offer, status, recording) = state.withLock { s in
            (s.workout, s.workoutStartsAtGo, s.workoutOffer, s.workoutStatus, s.recording != nil)
        }
        var w = JSONWriter()
        w.beginObject()
        if let plan {
            w.beginObject(key: "plan")
            w.planFields(plan)
            w.endObject()
        } else {
            w.field("plan", json: nil)
        }
        w.field("starts_at_go", atGo)
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
        if let status, recording {
            w.beginObject(key: "status")
            w.workoutStatusFields(status)
            w.endObject()
        } else {
            w.field("status", json: nil)
        }
        w.field("recording", recording)
        w.endObject()
        return w.take()
    }
}
