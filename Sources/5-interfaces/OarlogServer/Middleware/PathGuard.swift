import Hummingbird
import OarlogAPI

/// Refuses, before anything else sees it, a request whose path climbs out of where it may look
/// (a `..` segment, raw or percent-encoded) or is absurdly long: 404 — there is nothing there —
/// rather than the file server's 400, so an id like `..` or `%2E%2E` is simply not a session.
struct PathGuard<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard APIRequest.isAcceptablePath(request.uri.path) else { throw HTTPError(.notFound, message: "no such page") }
        return try await next(request, context)
    }
}
