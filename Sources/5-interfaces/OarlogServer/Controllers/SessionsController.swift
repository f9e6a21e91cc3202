import Hummingbird
import OarlogAPI
import OarlogApp

/// `/api/sessions` (docs/API.md): the race list with its filters and order, one session as
/// `oarlog show ID --json --strokes` gives it, and what the session page draws — the trail and
/// course for the map, the pieces and the stroke curves, the per-stroke series, the track and
/// every export as a download. Reads are open; the changes (SessionsController+Changes) need
/// the token.
struct SessionsController: Sendable {
    let api: APIServices
    typealias Context = APIServices.Context

    /// The longest filter value taken (a search of a few words, a date, a place).
    static let maximumFilterCharacters = 200

    /// Its routes, for `WebServer` to add.
    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("/api/sessions", use: list)
            .get("/api/sessions/:id", use: show)
            .get("/api/sessions/:id/trail", use: trail)
            .get("/api/sessions/:id/course", use: course)
            .get("/api/sessions/:id/pieces", use: pieces)
            .get("/api/sessions/:id/curve", use: curve)
            .get("/api/sessions/:id/series", use: series)
            .get("/api/sessions/:id/track", use: track)
            .get("/api/sessions/:id/export/:format", use: export)
            .patch("/api/sessions/:id", use: retitle)
            .delete("/api/sessions/:id", use: delete)
    }

    /// `oarlog sessions --json` with its filters and order as parameters (search, from, to,
    /// near, min_distance, rate, boat, sort); a bad one is a 400 naming it.
    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        let query = try Self.sessionQuery(request.uri.queryParameters)
        let sessions = api.sessions
        return json(try await api.reading { try sessions.list(query).json(fileNamesOnly: true) })
    }

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

    /// Every export as a download, named as `oarlog export` names it (ID.EXT).
    @Sendable func export(_ request: Request, context: Context) async throws -> Response {
        guard let name = context.parameters.get("format"), let format = SessionStore.ExportFormat(rawValue: name) else {
            throw HTTPError(.notFound, message: "no such format: gpx, tcx, fit, csv, geojson or html")
        }
        return try await download(context, format: format, attachment: true)
    }

    /// What the store reads of the session in the path (404 when it is not kept), as JSON,
    /// read on the reads' pool.
    func answer(_ context: Context, _ read: @escaping @Sendable (SessionStore, String) throws -> String) async throws -> Response {
        let id = try api.existingSessionID(context)
        let sessions = api.sessions
        return json(try await api.reading { try read(sessions, id) })
    }

    /// A closed session's export (a session being recorded has no end yet: 409).
    func download(_ context: Context, format: SessionStore.ExportFormat, attachment: Bool) async throws -> Response {
        let id = try api.existingSessionID(context)
        try api.sessions.checkNotRecording(id, "the session is being recorded: stop it first")
        let bytes = try await api.exporting(id: id, format: format)
        return ExportDownload.response(bytes, id: id, format: format, attachment: attachment)
    }

    static func sessionQuery(_ parameters: Parameters) throws -> SessionQuery {
        func value(_ name: String) throws -> String? {
            guard let v = parameters[Substring(name)].map(String.init) else { return nil }
            guard v.count <= maximumFilterCharacters else {
                throw HTTPError(.badRequest, message: "\(name): longer than \(maximumFilterCharacters) characters")
            }
            return v.isEmpty ? nil : v
        }
        return try SessionQuery(search: value("search"), from: value("from"), to: value("to"), near: value("near"),
                                minimumDistance: value("min_distance"), rate: value("rate"), boat: value("boat"), sort: value("sort"))
    }
}
