import OarlogCore
import OarlogDSP
import OarlogPipeline

/// Keeps every completed stroke and every reference (device) stroke of a run, for evaluation
/// against ground truth. Evaluation traces are short; a live session never uses this sink.
public final class StrokeCollector: PipelineSink {
    public private(set) var strokes: [StrokeMetrics] = []
    public private(set) var references: [ReferenceStroke] = []
    public private(set) var metadata: [String: String] = [:]
    public init() {}
    public var wantsRawRecords: Bool { true }
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
    /// Runs `source` to its end through a fresh pipeline with a collector; returns both.
    static func collect<Source: RecordSource>(_ source: inout Source, configuration: AnalyzerConfiguration = .init())
        throws -> (summary: SessionSummary, collector: StrokeCollector) {
        let collector = StrokeCollector()
        var pipeline = Pipeline(analyzer: RowingAnalyzer(configuration: configuration), sinks: [collector])
        let summary = try pipeline.run(&source)
        return (summary, collector)
    }
}
