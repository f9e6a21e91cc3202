import OarlogCore
import OarlogFences
import OarlogPipeline

/// Gathers a run's race against a ghost for a report (`replay --json`'s `ghost`): the reference,
/// and the gate rows and final gap of the last race finished (of the race under way when none
/// finished). Holds at most one row per course gate.
public final class GhostCollector: PipelineSink {

    /// The boat speed's events (ten a second) carry nothing this sink keeps.
    public var wantsBoatSpeed: Bool { false }
    public private(set) var reference: GhostReferenceInfo?
    /// The reported race's gates crossed (the finish included) and its final gap (+ behind).
    public private(set) var gates: [GhostGateSplit] = []
    public private(set) var finalGap: Seconds?
    private var current: [GhostGateSplit] = []
    private var finishedOnce = false

    public init() {}

    public func receive(_ event: PipelineEvent) {
        guard case .ghost(let e) = event else { return }
        switch e {
        case .reference(let info): reference = info
        case .started:
            current = []
            if !finishedOnce { gates = [] }
        case .gate(let split):
            if current.count < (reference?.gates.count ?? 0) { current.append(split) }
            if !finishedOnce { gates = current }
        case .finished(_, let gap):
            finishedOnce = true
            gates = current
            finalGap = gap
        case .status: break
        }
    }

    /// The race as `oarlog replay` prints it: one row per gate, the boat's time, the ghost's and
    /// the gap (+ behind, − ahead); nil when no ghost was raced.
    public func table() -> String? {
        guard let reference else { return nil }
        var out = "Ghost: session \(reference.session)'s \(RowingFormat.duration(reference.time)) on \(reference.course)\n"
        guard !gates.isEmpty else { return out + "  (the start was not crossed: no race)\n" }
        var rows = [["Gate", "Distance", "Time", "Ghost", "Gap"]]
        for g in gates {
            rows.append([g.gate, RowingFormat.distance(g.distance), RowingFormat.duration(g.time),
                         RowingFormat.duration(g.referenceTime), Self.gap(g.gapSeconds)])
        }
        out += TextTable.columns(rows, rightAligned: [1, 2, 3, 4])
        if let finalGap { out += "Final gap: \(Self.gap(finalGap)) s\n" } else { out += "(the finish was not crossed)\n" }
        return out
    }

    /// `+1.2` behind, `-0.8` ahead, `0.0` level.
    static func gap(_ seconds: Seconds?) -> String {
        guard let seconds else { return RowingFormat.noData }
        let text = RowingFormat.fixed(abs(seconds), places: 1)
        return text == "0.0" ? text : (seconds > 0 ? "+" : "-") + text
    }

    /// `"ghost": {"course", "reference": {"session", "start_s", "time_s"}, "gates": [{"gate",
    /// "distance_m", "t_s", "reference_t_s", "gap_s"}], "final_gap_s"}` when the run raced one.
    public func write(into w: inout JSONWriter) {
        guard let reference else { return }
        w.beginObject(key: "ghost")
        w.field("course", reference.course)
        w.beginObject(key: "reference")
        w.field("session", reference.session)
        w.field("start_s", reference.startTime, places: 2)
        w.field("time_s", reference.time, places: 2)
        w.endObject()
        w.beginArray(key: "gates")
        for g in gates {
            w.beginObject()
            w.ghostGateFields(g)
            w.endObject()
        }
        w.endArray()
        w.field("final_gap_s", finalGap, places: 2)
        w.endObject()
    }
}

extension JSONWriter {
    /// A gate of the race: `gate`, `distance_m`, `t_s` (from the boat's start), `reference_t_s`,
    /// `gap_s` (+ behind, − ahead).
    public mutating func ghostGateFields(_ g: GhostGateSplit) {
        field("gate", g.gate)
        field("distance_m", g.distance, places: 1)
        field("t_s", g.time, places: 2)
        field("reference_t_s", g.referenceTime, places: 2)
        field("gap_s", g.gapSeconds, places: 2)
    }
}
