import Hummingbird
import OarlogAPI
import OarlogApp

/// The ghost the boat races (docs/API.md, "Racing a ghost"; docs/GHOST.md): `GET
/// /api/live/ghost` (open) is the attempt chosen for the next recordings and, while recording,
/// the race — the gap at the latest catch and each gate crossed; `GET /api/live/ghost/choices`
/// (open) the saved courses with their fastest attempts; `PUT /api/live/ghost` chooses one (a
/// saved course's name and `best` or a session's `ID:K`) or none, with the token as Start and
/// Stop. No such course, session or attempt: 404; a change while recording: 409.
struct LiveGhostController: Sendable {
    let api: APIServices
    typealias Context = APIServices.Context

    /// Its routes, for `WebServer` to add.
    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("/api/live/ghost", use: show)
            .get("/api/live/ghost/choices", use: choices)
            .put("/api/live/ghost", use: choose)
    }

    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        json(api.station.ghostJSON())
    }

    @Sendable func choices(_ request: Request, context: Context) async throws -> Response {
        let sessions = api.sessions
        return json(try await api.reading { try sessions.ghostChoicesJSON() })
    }

    @Sendable func choose(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        let request = try await api.decode(request, GhostChoiceRequest.init(body:))
        let sessions = api.sessions
        switch request.choice {
        case .none:
            try api.station.chooseGhost(nil)
        case .best(let course, let boat):
            let reference = try await api.reading { try sessions.ghostReference(savedCourse: course, choice: .best, boat: boat) }
            try api.station.chooseGhost(reference, course: course, choice: "best")
        case .session(let course, let id, let k):
            let choice = GhostChoice.session(id, attempt: k)
            let reference = try await api.reading { try sessions.ghostReference(savedCourse: course, choice: choice, boat: nil) }
            try api.station.chooseGhost(reference, course: course, choice: choice.description)
        }
        return json(api.station.ghostJSON())
    }
}
