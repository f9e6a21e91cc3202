import OarlogCore
import OarlogFences
import OarlogPipeline

/// Prints geofence, gate and course events as they happen, one line each (streaming: nothing
/// is held). Times are trace times as h:mm:ss.t.
public final class FenceEventPrinter: PipelineSink {
    private let output: (String) -> Void

    public init(output: @escaping (String) -> Void) {
        self.output = output
    }

    public func receive(_ event: PipelineEvent) {
        guard case .fence(let fenceEvent) = event else { return }
        output(Self.line(fenceEvent))
    }

    /// One line describing the event.
    public static func line(_ event: FenceEvent) -> String {
        let time = TextTable.padLeft(RowingFormat.duration(event.time), 9)
        switch event {
        case .enter(let fence, _):
            return "\(time)  enter    \(fence.name)"
        case .exit(let fence, _, let inside):
            return "\(time)  exit     \(fence.name)" + (inside.map { " after \(RowingFormat.duration($0))" } ?? "")
        case .dwell(let fence, _, let inside):
            return "\(time)  dwell    \(fence.name) (inside \(RowingFormat.duration(inside)))"
        case .cross(let c):
            return "\(time)  cross    \(c.gate.name)\(c.wrongWay ? " WRONG WAY" : "")  "
                + "\(RowingFormat.decimal(c.speed, places: 2, unit: "m/s")), heading \(RowingFormat.decimal(c.heading, places: 0))°, "
                + "split \(RowingFormat.split(Double.split(fromSpeed: c.speed)))"
        case .rejectedCrossing(let r):
            let why: String
            switch r.reason {
            case .gap(let gap): why = "fixes \(RowingFormat.decimal(gap, places: 1)) s apart"
            case .jump(let speed): why = "GPS jump (\(RowingFormat.decimal(speed, places: 0)) m/s)"
            }
            return "\(time)  rejected crossing of \(r.gate.name): \(why), not timed"
        case .segment(let s):
            return "\(time)  leg \(s.number)    \(s.from.name) → \(s.to.name): \(RowingFormat.duration(s.duration)), "
                + "split \(RowingFormat.split(s.split)), rate \(RowingFormat.decimal(s.strokeRate))"
                + (s.missedGates.isEmpty ? "" : " (missed \(s.missedGates.map(\.name).joined(separator: ", ")))")
        case .piece(let p):
            return "\(time)  finish   \(p.course): \(RowingFormat.distance(p.distance)) in \(RowingFormat.duration(p.duration)), "
                + "split \(RowingFormat.split(p.split)), rate \(RowingFormat.decimal(p.strokeRate))"
        case .courseProblem(let problem):
            return "\(time)  course   " + CourseTable.describe(problem)
        }
    }
}
