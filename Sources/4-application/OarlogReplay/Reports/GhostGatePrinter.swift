import OarlogCore
import OarlogFences
import OarlogPipeline

/// Prints the race against a ghost as it happens, a line at the start, at each gate (the boat's
/// time, the ghost's, the gap) and at the finish (`record` without a terminal). Holds nothing.
public final class GhostGatePrinter: PipelineSink {
    private let output: (String) -> Void

    public init(output: @escaping (String) -> Void) {
        self.output = output
    }

    public func receive(_ event: PipelineEvent) {
        guard case .ghost(let e) = event else { return }
        switch e {
        case .started(let t):
            output("\(TextTable.padLeft(RowingFormat.duration(t), 9))  ghost    start: racing the ghost")
        case .gate(let g):
            output("\(TextTable.padLeft(RowingFormat.duration(g.crossingTime), 9))  ghost    \(g.gate) in \(RowingFormat.duration(g.time)), "
                + "ghost \(RowingFormat.duration(g.referenceTime)), gap \(GhostCollector.gap(g.gapSeconds)) s")
        case .finished(let time, let gap):
            output("           ghost    finished in \(RowingFormat.duration(time)): \(GhostCollector.gap(gap)) s on the ghost")
        case .reference, .status:
            break
        }
    }
}
