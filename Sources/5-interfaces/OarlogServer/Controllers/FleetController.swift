import Hummingbird
import OarlogApp

/// The coach's view of the fleet (`oarlog serve --coach`, docs/API.md): `GET /api/fleet` is every
/// boat now (figures, last heard, track), the crossed paths, and with a course the race's gate
/// times, gaps and results; `GET /api/fleet/boats/ID/strokes` is one boat's strokes this session,
/// as `oarlog replay --json`'s `stroke_list`. Without `--coach` both are 404. `GET /api/coach`
/// says which it is (`{"coach": true}` or false), always 200: the web app asks it at start to
/// open on the fleet page, where asking `/api/fleet` would put a 404 in every boat's browser console.
/// `POST /api/fleet/workout` `{"spec": "3x4:00/2:00r", "boat": NAME | null}` sends a plan to one
/// boat or to all (the token needed, as every change; a bad spec: 400 with its `column`).
struct FleetController: Sendable {
    let coach: FleetCoach?
    let api: APIServices
    typealias Context = APIServices.Context

    /// Its routes, for `WebServer` to add.
    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("/api/coach", use: isCoach)
            .get("/api/fleet", use: fleet)
            .get("/api/fleet/boats/:id/strokes", use: strokes)
            .post("/api/fleet/workout", use: sendWorkout)
    }

    @Sendable func sendWorkout(_ request: Request, context: Context) async throws -> Response {
        guard let coach else { throw HTTPError(.notFound, message: "not a coach's launch") }
        try api.authorize(request)
        var request = request
        let body = Array(try await request.collectBody(upTo: FleetPlanOffer.maximumBytes).readableBytesView)
        do {
            let asked = try FleetCoach.planRequest(body: body)
            // The offer as the boats get it.
            let offer = try coach.sendPlan(asked.plan, to: asked.boat)
            return json(String(decoding: offer.payload, as: UTF8.self), status: .accepted)
        } catch let error as FleetPlanRequestError {
            return json(error.json, status: .badRequest)
        }
    }

    @Sendable func isCoach(_ request: Request, context: Context) async throws -> Response {
        try json(Answers.Coach(coach: coach != nil))
    }

    @Sendable func fleet(_ request: Request, context: Context) async throws -> Response {
        guard let coach else { throw HTTPError(.notFound, message: "not a coach's launch: start with oarlog serve --coach --subscribe URL") }
        return json(coach.json())
    }

    @Sendable func strokes(_ request: Request, context: Context) async throws -> Response {
        guard let coach else { throw HTTPError(.notFound, message: "not a coach's launch") }
        let id = context.parameters.get("id") ?? ""
        guard id.utf8.count <= 64, id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw HTTPError(.badRequest, message: "a boat id is letters, digits, - and _")
        }
        guard let body = coach.strokesJSON(boat: id) else { throw HTTPError(.notFound, message: "no boat '\(id)' heard") }
        return json(body)
    }
}
