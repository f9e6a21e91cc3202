import Hummingbird
import OarlogApp
import OarlogCore

/// The personal bests page's data (docs/API.md): `GET /api/bests` is byte for byte what `oarlog
/// bests --json` prints, with the number of sessions that could not be read in the header
/// `X-Oarlog-Unreadable`; `GET /api/bests?unreadable=1` wraps the same array with those sessions
/// named, so the page gets both from one pass over the sessions.
struct BestsAPI: Sendable {
    /// The data directory, and the reading off the event loop (a season of sessions takes a while).
    let sessions: SessionAPI

    static let unreadableHeader = HTTPFields.Element.Name("X-Oarlog-Unreadable")!  // HTTPTypes.HTTPField, through Hummingbird

    func add(to router: Router<SessionAPI.Context>) {
        router.get("/api/bests") { request, _ in
            let directory = sessions.directory
            let wrapped = request.uri.queryParameters["unreadable"] == "1"
            let (body, unreadable) = try await sessions.reading { () -> (String, Int) in
                let bests = try PersonalBests(directory)
                guard wrapped else { return (bests.json() + "\n", bests.unreadable.count) }  // as the command line prints it
                let named = bests.unreadable.map { "{\"id\":\(JSONString.quoted($0.id)),\"reason\":\(JSONString.quoted($0.reason))}" }
                return ("{\"bests\":\(bests.json()),\"unreadable\":[\(named.joined(separator: ","))]}\n", bests.unreadable.count)
            }
            var response = json(body)
            response.headers[Self.unreadableHeader] = String(unreadable)
            return response
        }
    }
}
