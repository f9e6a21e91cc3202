import OarlogCore
import OarlogFences
import OarlogSession
import OarlogTrace

/// Keeping a replay as a session, and what every new session records about the software.
public enum SessionSaving {
    /// The oarlog version written into new sessions.
    public static let softwareVersion = "oarlog 0.6"

    /// A replayed trace's title when none is given: its file name.
    public static func defaultTitle(for input: TraceInput) -> String {
        input.path.split(separator: "/").last.map(String.init) ?? input.path
    }

    /// A session writer for a replayed trace: titled (default: the trace's file name), placed in
    /// UTC, with the analysis settings and the trace recorded; written in `directory`.
    public static func replayWriter(for input: TraceInput, title: String?, boat: String? = nil, settings: AnalysisSettings,
                                    fences: FenceFile? = nil, directory: SessionDirectory = .default) throws -> SessionWriter {
        var metadata = SessionMetadata(
            title: title ?? defaultTitle(for: input), startUTC: input.startUTCOrFileTime,
            devices: ["replay of \(input.path)" + (input.format.map { " (\($0.rawValue))" } ?? "")],
            softwareVersion: softwareVersion, settings: settings.sessionSettings + [.init("replayed_from", input.path)])
        metadata.fencesGeoJSON = fences?.sourceText
        metadata.boat = boat?.trimmingWhitespace() ?? ""
        return try SessionWriter.create(in: directory, metadata: metadata, options: SessionWriter.Options(durability: .syncAtClose))
    }
}
