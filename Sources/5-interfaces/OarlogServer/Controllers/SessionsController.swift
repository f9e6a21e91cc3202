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
        reads.add(to: RouteCollection(context: Context.self), under: "/api/sessions/:id")
            .get("/api/sessions", use: list)
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

    /// Every export as a download, named as `oarlog export` names it (ID.EXT).
    @Sendable func export(_ request: Request, context: Context) async throws -> Response {
        guard let name = context.parameters.get("format"), let format = SessionStore.ExportFormat(rawValue: name) else {
            throw HTTPError(.notFound, message: "no such format: gpx, tcx, fit, csv, geojson or html")
        }
        return try await reads.download(context, format: format, attachment: true)
    }

    /// The session page's reads, for the session in the path (404 when it is not kept).
    var reads: SessionReadRoutes {
        let api = api
        return SessionReadRoutes(api: api) { context in try api.existingSessionID(context) }
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
