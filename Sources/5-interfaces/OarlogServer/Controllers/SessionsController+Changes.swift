import Hummingbird
import OarlogAPI
import OarlogApp

/// A kept session renamed or deleted (the token needed; never the session being recorded: 409).
/// Each change runs on the writes' pool, one at a time, under the session's lock, and answers
/// only what is true: a 204 delete stays deleted, and a change to a session deleted before its
/// turn is a 404.
extension SessionsController {
    /// `PATCH /api/sessions/{id}` `{"title": "…"}`: the renamed session as `GET` gives it.
    @Sendable func retitle(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        let id = try api.existingSessionID(context)
        let title = try await api.decode(request, RetitleRequest.init(body:)).title
        try api.sessions.checkNotRecording(id)
        let sessions = api.sessions
        return json(try await api.writing { try sessions.retitle(id: id, to: title) })
    }

    /// `DELETE /api/sessions/{id}`: once every change before it is done.
    @Sendable func delete(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        let id = try api.existingSessionID(context)
        try api.sessions.checkNotRecording(id, "the session is being recorded: stop it first")
        let sessions = api.sessions
        try await api.writing { try sessions.delete(id: id) }
        return Response(status: .noContent)
    }
}
