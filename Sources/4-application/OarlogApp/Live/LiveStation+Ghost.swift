import OarlogCore
import OarlogFences

/// The ghost the recordings race (`serve --course NAME --ghost …`, or chosen on the page through
/// `PUT /api/live/ghost`): like the workout plan, it is chosen for the next recording, and each
/// recording races it from its start crossing (the live stream's `ghost_choice`, `ghost`,
/// `ghost_gate` and `ghost_race` messages).
extension LiveStation {
    /// The attempt the next recording races (nil: none).
    public var ghost: GhostReference? { state.withLock { $0.ghost.reference } }

    /// Chooses the attempt the next recordings race (nil: none); `course` and `choice` say how
    /// it was chosen (the course's name, `best` or `ID:K`). Refused while recording.
    public func chooseGhost(_ reference: GhostReference?, course: String = "", choice: String = "") throws(SessionStoreError) {
        let message = try state.withLock { s throws(SessionStoreError) -> String in
            guard s.recording == nil else { throw .beingRecorded("a recording is racing its ghost: stop it before choosing another") }
            s.ghost = LiveGhostState()
            if reference != nil {
                s.ghost.reference = reference
                s.ghost.course = course
                s.ghost.choice = choice
            }
            return LiveMessage.ghostChoice(s.ghost)
        }
        broadcast(message)
    }

    /// The ghost a new recording races (its race cleared).
    func ghostForRecording() -> GhostReference? {
        state.withLock { s in
            s.ghost.clearRace()
            return s.ghost.reference
        }
    }

    /// A recording's ghost event: the state, and a message to the phones.
    func ghostEvent(_ event: GhostEvent) {
        state.withLock { $0.ghost.apply(event) }
        switch event {
        case .status(let s): broadcast(LiveMessage.ghost(s))
        case .gate(let g): broadcast(LiveMessage.ghostGate(g))
        case .started, .finished: if let m = LiveMessage.ghostRace(event) { broadcast(m) }
        case .reference: break
        }
    }

    /// The messages a phone that joins gets: the choice, and the race while a recording runs.
    func ghostMessages(_ s: State) -> [String] {
        guard s.ghost.reference != nil else { return [] }
        var out = [LiveMessage.ghostChoice(s.ghost)]
        if s.recording != nil {
            out += s.ghost.gates.map(LiveMessage.ghostGate)
            if let status = s.ghost.status { out.append(LiveMessage.ghost(status)) }
        }
        return out
    }

    /// `GET /api/live/ghost`: `{"ghost": {…}|null, "status": {…}|null, "gates": […],
    /// "final_gap_s": n|null, "recording": bool}` — the keys of the live stream's messages, read at
    /// one moment under one lock.
    public func ghostJSON() -> String {
        let (ghost, recording) = state.withLock { ($0.ghost, $0.recording != nil) }
        var w = JSONWriter()
        w.beginObject()
        w.ghostChoiceObject("ghost", ghost)
        if let status = ghost.status, recording {
            w.beginObject(key: "status")
            w.ghostStatusFields(status)
            w.endObject()
        } else {
            w.field("status", json: nil)
        }
        w.beginArray(key: "gates")
        for g in ghost.gates {
            w.beginObject()
            w.ghostGateFields(g)
            w.endObject()
        }
        w.endArray()
        w.field("final_gap_s", ghost.finalGap, places: 2)
        w.field("recording", recording)
        w.endObject()
        return w.take()
    }
}
