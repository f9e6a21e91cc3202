import Hummingbird
import OarlogAPI
import OarlogApp
import OarlogCore

/// The cox's workout on the live station (docs/API.md, "The workout in the boat"): `GET
/// /api/live/workout` (open) is the plan chosen for the next recording, whether it starts at the
/// go, the coach's offer and, while recording, where the crew is in it; `PUT /api/live/workout`
/// chooses the plan (written out, or saved in the `WorkoutLibrary` by name) or clears it, and
/// `POST /api/live/workout/offer/{id}` answers the coach's offer (both need the token, as Start
/// and Stop). A plan that does not read is 400 with the column at
/// fault; a name no plan is saved under, 404; a change while a recording rows its plan, 409; an
/// offer not waiting, 404.
struct LiveWorkoutController: Sendable {
    let api: APIServices
    typealias Context = APIServices.Context

    /// Its routes, for `WebServer` to add.
    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("/api/live/workout", use: show)
            .put("/api/live/workout", use: choose)
            .post("/api/live/workout/offer/:id", use: answer)
    }

    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        json(api.station.workoutJSON())
    }

    @Sendable func choose(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        let choice = try await api.decode(request, WorkoutChoiceRequest.init(body:))
        let plan: WorkoutPlan?
        switch choice.choice {
        case .spec(let spec):
            do { plan = try WorkoutSpec.parse(spec) } catch {
                return try json(Answers.SpecProblem(error), status: .badRequest)
            }
        case .name(let name):
            // By its name only: `resolve` would also open a .json path, which a phone must not name.
            let library = WorkoutLibrary(sessions: api.sessions)
            plan = try await api.reading { try library.workout(named: name).plan }
        case .none:
            plan = nil
        }
        try api.station.chooseWorkout(plan, startsAtGo: choice.startsAtGo)
        return json(api.station.workoutJSON())
    }

    @Sendable func answer(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        guard let id = context.parameters.get("id"), (1...128).contains(id.utf8.count) else {
            throw HTTPError(.notFound, message: "no such offer")
        }
        let answer = try await api.decode(request, WorkoutAnswerRequest.init(body:))
        try api.station.answerWorkoutOffer(id: id, accept: answer.accept)
        return json(api.station.workoutJSON())
    }
}

extension Answers {
    /// A plan that does not read: `{"error": {"message": "… at column 11", "column": 11, "spec":
    /// "3x4:00/2:00"}}` — the error answer every route gives, with the column (1-based, in the
    /// spec as given, spaces counted) and the spec, for the page to point at the character.
    struct SpecProblem: Encodable {
        struct Detail: Encodable {
            let message: String
            let column: Int
            let spec: String
        }
        let error: Detail

        init(_ problem: WorkoutSpec.ParseError) {
            error = Detail(message: problem.description, column: problem.column, spec: problem.spec)
        }
    }
}
