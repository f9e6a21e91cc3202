import OarlogCore
import OarlogDSP
import OarlogFences
import OarlogPipeline
import OarlogWorkouts

/// How every mode (replay, record, play, export, course, the web server) builds its pipeline: the
/// analyzer from the settings, the fence stage from a fence file, the sinks the caller gives.
/// `live`: figures as they happen (record, serve), so distance is forward-only (as with fences);
/// replay and export smooth the track first (`DistanceConfiguration.smoothing`).
public enum RowingPipeline {
    public static func make(settings: AnalysisSettings, sinks: [any PipelineSink], pacing: Pacing = .asFastAsPossible,
                            fences: FenceFile? = nil, workout: WorkoutTracker? = nil, ghost: GhostReference? = nil,
                            live: Bool = false) throws -> Pipeline {
        var configuration = try settings.analyzerConfiguration()
        // The settings' configuration smooths the track (replay, export); live, and a course's
        // pieces (each counts the strokes released by its finish crossing, which the smoother's
        // lag would hold back), stay forward only.
        if live || fences != nil { configuration.distance.smoothing = .none }
        return Pipeline(analyzer: RowingAnalyzer(configuration: configuration), sinks: sinks, pacing: pacing,
                        fences: fences.map { FenceMonitor($0) }, workout: workout, ghost: ghost.map { GhostRace(reference: $0) })
    }

    /// A fence file, or an error that names it.
    public static func loadFences(_ path: String?) throws -> FenceFile? {
        try path.map { try FenceFile.load(path: $0) }
    }
}
