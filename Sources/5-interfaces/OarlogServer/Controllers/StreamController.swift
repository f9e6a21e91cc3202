import Foundation
import Hummingbird
import HummingbirdWebSocket
import OarlogApp

/// The WebSocket routes — the live stream (`/api/live`) and a kept session's playback — and the
/// share links of playbacks.
struct StreamController: Sendable {
    let api: APIServices
    let pool: PlaybackPool
    typealias Context = APIServices.Context

    /// Its routes, for `WebServer` to add.
    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        let log: @Sendable (String) -> Void = { FileHandle.standardError.write(Data(("oarlog serve: " + $0 + "\n").utf8)) }
        let api = self.api, pool = self.pool
        routes.ws("/api/live") { _, _ in .upgrade([:]) } onUpgrade: { inbound, outbound, _ in
            try await LiveSocket.serve(station: api.station, inbound: inbound, outbound: outbound, log: log)
        }
        // A stored session played back; not one that is being recorded (it has no end yet). It
        // needs the token or the session's share key: a playback costs the boat's computer work.
        routes.ws("/api/sessions/:id/playback") { request, context in
            let id = try api.existingSessionID(context)
            guard PlaybackSocket.allows(request, session: id, access: api.access) else {
                throw HTTPError(.unauthorized, message: PlaybackGate.message)
            }
            try api.sessions.checkNotRecording(id)
            return .upgrade(PlaybackSocket.upgradeHeaders(request))
        } onUpgrade: { inbound, outbound, context in
            let id = try api.existingSessionID(context.requestContext)
            try await PlaybackSocket.serve(session: id, sessions: api.sessions, pool: pool, inbound: inbound, outbound: outbound, log: log)
        }
        routes.post("/api/sessions/:id/share", use: share)
        return routes
    }

    /// A link that plays this one session back without the token (for a coach, a parent).
    @Sendable func share(_ request: Request, context: Context) async throws -> Response {
        try api.authorize(request)
        let id = try api.existingSessionID(context)
        let key = api.access.shareKey(session: id)
        return try json(Answers.Share(share: key, link: "/#play/\(id)?share=\(key)"))
    }
}
