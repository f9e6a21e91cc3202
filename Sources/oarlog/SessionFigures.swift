import OarlogCore
import OarlogDSP
import OarlogPipeline
import OarlogReport
import OarlogSession

/// A stored session's figures as `show` presents them: from the summary frame of a closed file
/// (fast: the footer, nothing replayed), or — for a file that was not closed (a power cut) or was
/// recovered without the analyzer's totals — recomputed by replaying its records.
struct SessionFigures {
    var summary: SessionSummary
    var accelerometerSamples: Int
    var fixes: Int
    var notes: Int
    var gaps: Int
    var referenceStrokes: Int
    var events: Int
    /// First and last data time (session time).
    var firstTime: Seconds?
    var lastTime: Seconds?
    /// The strokes, when asked for.
    var strokes: [StrokeMetrics]?
    /// True when the figures were recomputed from the records (no stored summary).
    var recomputed: Bool
    /// Damage skipped while recomputing.
    var damage: [DamageNote] = []

    static func load(_ reader: SessionReader, includeStrokes: Bool) throws -> SessionFigures {
        if let stored = reader.summary, let analysis = stored.analysis {
            let s = stored.statistics
            return SessionFigures(summary: analysis, accelerometerSamples: s.accelerometerSamples, fixes: s.fixes, notes: s.notes,
                                  gaps: s.gaps, referenceStrokes: s.referenceStrokes, events: s.events,
                                  firstTime: s.firstTime, lastTime: s.lastTime,
                                  strokes: includeStrokes ? try reader.strokes(onDamage: .skipDamagedChunks) : nil, recomputed: false)
        }
        return try recompute(reader, includeStrokes: includeStrokes)
    }

    /// Replays the records through the analyzer with the session's recorded settings.
    static func recompute(_ reader: SessionReader, includeStrokes: Bool) throws -> SessionFigures {
        let options = try SessionSupport.analysisOptions(for: reader.metadata)
        let facts = SessionFacts()
        let strokes = StrokeList()
        var pipeline = Pipeline(analyzer: RowingAnalyzer(configuration: try options.analyzerConfiguration()),
                                sinks: includeStrokes ? [facts, strokes] : [facts])
        var source = try reader.recordsInTimeOrder(onDamage: .skipDamagedChunks)
        let summary = try pipeline.run(&source)
        return SessionFigures(summary: summary, accelerometerSamples: facts.accelSamples, fixes: facts.fixes, notes: facts.noteCount,
                              gaps: facts.gapCount, referenceStrokes: facts.referenceStrokes,
                              events: reader.summary?.statistics.events ?? 0,
                              firstTime: facts.firstTime, lastTime: facts.lastTime,
                              strokes: includeStrokes ? strokes.strokes : nil, recomputed: true, damage: source.records.entries.damage)
    }

    var strokesKnown: Bool {
        RowingFormat.strokesKnown(strokes: summary.strokes, accelerometerSamples: accelerometerSamples, referenceStrokes: referenceStrokes)
    }
}

/// Keeps the strokes a replay concludes (for `show --strokes` on a session without a summary).
final class StrokeList: PipelineSink {
    var strokes: [StrokeMetrics] = []
    func receive(_ event: PipelineEvent) {
        if case .analysis(.stroke(let m)) = event { strokes.append(m) }
    }
}
