#if canImport(Glibc)
import Glibc
#endif
import OarlogAPI
import OarlogCore
import OarlogSession

/// The changes a person makes to a kept session — a note, a note's edit, a new title, a delete,
/// a recovery — each under the session's `SessionFileLock` (the web app and the command line
/// take the same lock), reading the session as it stands once the lock is held: a change to a
/// session deleted before its turn is `notFound`, never a resurrection.
extension SessionStore {
    /// A note at the request's time (default: the session's end as it stands when the note's
    /// turn comes). For the session being recorded, the note goes into the recording, at the
    /// session time now. The note as stored.
    public func addNote(id: String, _ request: NoteRequest) throws(SessionStoreError) -> Note {
        if let station, station.recordingID == id {
            do { return try station.addNote(request.text) } catch { throw .beingRecorded("\(error)") }
        }
        let path = try file(id: id)
        let done = try Self.changing { try Self.appendNote(request.text, to: path) { try request.time(inSessionEndingAt: $0) } }
        guard let note = done.note else { throw .unreadable("the note was not added") }
        return note
    }

    /// A note appended to the file at `path` under its lock, at the time `time` picks from the
    /// session's end as it stands once the lock is held (a note from the web app and one from the
    /// command line at the same moment go one after the other, never lost); the note as stored,
    /// and that end.
    static func appendNote(_ text: String, to path: String, at time: (Seconds) throws -> Seconds) throws -> (note: Note?, end: Seconds) {
        var end: Seconds = 0
        let added = try SessionAppend.append(to: path) { reader in
            end = reader.summary?.statistics.lastTime ?? 0
            return SessionAddition(notes: [Note(time: try time(end), text: text)])
        }.added
        return (added.notes.first, end)
    }

    /// Note `index` (as the session stands when the edit's turn comes) gets the request's text,
    /// and its time when one is given; the note as edited.
    public func editNote(id: String, index: Int, _ request: NoteRequest) throws(SessionStoreError) -> Note {
        let path = try file(id: id)
        try checkNotRecording(id)
        var after: Note?
        _ = try Self.changing {
            try SessionAppend.append(to: path) { reader in
                let notes = try reader.notes(onDamage: .skipDamagedChunks)
                guard index < notes.count else { throw SessionStoreError.notFound("no such note: the session has \(notes.count)") }
                let before = notes[index]
                var at = before.time
                if request.sessionTime != nil {
                    at = try request.time(inSessionEndingAt: reader.summary?.statistics.lastTime ?? 0)
                }
                let edit = SessionNoteEdit(before: before, after: Note(time: at, text: request.text))
                after = edit.after
                return SessionAddition(events: [edit.event])
            }
        }
        guard let after else { throw .unreadable("the note was not edited") }
        return after
    }

    /// The session renamed; the renamed session as `GET /api/sessions/ID` gives it (without strokes).
    public func retitle(id: String, to title: String) throws(SessionStoreError) -> String {
        let path = try file(id: id)
        try checkNotRecording(id)
        return try Self.changing {
            let reader = try SessionRetitle.retitle(path, to: title)
            return try StoredSessionReport(reader, includeStrokes: false).json(fileNamesOnly: true)
        }
    }

    /// The session's file removed, once every change before it is done.
    public func delete(id: String) throws(SessionStoreError) {
        let path = try file(id: id)
        try checkNotRecording(id, "the session is being recorded: stop it first")
        try Self.changing { try SessionFileLock.remove(path) }
    }

    /// `work`'s errors as the store says them: a session deleted before the change's turn is
    /// `notFound`; a request that does not fit the session (a time past its end) `badRequest`;
    /// anything else (a file not closed, a full disk) `unreadable` with the reason.
    static func changing<T>(_ work: () throws -> T) throws(SessionStoreError) -> T {
        do { return try work() } catch {
            switch error {
            case let e as SessionStoreError: throw e
            case is SessionLockError: throw .notFound("no such session: it was deleted")
            case let e as APIRequestError: throw .badRequest(e.description)
            default: throw .unreadable("\(error)")
            }
        }
    }
}

/// The command line's changes: the session a person names (a path, an id or its start, `last`).
extension SessionStore {
    /// A note at `time` (default: the end); also returns the session's end, so the command line
    /// can say when a time was past it.
    public func addNote(to reference: String, text: String, at time: Seconds?) throws -> (note: Note?, end: Seconds, path: String) {
        let path = try path(of: reference)
        do {
            let done = try Self.appendNote(text, to: path) { time ?? $0 }
            return (done.note, done.end, path)
        } catch {
            throw AppError("\(error)")
        }
    }

    /// What a person is about to delete: the file, and its title and date when it can be read.
    /// A damaged session may still be deleted; a file that is not a session is refused.
    public func deletion(of reference: String) throws -> (path: String, description: String) {
        let path = try path(of: reference)
        do {
            let reader = try SessionReader(path: path)
            let title = reader.metadata.title
            // An older file's title may hold control characters: shown escaped, not obeyed.
            return (path, "\(title.isEmpty ? "untitled" : StoredText.escapedForTerminal(title)), \(SessionText.date(reader.metadata.startUTC)) UTC")
        } catch let error as SessionError {
            switch error {
            case .damaged, .unsupportedVersion: return (path, SessionText.id(of: path))
            default: throw AppError("not deleting \(path): \(error)")
            }
        }
    }

    /// Removes a session file (after any change under way, from the web app too, is done).
    public func delete(path: String) throws {
        do { try SessionFileLock.remove(path) } catch {
            throw AppError("deleting \(path) failed: \(error)")
        }
    }

    /// `oarlog recover`: what can be read of a damaged session, written to `output` (the same
    /// path: in place; nil: checked only).
    public func recover(_ reference: String, to output: String?, inPlace: Bool) throws -> RecoveryReport {
        let path = try path(of: reference)
        return try SessionRecovery.recover(path, to: inPlace ? path : output)
    }
}

/// What `oarlog recover` found and did (OarlogSession's report, named here for the command line).
public typealias RecoveryReport = OarlogSession.RecoveryReport
