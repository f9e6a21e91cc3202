import Hummingbird
import OarlogAPI
import OarlogApp

/// What the session page reads of one kept session — the report, the trail and course for the
/// map, the pieces, the stroke curves, the per-stroke series and the track — as the owner's
/// `/api/sessions/{id}/…` and a share link's `/api/shared/{token}/…` both answer them: the same
/// `SessionStore` reads, on the reads' pool, for the session `resolve` finds in the path (its
/// own errors: 404 for the owner's unknown id, 403 for a link that opens nothing).
struct SessionReadRoutes: Sendable {
    typealias Context = APIServices.Context
    let api: APIServices
    /// The session the request's path names.
    let resolve: @Sendable (Context) async throws -> String

    /// The routes under `prefix` (`/api/sessions/:id`, `/api/shared/:token`).
    func add(to routes: RouteCollection<Context>, under prefix: String) -> RouteCollection<Context> {
        routes
            .get(RouterPath(prefix), use: show)
            .get(RouterPath(prefix + "/trail"), use: trail)
            .get(RouterPath(prefix + "/course"), use: course)
            .get(RouterPath(prefix + "/pieces"), use: pieces)
            .get(RouterPath(prefix + "/curve"), use: curve)
            .get(RouterPath(prefix + "/series"), use: series)
            .get(RouterPath(prefix + "/track"), use: track)
    }

    /// `oarlog show ID --json --strokes`.
    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        try await answer(context) { sessions, id in try sessions.reportJSON(id: id) }
    }

    /// The map's trail (the export's points, with time and distance).
    @Sendable func trail(_ request: Request, context: Context) async throws -> Response {
        let points = try TrailRequest(points: request.uri.queryParameters["points"].map(String.init)).points
        return try await answer(context) { sessions, id in try sessions.trailJSON(id: id, points: points) }
    }

    /// The fences and gate crossings recorded with the session.
    @Sendable func course(_ request: Request, context: Context) async throws -> Response {
        try await answer(context) { sessions, id in try sessions.courseJSON(id: id) }
    }

    /// The pieces: the rests between them, or the course's legs.
    @Sendable func pieces(_ request: Request, context: Context) async throws -> Response {
        try await answer(context) { sessions, id in try sessions.piecesJSON(id: id) }
    }

    /// A piece's averaged stroke curve, or one stroke's.
    @Sendable func curve(_ request: Request, context: Context) async throws -> Response {
        let query = request.uri.queryParameters
        let curve = try CurveRequest(piece: query["piece"].map(String.init), stroke: query["stroke"].map(String.init),
                                     points: query["points"].map(String.init))
        return try await answer(context) { sessions, id in try sessions.curveJSON(id: id, curve) }
    }

    /// Per-stroke series for the plots, downsampled here (min, max and mean per bucket).
    @Sendable func series(_ request: Request, context: Context) async throws -> Response {
        let query = request.uri.queryParameters
        let series = try SeriesRequest(fields: query["fields"].map(String.init), points: query["points"].map(String.init))
        return try await answer(context) { sessions, id in try sessions.seriesJSON(id: id, series) }
    }

    /// The track as GeoJSON (`oarlog export ID --format geojson`), shown on the map.
    @Sendable func track(_ request: Request, context: Context) async throws -> Response {
        try await download(context, format: .geojson, attachment: false)
    }

    /// A closed session's export (a session being recorded has no end yet: 409).
    func download(_ context: Context, format: SessionStore.ExportFormat, attachment: Bool) async throws -> Response {
        let id = try await resolve(context)
        try api.sessions.checkNotRecording(id, "the session is being recorded: stop it first")
        let bytes = try await api.exporting(id: id, format: format)
        return ExportDownload.response(bytes, id: id, format: format, attachment: attachment)
    }

    /// What the store reads of the session, as JSON, read on the reads' pool.
    func answer(_ context: Context, _ read: @escaping @Sendable (SessionStore, String) throws -> String) async throws -> Response {
        let id = try await resolve(context)
        let sessions = api.sessions
        return json(try await api.reading { try read(sessions, id) })
    }
}
