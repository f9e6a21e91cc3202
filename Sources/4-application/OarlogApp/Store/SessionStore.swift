import OarlogAPI
import OarlogArchive
import OarlogCore
import OarlogExport
import OarlogSession

/// The one door to the stored sessions: the command line and the web server list, read, change,
/// export and play sessions through it, and neither opens a session file, the archive's index or
/// an exporter itself. Each operation finds the session (by exact id for the API, by a person's
/// reference for the command line), refuses what would touch the session being recorded, reads
/// or changes it under its `SessionFileLock`, and says what went wrong as a `SessionStoreError`.
///
/// Operations are synchronous and may take a while (a long session, an fsync): the server runs
/// them on its work pools, off the event loop.
public struct SessionStore: Sendable {
    let directory: SessionDirectory
    /// The live station whose recording no change may touch, and which takes that session's notes.
    let station: LiveStation?

    /// The sessions in `sessionsPath` (a data directory's `sessions/`).
    public init(sessionsPath: String) {
        self.init(directory: SessionDirectory(path: sessionsPath))
    }

    init(directory: SessionDirectory, station: LiveStation? = nil) {
        self.directory = directory
        self.station = station
    }

    /// `$OARLOG_DATA_DIR/sessions`, else `$XDG_DATA_HOME/oarlog/sessions`, else
    /// `~/.local/share/oarlog/sessions` (every command's default).
    public static var `default`: SessionStore { SessionStore(directory: .default) }

    /// Where the sessions are kept.
    public var path: String { directory.path }

    /// The same sessions, with `station`'s recording kept out of every change and download.
    public func watching(_ station: LiveStation) -> SessionStore {
        SessionStore(directory: directory, station: station)
    }

    /// True while `id` is the session being recorded.
    public func isRecording(_ id: String) -> Bool { station.map { $0.recordingID == id } ?? false }

    /// Refuses a change (or a download) of the session being recorded.
    public func checkNotRecording(_ id: String, _ why: String = "the session is being recorded") throws(SessionStoreError) {
        if isRecording(id) { throw .beingRecorded(why) }
    }

    // MARK: Finding a session

    /// The file of the session with exactly this id (never a path, a prefix or `last`).
    func file(id: String) throws(SessionStoreError) -> String {
        guard APIRequest.isPlausibleSessionID(id), let path = directory.sessionFile(id: id) else { throw .notFound("no such session") }
        return path
    }

    /// Throws `notFound` unless a session with exactly this id is kept.
    public func checkExists(id: String) throws(SessionStoreError) { _ = try file(id: id) }

    /// The file a person names: a path, an id (or enough of its start to be unique), or `last`.
    public func path(of reference: String) throws -> String {
        do { return try directory.resolve(reference) } catch { throw AppError("\(error)") }
    }

    /// The session `reference` names, opened for reading; errors name the file.
    func open(_ reference: String) throws -> SessionReader {
        let path = try path(of: reference)
        do { return try SessionReader(path: path) } catch { throw AppError("\(error)") }
    }

    /// The session with exactly this id, opened: `notFound`, or `unreadable` with the reason.
    func reader(id: String) throws(SessionStoreError) -> SessionReader {
        let path = try file(id: id)
        return try Self.unreadable { try SessionReader(path: path) }
    }

    /// `work`'s errors as `unreadable` (a damaged file, one not closed: the API's 422), keeping
    /// the store's own.
    static func unreadable<T>(_ work: () throws -> T) throws(SessionStoreError) -> T {
        do { return try work() } catch let error as SessionStoreError { throw error } catch { throw .unreadable("\(error)") }
    }
}

/// What went wrong in a `SessionStore` operation, in words for the person; the server maps each
/// kind to one HTTP status (404, 409, 400, 422) and the command line prints it.
public enum SessionStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No such session (or note, piece, stroke) as named.
    case notFound(String)
    /// The session is being recorded: it has no end yet and may not be changed.
    case beingRecorded(String)
    /// The request itself is wrong (a time outside the session, an empty note).
    case badRequest(String)
    /// The session cannot be read or changed as asked (damaged, not closed, a full disk).
    case unreadable(String)

    public var description: String {
        switch self {
        case .notFound(let why), .beingRecorded(let why), .badRequest(let why), .unreadable(let why): return why
        }
    }
}
