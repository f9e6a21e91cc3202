import Hummingbird

/// A second line behind the pages' own rule (no user text is ever inserted as HTML, Web/js/dom.js):
/// every answer says the browser may run only the server's own script files — no inline script, no
/// `eval`, no plugin, no other site framing the pages — and must not guess a content type. So a
/// title that slipped through as markup still could not run (docs/SECURITY.md). Styles stay open:
/// Leaflet and Chart.js set inline styles.
struct SecurityHeaders<Context: RequestContext>: RouterMiddleware {
    static var policy: String { "script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = Self.policy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.init("Referrer-Policy")!] = "no-referrer"
        return response
    }
}
