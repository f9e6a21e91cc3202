import Foundation
import Hummingbird
import OarlogApp

/// `/api/workouts`: the saved plans, for the phone to choose one before the start
/// (`WorkoutLibrary`, the same as `oarlog workouts`). `GET` lists them (open, like every read):
/// `[{"name", "spec", "plan", "summary", "pieces", "steps"}]`. With the token: `POST` saves one —
/// `{"name", "spec"}` or `{"name", "plan": {the JSON form}}`, `"replace": true` to replace one of
/// that name — answered 201 (200 when it replaced one) with the plan as listed; 400 with the
/// message and column for a bad plan, 409 for a name taken (or a full library), 413 over 32 KiB.
/// `DELETE /api/workouts/{name}` removes one (404 when there is none).
struct WorkoutsController: Sendable {
    let api: APIServices
    typealias Context = APIServices.Context

    /// Its routes, for `WebServer` to add.
    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("/api/workouts", use: list)
            .post("/api/workouts", use: add)
            .delete("/api/workouts/:name", use: remove)
    }

    var library: WorkoutLibrary { WorkoutLibrary(sessions: api.sessions) }

    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        let library = self.library
        return json(try await api.reading { SavedWorkout.json(try library.list()) })
    }

    @Sendable func add(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        let bytes = try await api.body(of: request, upTo: WorkoutLibrary.maximumRequestBytes,
                                       tooLarge: "a plan of over \(WorkoutLibrary.maximumRequestBytes / 1024) KiB: keep it shorter")
        let library = self.library
        let (saved, replaced) = try await api.writing { try library.add(requestBody: bytes) }
        return json(saved.json, status: replaced ? .ok : .created)
    }

    @Sendable func remove(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        guard let name = context.parameters.get("name")?.removingPercentEncoding, !name.isEmpty else {
            throw HTTPError(.notFound, message: "no such workout")
        }
        let library = self.library
        try await api.writing { try library.remove(name: name) }
        return try json(Answers.Removed(removed: name))
    }
}

extension APIError {
    /// A saved plan's error: not found 404, a taken name or a full library 409, a bad plan 400,
    /// a library file that cannot be read or written 500.
    static func status(of error: WorkoutLibraryError) -> HTTPResponse.Status {
        switch error {
        case .notFound: return .notFound
        case .duplicate, .full: return .conflict
        case .badPlan: return .badRequest
        case .unreadable: return .internalServerError
        }
    }
}

extension Answers {
    /// A saved plan removed: its name.
    struct Removed: Encodable {
        let removed: String
    }
}
