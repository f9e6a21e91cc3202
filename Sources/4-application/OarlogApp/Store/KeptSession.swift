import OarlogPipeline
import OarlogSession

/// A replay being kept as a session (`oarlog replay --save`): the session's writer, a sink of
/// the replay's pipeline, and where the session goes.
public struct KeptSession {
    let writer: SessionWriter
    let store: SessionStore
    /// The session's id, as `oarlog sessions` lists it.
    public var id: String { SessionText.id(of: writer.path) }
    /// The session's file.
    public var path: String { writer.path }
}

extension SessionStore {
    /// A new session in the store for `replay`'s trace: titled (default: the trace's file name),
    /// placed in UTC, with the analysis settings, the fences and the trace recorded.
    public func keeping(_ replay: TraceReplay, title: String?, boat: String?) throws -> KeptSession {
        KeptSession(writer: try SessionSaving.replayWriter(for: replay.input, title: title, boat: boat, settings: replay.settings,
                                                           fences: replay.fences, directory: directory),
                    store: self)
    }
}

extension TraceReplay {
    /// Runs the trace to its end (or until `shouldStop`), kept as a session when `kept` is given;
    /// a kept session is then searched for the club's courses (`SessionStore.searchCourses`).
    public mutating func run(sinks: [any PipelineSink], keeping kept: KeptSession?, shouldStop: () -> Bool = { false }) throws -> Outcome {
        let outcome = try run(sinks: sinks, saveTo: kept?.writer, shouldStop: shouldStop)
        if let kept { _ = try? kept.store.searchCourses(inSession: kept.id) }
        return outcome
    }
}
