import Hummingbird
import OarlogAPI

/// Every error answer of the server, once: a JSON body `{"error": {"message": "…"}}` saying why
/// (docs/API.md), whatever raised it — a route's error as `APIError` maps it, Hummingbird's own (an unknown
/// path 404, a body over the limit 413, a WebSocket path asked without an upgrade 405), or a
/// failure no route expected (500, without its details). No absolute path is ever in a message.
struct ErrorJSON<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            if let known = APIError.status(of: error) {
                var answer = Self.answer(known.status, message: known.body)
                answer.headers.append(contentsOf: known.headers)
                return answer
            }
            if let error = error as? any HTTPResponseError { return Self.answer(error.status, message: nil) }
            context.logger.error("\(request.method) \(ShareGate<Context>.redacted(request.uri.path)): \(error)")
            return Self.answer(.internalServerError, message: "the server failed to answer this request")
        }
        guard response.status.code >= 400, response.body.contentLength == 0 else { return response }
        var answer = Self.answer(response.status, message: nil)
        answer.headers.append(contentsOf: response.headers.filter { $0.name != .contentLength && $0.name != .contentType })
        return answer
    }

    /// The JSON answer; without a message, one that says what the status means here.
    static func answer(_ status: HTTPResponse.Status, message: String?) -> Response {
        json(FrontDoor.errorJSON(message ?? defaultMessage(status)), status: status)
    }

    static func defaultMessage(_ status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: "no such page or API path"
        case .methodNotAllowed: "this path does not take that method"
        case .contentTooLarge: "the body is over \(APIRequest.maximumBodyBytes / 1024) KiB"
        case .badRequest: "the request is malformed"
        default: status.reasonPhrase.lowercased()
        }
    }
}
