import Foundation
import Hummingbird
import OarlogAPI
import OarlogApp

/// What a share link opens (docs/API.md, "Share links"): the read-only page at `/share/TOKEN`
/// (Web/share.html) and that one session's reads at `/api/shared/TOKEN/…` — the same answers the
/// session page's `/api/sessions/{id}/…` give, from the same `SessionStore` reads. An unknown or
/// revoked token, or one whose session was deleted, is 403 (`ShareGate` keeps the token from
/// reaching anything else).
struct SharedController: Sendable {
    let api: APIServices
    /// Web/ of the project, where share.html is.
    let webRoot: String
    typealias Context = APIServices.Context

    static var invalid: HTTPError { HTTPError(.forbidden, message: "this share link is not valid: it was revoked, or never made") }

    var endpoints: RouteCollection<Context> {
        SessionReadRoutes(api: api, resolve: sharedID).add(to: RouteCollection(context: Context.self), under: "/api/shared/:token")
            .get("/share/:token", use: page)
    }

    /// The page; for a token that opens nothing, the same page answered 403 (it then says so).
    @Sendable func page(_ request: Request, context: Context) async throws -> Response {
        let status: HTTPResponse.Status = (try? await sharedID(context)) == nil ? .forbidden : .ok
        guard let html = FileManager.default.contents(atPath: webRoot + "/share.html") else {
            throw HTTPError(.notFound, message: "no such page")
        }
        return Response(status: status, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: html)))
    }

    /// The session the path's token opens, else 403.
    func sharedID(_ context: Context) async throws -> String {
        guard let token = context.parameters.get("token"), ShareBook.isPlausibleToken(token) else { throw Self.invalid }
        let sessions = api.sessions
        do {
            return try await api.reading { try sessions.sharedSession(token: token) }
        } catch SessionStoreError.notFound {
            throw Self.invalid
        }
    }
}
