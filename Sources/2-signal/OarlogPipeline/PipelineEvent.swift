import OarlogCore
import OarlogDSP
import OarlogFences
import OarlogWorkouts

/// What flows from the pipeline to its sinks: the raw records as they arrived (for a recorder or
/// a live plot) and what the DSP concluded from them.
public enum PipelineEvent: Sendable, Equatable {
    case record(TraceRecord)
    case analysis(AnalyzerEvent)
    /// Geofence, gate and course events (only when the pipeline has a fence monitor).
    case fence(FenceEvent)
    /// The workout plan, its steps' starts and each step's figures (only with a workout tracker).
    case workout(WorkoutEvent)
    /// The race against a reference attempt of a course (only with a ghost stage).
    case ghost(GhostEvent)
}

/// A consumer of pipeline events: a terminal display, a JSON writer, a session recorder.
/// Sinks run on the pipeline's thread, in order; they must not block for long.
public protocol PipelineSink: AnyObject {
    /// Whether this sink wants every raw record (accelerometer samples included). A sink that only
    /// shows strokes says `false`, and the pipeline spares it the per-sample calls.
    var wantsRawRecords: Bool { get }
    /// Whether this sink takes the fused boat speed's `.analysis(.speed)` events (ten a second
    /// wherever the accelerometer drives the speed). True unless the sink says otherwise; a sink
    /// that never reads them says false and the pipeline does not hand them to it.
    var wantsBoatSpeed: Bool { get }
    func receive(_ event: PipelineEvent) throws
    /// A run of raw accelerometer samples (a replay's batch path): the same as
    /// `receive(.record(.accel(sample)))` for each, which the default does; a sink that only
    /// counts them can take the run at once.
    func receive(accel samples: UnsafeBufferPointer<AccelSample>) throws
    /// Called once at the end of the run with the session's totals.
    func finish(summary: SessionSummary) throws
}

extension PipelineSink {
    public var wantsRawRecords: Bool { false }
    public var wantsBoatSpeed: Bool { true }
    public func finish(summary: SessionSummary) throws {}
    public func receive(accel samples: UnsafeBufferPointer<AccelSample>) throws {
        for sample in samples { try receive(.record(.accel(sample))) }
    }
}
