#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Hummingbird
import OarlogAPI
import OarlogApp
import OarlogCore
import OarlogSession

/// The API's changes to stored sessions — a note, a note's edit, a rename, a delete — made one
/// at a time on a thread of their own, off the event loop (each ends with an fsync). Each also
/// holds the session's `SessionFileLock` (the command line's `oarlog note` and `delete` take it
/// too), reads the session as it stands once it has it, and so answers only what is true: a 201
/// note is in the file, a 204 delete stays deleted, and a change to a session deleted before its
/// turn is a 404, never a resurrection.
extension SessionAPI {
    /// Runs `work` on the writes' pool (`WorkPool.writes`: one at a time, at most 512 in all,
    /// beyond that 503 — a phone's burst is far below; a flood is refused instead of queued
    /// without end); its error as the answer it deserves (`writeError`).
    func writing<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        do {
            return try await WorkPool.writes.run(work)
        } catch {
            throw Self.writeError(error)
        }
    }

    /// 404 for a session deleted before the change's turn; the request's own errors as they are;
    /// anything else (a file not closed, a full disk) 422 with the reason.
    static func writeError(_ error: any Error) -> any Error {
        switch error {
        case let busy as WorkPool.Busy: return busy.httpError
        case let e as HTTPError: return e
        case is SessionLockError: return HTTPError(.notFound, message: "no such session: it was deleted")
        case let e as APIRequestError: return HTTPError(.badRequest, message: e.description)
        default: return HTTPError(.unprocessableContent, message: "\(error)")
        }
    }

    /// `POST /api/sessions/{id}/notes` for a stored session: the note at `t_s` (default: the
    /// end as it stands when the note's turn comes); the note as stored.
    func addStoredNote(_ request: NoteRequest, path: String) async throws -> Note {
        try await writing {
            let done = try SessionAppend.append(to: path) { reader in
                let at = try request.time(inSessionEndingAt: reader.summary?.statistics.lastTime ?? 0)
                return SessionAddition(notes: [Note(time: at, text: request.text)])
            }
            guard let note = done.added.notes.first else { throw HTTPError(.unprocessableContent, message: "the note was not added") }
            return note
        }
    }

    /// `PATCH /api/sessions/{id}/notes/{index}`: note `index` (as the session stands when the
    /// edit's turn comes) gets the text, and the time when `t_s` is given; the note as edited.
    func editStoredNote(_ request: NoteRequest, index: Int, path: String) async throws -> Note {
        try await writing {
            var after: Note?
            _ = try SessionAppend.append(to: path) { reader in
                let notes = try reader.notes(onDamage: .skipDamagedChunks)
                guard index < notes.count else { throw HTTPError(.notFound, message: "no such note: the session has \(notes.count)") }
                let before = notes[index]
                var at = before.time
                if request.sessionTime != nil {
                    at = try request.time(inSessionEndingAt: reader.summary?.statistics.lastTime ?? 0)
                }
                let edit = SessionNoteEdit(before: before, after: Note(time: at, text: request.text))
                after = edit.after
                return SessionAddition(events: [edit.event])
            }
            guard let after else { throw HTTPError(.unprocessableContent, message: "the note was not edited") }
            return after
        }
    }

    /// `PATCH /api/sessions/{id}`: the session renamed; the renamed session as `GET` gives it.
    func retitleStored(_ title: String, path: String) async throws -> String {
        try await writing {
            let reader = try SessionRetitle.retitle(path, to: title)
            return try StoredSessionReport(reader, includeStrokes: false).json(fileNamesOnly: true)
        }
    }

    /// `DELETE /api/sessions/{id}`: once every change before it is done.
    func deleteStored(path: String) async throws {
        try await writing { try SessionFileLock.remove(path) }
    }
}
