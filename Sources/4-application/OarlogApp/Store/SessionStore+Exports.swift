#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import OarlogExport
import OarlogSession
import OarlogTrace

/// A kept session out of the store: as an export's bytes (the web app's downloads and its map's
/// track), as an export's input (`oarlog export`), or played back (`oarlog play`, the web app).
extension SessionStore {
    /// The formats a session is exported in (OarlogExport's, named here for the interfaces).
    public typealias ExportFormat = OarlogExport.ExportFormat

    /// Exactly what `oarlog export ID --format F` writes — the same `SessionExport`, with the same
    /// defaults — made in a private temporary file, read back and removed. A session being
    /// recorded has no end yet: `beingRecorded`.
    public func exportBytes(id: String, format: ExportFormat) throws(SessionStoreError) -> [UInt8] {
        let path = try file(id: id)
        try checkNotRecording(id, "the session is being recorded: stop it first")
        return try Self.unreadable {
            let temporary = FileManager.default.temporaryDirectory
                .appendingPathComponent("oarlog-export-\(UUID().uuidString).\(format.defaultExtension)").path
            defer { try? FileManager.default.removeItem(atPath: temporary) }
            let export = SessionExport(input: .session(try SessionReader(path: path)), format: format)
            _ = try export.run(to: temporary)
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: temporary)))
        }
    }

    /// What `oarlog export ARGUMENT` exports: the session an argument names, if it names one (an
    /// existing file that is a session, or else `last`, an id or id prefix), else the trace file.
    public func exportInput(_ argument: String, traceFormat: TraceFormat?) -> SessionExport.Input {
        if traceFormat == nil, let reader = sessionIfAny(argument) { return .session(reader) }
        return .trace(path: argument, format: traceFormat)
    }

    /// The session an argument names, if it names one. Nil means "not a session" (a trace, say).
    func sessionIfAny(_ argument: String) -> SessionReader? {
        if access(argument, F_OK) == 0 { return try? SessionReader(path: argument) }
        guard let path = try? directory.resolve(argument) else { return nil }
        return try? SessionReader(path: path)
    }

    /// The session a person names, replayed with its recorded settings (those given win).
    public func replay(_ reference: String, overrides: AnalysisSettings = .defaults) throws -> SessionReplay {
        SessionReplay(try open(reference), overrides: overrides)
    }

    /// A phone's playback of the session with this id, on `queue` (the session's strokes are read
    /// here: call it on that queue). Not the session being recorded: it has no end yet.
    public func playback(id: String, queue: DispatchQueue, phoneIsReady: @escaping @Sendable () -> Bool,
                         send: @escaping @Sendable (String) -> Void) throws -> SessionPlayback {
        let path = try file(id: id)
        try checkNotRecording(id)
        return try SessionPlayback(reader: try SessionReader(path: path), queue: queue, phoneIsReady: phoneIsReady, send: send)
    }
}
