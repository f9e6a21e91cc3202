import Hummingbird
import OarlogAPI
import OarlogApp

/// The live station's state and its recording: `GET /api/status` (open), `POST
/// /api/record/start` `{"title": …}` and `POST /api/record/stop` (the token needed; 409 when
/// already recording, not recording, or the source has ended).
struct RecordingController: Sendable {
    let api: APIServices
    typealias Context = APIServices.Context

    /// Its routes, for `WebServer` to add.
    var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("/api/status", use: status)
            .post("/api/record/start", use: start)
            .post("/api/record/stop", use: stop)
    }

    @Sendable func status(_ request: Request, context: Context) async throws -> Response {
        json(LiveMessage.status(api.station.status))
    }

    @Sendable func start(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        let start = try await api.decode(request, StartRequest.init(body:))
        return try json(Answers.Recorded(id: try api.station.startRecording(title: start.title)), status: .created)
    }

    @Sendable func stop(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        return try json(Answers.Recorded(id: try api.station.stopRecording()))
    }
}
