import OarlogCore
import OarlogFences

/// The live stream's ghost messages (docs/API.md, docs/GHOST.md): the attempt chosen, the gap at
/// every catch, each gate crossed, the start and the finish of the race.
extension LiveMessage {
    /// `{"type":"ghost_choice", "ghost": {course, choice, session, start_s, time_s, gates, track}|null}`.
    static func ghostChoice(_ ghost: LiveGhostState) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("type", "ghost_choice")
        w.ghostChoiceObject("ghost", ghost)
        w.endObject()
        return w.take()
    }

    /// `{"type":"ghost", "t_s", "elapsed_s", "along_m", "gap_s", "gap_m", "ghost_along_m", "ghost_lat", "ghost_lon"}`.
    static func ghost(_ status: GhostStatus) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("type", "ghost")
        w.ghostStatusFields(status)
        w.endObject()
        return w.take()
    }

    /// `{"type":"ghost_gate", "gate", "distance_m", "t_s", "reference_t_s", "gap_s"}`.
    static func ghostGate(_ split: GhostGateSplit) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("type", "ghost_gate")
        w.ghostGateFields(split)
        w.endObject()
        return w.take()
    }

    /// `{"type":"ghost_race", "event": "started", "t_s"}` or `{"type":"ghost_race", "event":
    /// "finished", "time_s", "gap_s"}`.
    static func ghostRace(_ event: GhostEvent) -> String? {
        var w = JSONWriter()
        w.beginObject()
        w.field("type", "ghost_race")
        switch event {
        case .started(let t):
            w.field("event", "started")
            w.field("t_s", t, places: 2)
        case .finished(let time, let gap):
            w.field("event", "finished")
            w.field("time_s", time, places: 2)
            w.field("gap_s", gap, places: 2)
        default:
            return nil
        }
        w.endObject()
        return w.take()
    }
}
