import OarlogCore
import OarlogDSP

/// Keeps every completed stroke of a run, in order — and, when asked, every reference (device)
/// stroke and metadata record too (for evaluation against ground truth; that needs the raw
/// records, so the pipeline then calls it per sample). For short runs and lists a person asked
/// for; a live session never uses it.
public final class StrokeCollector: PipelineSink {
    public private(set) var strokes: [StrokeMetrics] = []
    public private(set) var references: [ReferenceStroke] = []
    public private(set) var metadata: [String: String] = [:]
    private let keepsReferences: Bool

    public init(keepingReferences: Bool = false) { keepsReferences = keepingReferences }

    public var wantsRawRecords: Bool { keepsReferences }

    public func receive(_ event: PipelineEvent) {
        switch event {
        case .analysis(.stroke(let m)): strokes.append(m)
        case .record(.reference(let r)): references.append(r)
        case .record(.metadata(let key, let value)): metadata[key] = value
        default: break
        }
    }
}

extension Pipeline {
    /// Runs `source` to its end through a fresh pipeline with a collector that keeps references;
    /// returns both.
    public static func collect<Source: RecordSource>(_ source: inout Source, configuration: AnalyzerConfiguration = .init())
        throws -> (summary: SessionSummary, collector: StrokeCollector) {
        let collector = StrokeCollector(keepingReferences: true)
        var pipeline = Pipeline(analyzer: RowingAnalyzer(configuration: configuration), sinks: [collector])
        let summary = try pipeline.run(&source)
        return (summary, collector)
    }
}
