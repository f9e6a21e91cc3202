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
        w.planObject("plan", plan)
        w.field("starts_at_go", atGo)
        w.offerObject("offer", offer)
        w.workoutStatusObject("status", recording ? status : nil)
        w.field("recording", recording)
        w.endObject()
        return w.take()
    }
}
