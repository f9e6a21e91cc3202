import Foundation
import Hummingbird
import OarlogAPI
import OarlogApp

/// `/api/courses` and `/api/attempts`: the club's measured courses and their leaderboard for the
/// course pages (`CourseLibrary` and `SessionStore.attempts`, the same as `oarlog courses` and
/// `oarlog attempts`). Reads are open: `GET /api/courses` (the list), `GET /api/courses/{name}`
/// (one course with its GeoJSON and leaderboard, `?boat=B`), `GET /api/attempts?course=&boat=`
/// (`oarlog attempts --json`; `GET /api/courses/{name}/attempts` the same for one course),
/// `GET /api/courses/{name}/compare?a=…&b=…` (two attempts gate by gate, with their tracks).
/// With the token: `POST /api/courses` keeps a course — its GeoJSON, or made on a session's map
/// from the start and finish tapped — answered 201 with the course and the attempts found;
/// `DELETE /api/courses/{name}`. A course or attempt not kept 404, a name
/// or gates taken (or a full library) 409, a course refused 400 with why, 413 over the body's
/// limit.
struct CoursesController: Sendable {
    let api: APIServices
    typealias Context = APIServices.Context

    /// Its routes, for `WebServer` to add.
    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("/api/courses", use: list)
            .post("/api/courses", use: add)
            .get("/api/courses/:name", use: show)
            .delete("/api/courses/:name", use: remove)
            .get("/api/courses/:name/compare", use: compare)
            .get("/api/courses/:name/attempts", use: courseAttempts)
            .get("/api/attempts", use: attempts)
    }

    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        let sessions = api.sessions
        return json(try await api.reading { try sessions.coursesJSON() })
    }

    @Sendable func show(_ request: Request, context: Context) async throws -> Response {
        let name = try Self.name(context)
        let boat = Self.boat(request)
        let sessions = api.sessions
        return json(try await api.reading { try sessions.courseJSON(named: name, boat: boat) })
    }

    @Sendable func attempts(_ request: Request, context: Context) async throws -> Response {
        let query = request.uri.queryParameters
        let course = query["course"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        let boat = Self.boat(request)
        let sessions = api.sessions
        return json(try await api.reading { CourseAttempt.json(try sessions.attempts(course: course, boat: boat)) })
    }

    /// `GET /api/courses/{name}/attempts?boat=B`: the same as `/api/attempts?course=NAME&boat=B`.
    @Sendable func courseAttempts(_ request: Request, context: Context) async throws -> Response {
        let name = try Self.name(context)
        let boat = Self.boat(request)
        let sessions = api.sessions
        return json(try await api.reading { CourseAttempt.json(try sessions.attempts(course: name, boat: boat)) })
    }

    @Sendable func compare(_ request: Request, context: Context) async throws -> Response {
        let name = try Self.name(context)
        let query = request.uri.queryParameters
        guard let a = query["a"].map(String.init), let b = query["b"].map(String.init) else {
            throw HTTPError(.badRequest, message: "give a= and b=: each attempt's rank (1, 2, …) or SESSION:K")
        }
        let (first, second) = (try CourseComparison.Reference(a), try CourseComparison.Reference(b))
        let points = try TrailRequest(points: query["points"].map(String.init)).points
        let sessions = api.sessions
        return json(try await api.reading { try sessions.compareAttempts(course: name, first, second).json(trailPoints: points) })
    }

    @Sendable func add(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        let body = try await api.body(of: request, upTo: CourseRequest.maximumBytes,
                                      tooLarge: "a course of over \(CourseRequest.maximumBytes / 1024 / 1024) MiB: a course's GeoJSON is at most 1 MiB")
        let asked = try CourseRequest(body)
        let sessions = api.sessions
        let added = try await api.writing { try sessions.addCourse(request: asked) }
        let text = "{\"course\":" + added.course.json(withGeoJSON: false, attempts: added.attempts.count, best: added.attempts.min { $0.time < $1.time })
            + ",\"sessions_searched\":\(added.sessionsSearched),\"attempts\":" + CourseAttempt.json(added.attempts.sorted { $0.time < $1.time }) + "}"
        return json(text, status: .created)
    }

    @Sendable func remove(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        let name = try Self.name(context)
        let sessions = api.sessions
        try await api.writing { try sessions.removeCourse(name: name) }
        return try json(Answers.Removed(removed: name))
    }

    /// The course's name in the path (percent-encoded as the page sends it).
    static func name(_ context: Context) throws -> String {
        guard let name = context.parameters.get("name")?.removingPercentEncoding, !name.isEmpty else {
            throw HTTPError(.notFound, message: "no such course")
        }
        return name
    }

    /// `?boat=B`, nil when absent or empty.
    static func boat(_ request: Request) -> String? {
        request.uri.queryParameters["boat"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
    }
}

extension APIError {
    /// A course library's error: not found 404, a name or gates taken or a full library 409, a
    /// course refused 400, a library file that cannot be read or written 500 (as the workouts').
    static func status(of error: CourseLibraryError) -> HTTPResponse.Status {
        switch error {
        case .notFound: return .notFound
        case .duplicate, .full: return .conflict
        case .badCourse: return .badRequest
        case .unreadable: return .internalServerError
        }
    }
}
