import OarlogCore
import OarlogPipeline
import OarlogReplay

/// What `oarlog replay` shows of a trace, the same from the small front and from `oarlog-full`:
/// the JSON report (`--json`) or the stroke table (`--strokes`) as the strokes come, then the
/// summary table with a plan's intervals and a ghost's race, and the reader's skipped-rows note.
public final class ReplayReport {
    public let trace: String
    public let json: Bool
    public let strokes: Bool
    /// A plan's pieces as they are timed (`--workout`), for the intervals table.
    public let intervals = WorkoutCollector()
    /// The race against a ghost (`--ghost`), for its table.
    public let race = GhostCollector()
    /// Whether anything has gone to standard output yet (an error after that cannot be retold
    /// from the start).
    public private(set) var wroteOutput = false

    public init(trace: String, json: Bool, strokes: Bool) {
        self.trace = trace
        self.json = json
        self.strokes = strokes
    }

    /// The sinks, in the order the replay has always had them: the plan, the race, the report (with
    /// `--json`, the report itself hands each event to the plan's and the race's), the fences'
    /// events (`--fences` without `--json`), the progress line on a terminal.
    public func sinks(facts: SessionFacts, showsFences: Bool = false) -> [any PipelineSink] {
        var sinks: [any PipelineSink] = []
        if json {
            // The report hands every event to the plan's and the race's collectors first: one
            // pass each, not a second pair of its own.
            sinks.append(JSONReportSink(source: trace, includeStrokes: strokes, facts: facts, workout: intervals, ghost: race) {
                [unowned self] in write($0)
            })
        } else {
            sinks += [intervals, race] as [any PipelineSink]
            if strokes { sinks.append(StrokeTablePrinter(facts: facts) { [unowned self] in write($0 + "\n") }) }
        }
        if showsFences && !json { sinks.append(FenceEventPrinter { [unowned self] in write($0 + "\n") }) }
        if let progress = ProgressReporter.ifTerminal() { sinks.append(progress) }
        return sinks
    }

    /// The end of the report, once the replay has run: the JSON object's line end, or the summary
    /// table (and the intervals' and the race's); then the skipped rows' note on standard error.
    public func finish(_ outcome: TraceReplay.Outcome, facts: SessionFacts) {
        if json {
            write("\n")
        } else {
            if strokes { write("\n") }
            write(SummaryTable.render(title: "Oarlog replay — \(trace)", summary: outcome.summary, facts: facts))
            if let plan = intervals.plan {
                write("\n" + IntervalTable.render(plan: plan, intervals: intervals.intervals, deviceFigures: intervals.deviceFigures))
            }
            if let table = race.table() { write("\n" + table) }
        }
        Self.reportSkips(outcome.skipNote)
    }

    /// The reader's skipped-rows note, if any, on standard error.
    public static func reportSkips(_ note: String?) {
        if let note { StandardStreams.error("note: \(note)\n") }
    }

    private func write(_ text: String) {
        wroteOutput = true
        StandardStreams.write(text)
    }
}
