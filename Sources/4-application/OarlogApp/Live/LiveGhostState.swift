import OarlogCore
import OarlogFences

/// The ghost on the cox's screen: the attempt chosen for the next recordings (and how it was
/// chosen: the course's name and `best` or `ID:K`), and while a recording races it, the gap at
/// the latest catch, each gate crossed and the final gap. Bounded: a row per course gate.
struct LiveGhostState {
    var reference: GhostReference?
    var course = ""
    var choice = ""
    var status: GhostStatus?
    var gates: [GhostGateSplit] = []
    var finalGap: Seconds?

    /// A new race (a recording starts, or the boat crosses the start again).
    mutating func clearRace() {
        status = nil
        gates = []
        finalGap = nil
    }

    mutating func apply(_ event: GhostEvent) {
        switch event {
        case .reference: break
        case .started: clearRace()
        case .status(let s): status = s
        case .gate(let g): if gates.count < (reference?.course.gates.count ?? 0) { gates.append(g) }
        case .finished(_, let gap):
            finalGap = gap
            status = nil
        }
    }
}

extension JSONWriter {
    /// `key: {"course", "choice", "session", "start_s", "time_s", "gates": [{"name", "distance_m",
    /// "t_s"}], "track": [[lat, lon], …]}` (the attempt's path, at most 300 points), or null.
    mutating func ghostChoiceObject(_ key: String, _ ghost: LiveGhostState) {
        guard let reference = ghost.reference else {
            field(key, json: nil)
            return
        }
        beginObject(key: key)
        field("course", ghost.course)
        field("choice", ghost.choice)
        field("session", reference.session)
        field("start_s", reference.startTime, places: 2)
        field("time_s", reference.time, places: 2)
        field("length_m", reference.course.length, places: 1)
        beginArray(key: "gates")
        for (k, gate) in reference.course.gates.enumerated() {
            beginObject()
            field("name", gate.name)
            field("distance_m", reference.course.distances[k], places: 1)
            field("t_s", reference.gateTimes[k], places: 2)
            endObject()
        }
        endArray()
        beginArray(key: "track")
        let step = max(1, reference.samples.count / 300 + 1)
        for (i, s) in reference.samples.enumerated() where i % step == 0 || i == reference.samples.count - 1 {
            beginArray()
            element(s.position.latitude, places: 6)
            element(s.position.longitude, places: 6)
            endArray()
        }
        endArray()
        endObject()
    }

    /// The gap at a catch: `t_s`, `elapsed_s`, `along_m`, `gap_s` (+ behind), `gap_m`,
    /// `ghost_along_m`, `ghost_lat`, `ghost_lon`.
    mutating func ghostStatusFields(_ s: GhostStatus) {
        field("t_s", s.time, places: 2)
        field("elapsed_s", s.elapsed, places: 2)
        field("along_m", s.along, places: 1)
        field("gap_s", s.gapSeconds, places: 2)
        field("gap_m", s.gapMetres, places: 1)
        field("ghost_along_m", s.ghostAlong, places: 1)
        field("ghost_lat", s.ghostPosition.latitude, places: 7)
        field("ghost_lon", s.ghostPosition.longitude, places: 7)
    }
}
