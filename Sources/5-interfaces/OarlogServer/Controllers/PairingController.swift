import Hummingbird
import OarlogAPI
import OarlogApp

/// `POST /api/pair` `{"code": "123456"}`: the phone that types the pairing code `oarlog serve`
/// printed gets the token; each address waits for its own wrong codes only (FrontDoor sets who
/// is asking), doubling after three.
struct PairingController: Sendable {
    let api: APIServices
    typealias Context = APIServices.Context

    /// Its routes, for `WebServer` to add.
    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .post("/api/pair", use: pair)
    }

    @Sendable func pair(_ request: Request, context: Context) async throws -> Response {
        let pairing = try await api.decode(request, PairingRequest.init(body:))
        switch api.access.pair(code: pairing.code, client: request.headers[FrontDoor.peerHeader] ?? "unknown") {
        case .token(let token): return try json(Answers.Paired(token: token))
        case .wrongCode: throw HTTPError(.unauthorized, message: "wrong pairing code (it is the one oarlog serve printed last)")
        case .tooManyAttempts(let seconds):
            throw HTTPError(.tooManyRequests, headers: [.retryAfter: String(seconds)],
                            message: "too many wrong codes from this phone: try again in \(seconds) s")
        }
    }
}
