import Hummingbird
import OarlogAPI
import OarlogApp

/// `/api/sessions/{id}/notes` (the token needed): a note added — into the recording when the
/// session is being recorded, else into the kept file at `t_s` (default: its end) — and a kept
/// note changed after the session (its text, and its time when `t_s` is given).
struct NotesController: Sendable {
    let api: APIServices
    typealias Context = APIServices.Context

    /// Its routes, for `WebServer` to add.
    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .post("/api/sessions/:id/notes", use: add)
            .patch("/api/sessions/:id/notes/:index", use: edit)
    }

    @Sendable func add(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        let id = try api.sessionID(context)
        let note = try await api.decode(request, NoteRequest.init(body:))
        let sessions = api.sessions
        if sessions.isRecording(id) {
            return json(LiveMessage.note(try sessions.addNote(id: id, note)), status: .created)
        }
        try sessions.checkExists(id: id)
        // One change at a time, the session read as it stands (SessionStore+Changes).
        return json(LiveMessage.note(try await api.writing { try sessions.addNote(id: id, note) }), status: .created)
    }

    @Sendable func edit(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        let id = try api.existingSessionID(context)
        try api.sessions.checkNotRecording(id)
        guard let index = context.parameters.get("index").flatMap({ Int($0) }), index >= 0 else {
            throw HTTPError(.notFound, message: "no such note")
        }
        let note = try await api.decode(request, NoteRequest.init(body:))
        let sessions = api.sessions
        return json(LiveMessage.note(try await api.writing { try sessions.editNote(id: id, index: index, note) }))
    }
}
