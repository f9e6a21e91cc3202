import OarlogCore
import OarlogDSP
import OarlogFences
import OarlogPipeline
import OarlogTrace
import OarlogWorkouts

/// A recorded trace through the pipeline, as `oarlog replay`, `oarlog course` and the web
/// server's `--replay` run it: with the person's analysis settings, optional fences, optional
/// pacing, and optionally kept as a session. The caller adds the sinks that show what happens.
public struct TraceReplay {
    public var input: TraceInput
    public var settings: AnalysisSettings
    public var fences: FenceFile?
    public var pacing: Pacing
    /// A workout plan to time over the trace (`replay --workout`): the same tracker as live.
    public var workout: WorkoutPlan?
    /// An attempt of a course to race (`replay --course NAME --ghost …`): the same race as live.
    public var ghost: GhostReference?
    /// Facts about the records (counts, start, device figures) for the summary table and JSON.
    public let facts = SessionFacts()
    /// The mounting estimator run on the thread that parses a long native trace, so that the
    /// replay uses both cores (`MountingLookahead`; nil when strokes come from the device).
    public let lookahead: MountingLookahead?

    public init(path: String, format: TraceFormat? = nil, options: TraceOpenOptions = TraceOpenOptions(),
                settings: AnalysisSettings = .defaults, fences: FenceFile? = nil, pacing: Pacing = .asFastAsPossible) throws {
        let configuration = try settings.analyzerConfiguration()  // a bad setting is refused before the file is read
        lookahead = configuration.strokeSource == .reference ? nil : MountingLookahead(configuration: configuration.mounting)
        self.input = try TraceInput(path: path, format: format, options: options, lookahead: lookahead)
        self.settings = settings
        self.fences = fences
        self.pacing = pacing
    }

    /// What a run ends with.
    public struct Outcome {
        public var summary: SessionSummary
        /// Gate crossings the fence stage rejected (an implausible gap or jump between fixes).
        public var rejectedCrossings: Int
        /// The reader's skipped rows, for the person (nil when none).
        public var skipNote: String?
    }

    /// Runs the trace to its end (or until `shouldStop`), through `facts`, `sinks` and, when
    /// given, a session writer (OarlogApp's `SessionSaving.replayWriter` makes one): the writer
    /// sees every record right after `facts`, before the caller's sinks.
    public mutating func run(sinks: [any PipelineSink], saveTo writer: (any PipelineSink)? = nil,
                             shouldStop: () -> Bool = { false }) throws -> Outcome {
        var all: [any PipelineSink] = [facts]
        if let writer { all.append(writer) }
        all += sinks
        var pipeline = try RowingPipeline.make(settings: settings, sinks: all, pacing: pacing, fences: fences,
                                               workout: workout.map { WorkoutTracker(plan: $0) }, ghost: ghost)
        if let lookahead { pipeline.analyzer.follow(lookahead) }
        let summary = try pipeline.run(&input.source, shouldStop: shouldStop)
        return Outcome(summary: summary, rejectedCrossings: pipeline.fences?.statistics.rejectedCrossings ?? 0,
                       skipNote: input.skipNote)
    }
}
