import Hummingbird
import OarlogAPI
import OarlogApp

/// What a share link's token may reach (docs/API.md, "Share links"): `GET /share/TOKEN` (the
/// read-only page) and `GET /api/shared/TOKEN/…` (that one session's reads), and nothing else.
/// A request that carries a live share token anywhere else — in `Authorization: Bearer`, in
/// `X-Oarlog-Share`, in `?share=` — is 403, whatever it asks (another session, the list, any
/// control); so is any method but GET on the shared paths. An unknown or revoked token on a
/// shared path is 403 too (the controller's answer), never 404, so tokens cannot be probed.
struct ShareGate<Context: RequestContext>: RouterMiddleware {
    let sessions: SessionStore
    let access: ServerAccess

    /// The header a share token may be sent in (`X-Oarlog-Share`).
    static var shareHeader: HTTPFields.Element.Name { HTTPFields.Element.Name("X-Oarlog-Share")! }

    static var refusal: HTTPError { HTTPError(.forbidden, message: "a share link opens its one session read-only, and nothing else") }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let carried = carriedTokens(request)
        if let token = Self.pathToken(request.uri.path) {
            guard request.method == .get || request.method == .head, carried.allSatisfy({ $0 == token }) else { throw Self.refusal }
            return try await next(request, context)
        }
        // Only what has a token's shape is looked up (a small file, read whole).
        for token in carried where ShareBook.isPlausibleToken(token) {
            if (try? sessions.shares.session(token: token)) != nil { throw Self.refusal }
        }
        return try await next(request, context)
    }

    /// The share tokens a request carries besides its path (the control token is none).
    func carriedTokens(_ request: Request) -> [String] {
        var tokens: [String] = []
        if let bearer = APIRequest.bearerToken(request.headers[.authorization]), !access.allows(authorization: request.headers[.authorization]) {
            tokens.append(bearer)
        }
        tokens += request.headers[values: Self.shareHeader]
        if let share = request.uri.queryParameters["share"] { tokens.append(String(share)) }
        return tokens
    }

    /// TOKEN of `/share/TOKEN` or `/api/shared/TOKEN[/…]`, else nil.
    static func pathToken(_ path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 3, parts[1] == "share" { return String(parts[2]) }
        if parts.count >= 4, parts[1] == "api", parts[2] == "shared" { return String(parts[3]) }
        return nil
    }

    /// `path` with a share token taken out, for a log line: `/api/shared/…/trail`.
    static func redacted(_ path: String) -> String {
        guard let token = pathToken(path), !token.isEmpty else { return path }
        return path.replacingOccurrences(of: "/" + token, with: "/…")
    }
}
