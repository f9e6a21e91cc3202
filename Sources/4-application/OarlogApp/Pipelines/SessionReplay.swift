import OarlogCore
import OarlogDSP
import OarlogPipeline
import OarlogSession
import OarlogWorkouts

/// A recorded session through the pipeline again, with the analysis settings it was recorded
/// with (those a person gives win): `oarlog play`, `oarlog export SESSION`, `show` on a file
/// that was not closed, and the web app's playback.
public struct SessionReplay {
    public let reader: SessionReader
    public let settings: AnalysisSettings

    /// - Parameter overrides: settings the person asked for; those left at their defaults do not
    ///   override what the session recorded.
    public init(_ reader: SessionReader, overrides: AnalysisSettings = .defaults) {
        self.reader = reader
        self.settings = overrides.overriding(AnalysisSettings(recordedIn: reader.metadata))
    }

    /// The session's records in time order (notes at their time, damaged chunks skipped), from
    /// `time` if given, with its `start_utc` first so exporters and displays place it in UTC.
    public func records(from time: Seconds? = nil) throws -> LeadingRecords<NotesInTimeOrder> {
        LeadingRecords([.metadata(key: "start_utc", value: SessionText.iso(reader.metadata.startUTC))],
                       try reader.recordsInTimeOrder(from: time, onDamage: .skipDamagedChunks))
    }

    /// What a run ends with.
    public struct Outcome {
        public var summary: SessionSummary
        /// Damaged places skipped on the way.
        public var damage: [DamageNote]
    }

    /// Runs the session (from `time`) through `sinks` at `pacing`.
    public func run(sinks: [any PipelineSink], pacing: Pacing = .asFastAsPossible, from time: Seconds? = nil,
                    shouldStop: () -> Bool = { false }) throws -> Outcome {
        var pipeline = try RowingPipeline.make(settings: settings, sinks: sinks, pacing: pacing, workout: time == nil ? try workoutTracker() : nil)
        var source = try records(from: time)
        let summary = try pipeline.run(&source, shouldStop: shouldStop)
        return Outcome(summary: summary, damage: source.rest.records.entries.damage)
    }

    /// The recorded plan's tracker, started when the recording started it (its first catch or the
    /// go): a replay of the session gives the same intervals. Nil without a plan.
    public func workoutTracker() throws -> WorkoutTracker? {
        guard let recorded = try reader.workout() else { return nil }
        return WorkoutTracker(plan: recorded.plan, goTime: recorded.startTime)
    }
}
