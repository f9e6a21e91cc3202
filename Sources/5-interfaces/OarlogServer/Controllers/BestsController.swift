import Hummingbird
import OarlogApp
import OarlogCore

/// The personal bests page's data (docs/API.md): `GET /api/bests` is byte for byte what `oarlog
/// bests --json` prints, with the number of sessions that could not be read in the header
/// `X-Oarlog-Unreadable`; `GET /api/bests?unreadable=1` wraps the same array with those sessions
/// named, so the page gets both from one pass over the sessions.
struct BestsController: Sendable {
    let api: APIServices
    typealias Context = APIServices.Context

    static let unreadableHeader = HTTPFields.Element.Name("X-Oarlog-Unreadable")!  // HTTPTypes.HTTPField, through Hummingbird

    /// Its routes, for `WebServer` to add.
    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("/api/bests", use: bests)
    }

    @Sendable func bests(_ request: Request, context: Context) async throws -> Response {
        let sessions = api.sessions
        let wrapped = request.uri.queryParameters["unreadable"] == "1"
        let (body, unreadable) = try await api.reading { () -> (String, Int) in
            let bests = try sessions.bests()
            guard wrapped else { return (bests.json() + "\n", bests.unreadable.count) }  // as the command line prints it
            let named = bests.unreadable.map { "{\"id\":\(JSONString.quoted($0.id)),\"reason\":\(JSONString.quoted($0.reason))}" }
            return ("{\"bests\":\(bests.json()),\"unreadable\":[\(named.joined(separator: ","))]}\n", bests.unreadable.count)
        }
        var response = json(body)
        response.headers[Self.unreadableHeader] = String(unreadable)
        return response
    }
}
