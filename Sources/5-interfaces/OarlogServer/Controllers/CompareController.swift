import Hummingbird
import OarlogAPI
import OarlogApp

/// `GET /api/compare?a=ID[:K]&b=ID[:K]&interval=K&points=N` (docs/API.md): `oarlog compare A B
/// [--interval K] --json` for the compare page, each side with its trail for the map (thinned to
/// N points, as `/trail`).
/// Ids are exact (never a prefix, `last` or a path); an id that cannot be a session's, or is not
/// one, or a piece it does not have is 404; a malformed query 400; a session that cannot be
/// compared (no GPS, damaged) 422 with the reason.
struct CompareController: Sendable {
    let api: APIServices
    typealias Context = APIServices.Context

    /// Its routes, for `WebServer` to add.
    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("/api/compare", use: compare)
    }

    @Sendable func compare(_ request: Request, context: Context) async throws -> Response {
        let query = request.uri.queryParameters
        let compare = try CompareRequest(a: query["a"].map(String.init), b: query["b"].map(String.init), points: query["points"].map(String.init),
                                         interval: query["interval"].map(String.init))
        let sessions = api.sessions
        return json(try await api.reading {
            try sessions.compare(compare.a, compare.b, exactIDs: true).json(trailPoints: compare.points)
        })
    }
}
