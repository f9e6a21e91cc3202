import OarlogSession
import OarlogReplay

extension AnalysisSettings {
    // MARK: In a session's metadata

    /// The settings as a session records them.
    public var sessionSettings: [SessionMetadata.Setting] {
        [.init("axis", axis), .init("split_averaging", splitAveraging), .init("strokes_from", strokesFrom),
         .init("split_source", splitSource)]
    }

    /// The settings a session was recorded with (defaults for those it does not name, and for a
    /// recorded value this version cannot use), so replaying it gives the same figures.
    public init(recordedIn metadata: SessionMetadata) {
        var settings = AnalysisSettings()
        for s in metadata.settings {
            switch s.key {
            case "axis": settings.axis = s.value
            case "split_averaging": settings.splitAveraging = s.value
            case "strokes_from": settings.strokesFrom = s.value
            case "split_source": settings.splitSource = s.value
            default: break
            }
        }
        self = (try? settings.analyzerConfiguration()) == nil ? AnalysisSettings() : settings
    }
}
