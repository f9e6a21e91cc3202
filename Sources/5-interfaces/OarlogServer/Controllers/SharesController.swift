import Hummingbird
import OarlogAPI
import OarlogApp

/// The owner's share links (docs/API.md, "Share links"), each behind the control token: make
/// one for a session, list a session's, revoke one, or every one of a session.
struct SharesController: Sendable {
    let api: APIServices
    typealias Context = APIServices.Context

    /// One link as the API gives it.
    struct Link: Codable, Equatable {
        let token: String
        let path: String
        let session: String
        let created: Double

        init(_ share: SessionShare) {
            token = share.token
            path = share.path
            session = share.session
            created = share.created
        }
    }

    /// How many links a revoke took away.
    struct Revoked: Codable {
        let revoked: Int
    }

    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .post("/api/sessions/:id/shares", use: create)
            .get("/api/sessions/:id/shares", use: list)
            .delete("/api/sessions/:id/shares", use: revokeAll)
            .delete("/api/shares/:token", use: revoke)
    }

    @Sendable func create(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        let id = try api.existingSessionID(context)
        let sessions = api.sessions
        let share = try await api.writing { try sessions.share(id: id) }
        return try json(Link(share), status: .created)
    }

    /// The session's live links, oldest first (the tokens: so the token is needed to see them).
    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        let id = try api.existingSessionID(context)
        let sessions = api.sessions
        return try json(try await api.reading { try sessions.shares(id: id) }.map(Link.init))
    }

    @Sendable func revokeAll(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        let id = try api.sessionID(context)
        let sessions = api.sessions
        return try json(Revoked(revoked: try await api.writing { try sessions.shares.revokeAll(session: id) }.count))
    }

    @Sendable func revoke(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        guard let token = context.parameters.get("token"), ShareBook.isPlausibleToken(token) else {
            throw HTTPError(.notFound, message: "no such share link")
        }
        let sessions = api.sessions
        guard try await api.writing({ try sessions.shares.revoke(token: token) }) != nil else {
            throw HTTPError(.notFound, message: "no such share link")
        }
        return Response(status: .noContent)
    }
}
