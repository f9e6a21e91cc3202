import OarlogCore
import OarlogDSP
import OarlogPipeline
import OarlogSession

/// A stored session's figures as `show` and the web app present them: from the summary frame of
/// a closed file (fast: the footer, nothing replayed), or — for a file that was not closed (a
/// power cut) or was recovered without the analyzer's totals — recomputed by replaying its
/// records with the settings it was recorded with.
public struct SessionFigures {
    public var summary: SessionSummary
    public var accelerometerSamples: Int
    public var fixes: Int
    public var notes: Int
    public var gaps: Int
    public var referenceStrokes: Int
    public var events: Int
    /// First and last data time (session time).
    public var firstTime: Seconds?
    public var lastTime: Seconds?
    /// The strokes, when asked for.
    public var strokes: [StrokeMetrics]?
    /// True when the figures were recomputed from the records (no stored summary).
    public var recomputed: Bool
    /// Damage skipped while recomputing.
    public var damage: [DamageNote] = []

    public static func load(_ reader: SessionReader, includeStrokes: Bool) throws -> SessionFigures {
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
    public static func recompute(_ reader: SessionReader, includeStrokes: Bool) throws -> SessionFigures {
        let facts = SessionFacts()
        let strokes = StrokeCollector()
        let outcome = try SessionReplay(reader).run(sinks: includeStrokes ? [facts, strokes] : [facts])
        return SessionFigures(summary: outcome.summary, accelerometerSamples: facts.accelSamples, fixes: facts.fixes,
                              notes: facts.noteCount, gaps: facts.gapCount, referenceStrokes: facts.referenceStrokes,
                              events: reader.summary?.statistics.events ?? 0,
                              firstTime: facts.firstTime, lastTime: facts.lastTime,
                              strokes: includeStrokes ? strokes.strokes : nil, recomputed: true, damage: outcome.damage)
    }

    /// The session's length in session seconds: its last record, else its elapsed time, else its
    /// last stroke (what a playback's slider and a plot's time axis span).
    public var duration: Seconds {
        max(0, lastTime ?? summary.elapsed ?? strokes?.last?.stroke.catchTime ?? 0)
    }

    /// Strokes are "no data" when the session had neither an accelerometer nor a device's strokes.
    public var strokesKnown: Bool {
        RowingFormat.strokesKnown(strokes: summary.strokes, accelerometerSamples: accelerometerSamples, referenceStrokes: referenceStrokes)
    }
}
