import OarlogCore
import OarlogFences

/// Geofence, gate and course events as session events, so a recording keeps them without a
/// format change (see docs/SESSION_FORMAT.md). Names are dotted (`fence.enter`, `fence.cross`,
/// `course.segment`…); numbers are plain decimals with their unit in the key.
extension SessionEvent {
    public init(_ event: FenceEvent) {
        typealias F = SessionMetadata.Setting
        func n(_ v: Double) -> String { "\(v)" }
        switch event {
        case .enter(let fence, let time):
            self.init(time: time, name: "fence.enter", fields: [F("fence", fence.name)])
        case .exit(let fence, let time, let inside):
            var fields = [F("fence", fence.name)]
            if let inside { fields.append(F("time_inside_s", n(inside))) }
            self.init(time: time, name: "fence.exit", fields: fields)
        case .dwell(let fence, let time, let inside):
            self.init(time: time, name: "fence.dwell", fields: [F("fence", fence.name), F("time_inside_s", n(inside))])
        case .cross(let c):
            self.init(time: c.time, name: "fence.cross", fields: [
                F("gate", c.gate.name), F("speed_mps", n(c.speed)), F("heading_deg", n(c.heading)),
                F("wrong_way", c.wrongWay ? "true" : "false"), F("lat_deg", n(c.position.latitude)),
                F("lon_deg", n(c.position.longitude)), F("fix_interval_s", n(c.fixInterval)),
            ])
        case .rejectedCrossing(let r):
            var fields = [F("gate", r.gate.name), F("after_s", n(r.after)), F("before_s", n(r.before))]
            switch r.reason {
            case .gap(let gap): fields += [F("reason", "gap"), F("gap_s", n(gap))]
            case .jump(let speed): fields += [F("reason", "jump"), F("speed_mps", n(speed))]
            }
            self.init(time: r.before, name: "fence.rejected_crossing", fields: fields)
        case .segment(let s):
            var fields = [F("number", "\(s.number)"), F("from", s.from.name), F("to", s.to.name),
                          F("start_s", n(s.startTime)), F("end_s", n(s.endTime)), F("distance_m", n(s.distance)),
                          F("strokes", "\(s.strokes)")]
            if let rate = s.strokeRate { fields.append(F("rate_spm", n(rate))) }
            if !s.missedGates.isEmpty { fields.append(F("missed", s.missedGates.map(\.name).joined(separator: ", "))) }
            self.init(time: s.endTime, name: "course.segment", fields: fields)
        case .piece(let p):
            var fields = [F("course", p.course), F("start_s", n(p.startTime)), F("finish_s", n(p.finishTime)),
                          F("distance_m", n(p.distance)), F("strokes", "\(p.strokes)")]
            if let rate = p.strokeRate { fields.append(F("rate_spm", n(rate))) }
            self.init(time: p.finishTime, name: "course.piece", fields: fields)
        case .courseProblem(let problem):
            switch problem {
            case .wrongWay(let gate, let time):
                self.init(time: time, name: "course.wrong_way", fields: [F("gate", gate.name)])
            case .missedGate(let gate, let time):
                self.init(time: time, name: "course.missed_gate", fields: [F("gate", gate.name)])
            case .notStarted(let gate, let time):
                self.init(time: time, name: "course.not_started", fields: [F("gate", gate.name)])
            case .incomplete(let start, let reached, let time):
                self.init(time: time, name: "course.incomplete", fields: [F("start_s", n(start)), F("reached", reached.name)])
            }
        }
    }

    /// The value of a field, if the event has it.
    public func field(_ key: String) -> String? { fields.last(where: { $0.key == key })?.value }
}
