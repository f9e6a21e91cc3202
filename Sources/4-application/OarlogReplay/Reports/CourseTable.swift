import OarlogCore
import OarlogDSP
import OarlogFences
import OarlogPipeline

/// Collects course results during a run and prints the per-leg table of each piece at the end
/// (`oarlog course`). Holds only the pieces, problems and counts (bounded by the course).
public final class CourseTable: PipelineSink {
    public private(set) var pieces: [CoursePiece] = []
    public private(set) var problems: [CourseProblem] = []
    public private(set) var rejectedCrossings = 0
    private let output: (String) -> Void
    private let maximumProblemsKept = 1000

    public init(output: @escaping (String) -> Void) {
        self.output = output
    }

    public func receive(_ event: PipelineEvent) {
        guard case .fence(let e) = event else { return }
        switch e {
        case .piece(let p): pieces.append(p)
        case .courseProblem(let p): if problems.count < maximumProblemsKept { problems.append(p) }
        case .rejectedCrossing: rejectedCrossings += 1
        default: break
        }
    }

    public func finish(summary: SessionSummary) {
        output(render())
    }

    /// The whole report as text.
    public func render() -> String {
        var out = ""
        if pieces.isEmpty { out += "No piece was rowed from start to finish.\n" }
        for (k, piece) in pieces.enumerated() {
            out += "Piece \(k + 1): \(piece.course), start \(RowingFormat.duration(piece.startTime)), "
                + "finish \(RowingFormat.duration(piece.finishTime))\n"
            out += Self.table(piece)
        }
        if !problems.isEmpty {
            out += "Course problems:\n"
            for p in problems { out += "  \(RowingFormat.duration(Self.time(of: p)))  \(Self.describe(p))\n" }
        }
        out += "Rejected crossings (gap or GPS jump): \(rejectedCrossings)\n"
        return out
    }

    /// The per-leg table of one piece.
    public static func table(_ piece: CoursePiece) -> String {
        let l = TextTable.padRight, r = TextTable.padLeft
        var out = "  leg  " + l("from", 12) + l("to", 12) + r("distance", 9) + r("time", 10) + r("split", 9)
            + r("rate", 7) + r("strokes", 9) + "\n"
        for s in piece.segments {
            out += r(String(s.number), 5) + "  " + l(s.from.name, 12) + l(s.to.name, 12) + r(RowingFormat.distance(s.distance), 9)
                + r(RowingFormat.duration(s.duration), 10) + r(RowingFormat.split(s.split), 9)
                + r(RowingFormat.decimal(s.strokeRate), 7) + r(String(s.strokes), 9)
                + (s.missedGates.isEmpty ? "" : "  missed " + s.missedGates.map(\.name).joined(separator: ", ")) + "\n"
        }
        out += "  total" + String(repeating: " ", count: 24) + r(RowingFormat.distance(piece.distance), 9)
            + r(RowingFormat.duration(piece.duration), 10) + r(RowingFormat.split(piece.split), 9)
            + r(RowingFormat.decimal(piece.strokeRate), 7) + r(String(piece.strokes), 9) + "\n"
        return out
    }

    static func time(of problem: CourseProblem) -> Seconds { FenceEvent.courseProblem(problem).time }

    /// A sentence for a course problem.
    public static func describe(_ problem: CourseProblem) -> String {
        switch problem {
        case .wrongWay(let gate, _): return "\(gate.name) crossed the wrong way"
        case .missedGate(let gate, _): return "\(gate.name) missed"
        case .notStarted(let gate, _): return "\(gate.name) crossed with no piece under way (start not crossed)"
        case .incomplete(let start, let reached, _):
            return "piece started at \(RowingFormat.duration(start)) stopped after \(reached.name) (not finished)"
        }
    }
}
