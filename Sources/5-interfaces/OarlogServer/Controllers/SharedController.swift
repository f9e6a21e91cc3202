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
        RouteCollection(context: Context.self)
            .get("/share/:token", use: page)
            .get("/api/shared/:token", use: show)
            .get("/api/shared/:token/trail", use: trail)
            .get("/api/shared/:token/course", use: course)
            .get("/api/shared/:token/pieces", use: pieces)
            .get("/api/shared/:token/curve", use: curve)
            .get("/api/shared/:token/series", use: series)
            .get("/api/shared/:token/track", use: track)
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

    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        try await answer(context) { sessions, id in try sessions.reportJSON(id: id) }
    }

    @Sendable func trail(_ request: Request, context: Context) async throws -> Response {
        let points = try TrailRequest(points: request.uri.queryParameters["points"].map(String.init)).points
        return try await answer(context) { sessions, id in try sessions.trailJSON(id: id, points: points) }
    }

    @Sendable func course(_ request: Request, context: Context) async throws -> Response {
        try await answer(context) { sessions, id in try sessions.courseJSON(id: id) }
    }

    @Sendable func pieces(_ request: Request, context: Context) async throws -> Response {
        try await answer(context) { sessions, id in try sessions.piecesJSON(id: id) }
    }

    @Sendable func curve(_ request: Request, context: Context) async throws -> Response {
        let query = request.uri.queryParameters
        let curve = try CurveRequest(piece: query["piece"].map(String.init), stroke: query["stroke"].map(String.init),
                                     points: query["points"].map(String.init))
        return try await answer(context) { sessions, id in try sessions.curveJSON(id: id, curve) }
    }

    @Sendable func series(_ request: Request, context: Context) async throws -> Response {
        let query = request.uri.queryParameters
        let series = try SeriesRequest(fields: query["fields"].map(String.init), points: query["points"].map(String.init))
        return try await answer(context) { sessions, id in try sessions.seriesJSON(id: id, series) }
    }

    /// The track as GeoJSON, for the map (a session being recorded has none yet: 409).
    @Sendable func track(_ request: Request, context: Context) async throws -> Response {
        let id = try await sharedID(context)
        try api.sessions.checkNotRecording(id, "the session is being recorded")
        let bytes = try await api.exporting(id: id, format: .geojson)
        return ExportDownload.response(bytes, id: id, format: .geojson, attachment: false)
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

    func answer(_ context: Context, _ read: @escaping @Sendable (SessionStore, String) throws -> String) async throws -> Response {
        let id = try await sharedID(context)
        let sessions = api.sessions
        return json(try await api.reading { try read(sessions, id) })
    }
}
