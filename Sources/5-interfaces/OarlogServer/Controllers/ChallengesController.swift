import Foundation
import Hummingbird
import OarlogAPI
import OarlogApp

/// `/api/challenges` (docs/API.md, docs/CHALLENGES.md): `GET` lists every challenge with its
/// state, the attempt linked (sessions not yet searched are searched first), the attempts
/// tried and the answers — as `oarlog challenges --json`. With the token: `POST` sets one
/// (`ChallengeSetRequest`; 201 with the challenge, 400 for a bad target or deadline, 404 for a
/// course not kept), `POST /api/challenges/{id}/accept` and `/reject` answer the attempt waiting
/// (`{"note"}`; 200 with the challenge, 404 for no such challenge, 409 when nothing waits).
/// Bodies are bounded at 16 KiB (413).
struct ChallengesController: Sendable {
    let api: APIServices
    typealias Context = APIServices.Context

    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("/api/challenges", use: list)
            .post("/api/challenges", use: set)
            .post("/api/challenges/:id/accept", use: accept)
            .post("/api/challenges/:id/reject", use: reject)
    }

    @Sendable func list(_ request: Request, context: Context) async throws -> Response {
        let sessions = api.sessions
        return json(try await api.writing {
            let now = Date().timeIntervalSince1970
            return Challenge.json(try Self.mapped { try sessions.listChallenges(now: now) }, now: now)
        })
    }

    @Sendable func set(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        let r = try await api.decode(request, ChallengeSetRequest.init(body:))
        let sessions = api.sessions
        let made = SessionStore.ChallengeRequest(course: r.course, target: r.under, deadline: r.before, boat: r.boat,
                                                 boatClass: r.boatClass, handicap: r.handicap, setBy: r.by, note: r.note)
        return json(try await api.writing {
            let now = Date().timeIntervalSince1970
            let set = try Self.mapped { try sessions.setChallenge(made, now: now) }
            let linked = try Self.mapped { try sessions.listChallenges(now: now) }.first { $0.id == set.id } ?? set
            return linked.json(now: now)
        }, status: .created)
    }

    @Sendable func accept(_ request: Request, context: Context) async throws -> Response {
        try await answer(request, context: context, accept: true)
    }

    @Sendable func reject(_ request: Request, context: Context) async throws -> Response {
        try await answer(request, context: context, accept: false)
    }

    func answer(_ request: Request, context: Context, accept: Bool) async throws -> Response {
        try api.authorize(request)
        guard let id = context.parameters.get("id"), ChallengeBook.isID(id) else { throw HTTPError(.notFound, message: "no such challenge") }
        let r = try await api.decode(request, ChallengeAnswerRequest.init(body:))
        let sessions = api.sessions
        return json(try await api.writing {
            let now = Date().timeIntervalSince1970
            return try Self.mapped { () throws -> Challenge in
                try sessions.challenges.refresh(sessions, now: now)
                return try sessions.challenges.answer(id: id, accept: accept, note: r.note, by: r.by, now: now)
            }.json(now: now)
        })
    }

    /// A course the library does not keep is the challenge's "not found"; other library errors
    /// are the challenge book's.
    static func mapped<T>(_ work: () throws -> T) throws -> T {
        do { return try work() } catch let e as CourseLibraryError {
            switch e {
            case .notFound(let why): throw ChallengeError.notFound(why)
            case .unreadable(let why): throw ChallengeError.unreadable(why)
            default: throw ChallengeError.badRequest(e.description)
            }
        }
    }
}

extension APIError {
    /// A challenge's error: not found 404, a bad request 400, nothing to answer or a full book
    /// 409, a file that cannot be read or written 500.
    static func status(of error: ChallengeError) -> HTTPResponse.Status {
        switch error {
        case .notFound: return .notFound
        case .badRequest: return .badRequest
        case .conflict, .full: return .conflict
        case .unreadable: return .internalServerError
        }
    }
}
