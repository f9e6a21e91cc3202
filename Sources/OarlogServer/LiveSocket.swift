import Foundation
import Hummingbird
import HummingbirdWebSocket
import OarlogAPI
import OarlogApp
import OarlogCore

/// One phone on `/api/live`: the current status first, then every message in order until it
/// closes. The pipeline never waits for a phone: what a phone has not taken yet waits in its
/// `SocketOutbox`, at most 1 MiB; a phone that falls further behind is closed with 1008 (the
/// web app reconnects and starts again from the current status).
enum LiveSocket {
    static func serve(station: LiveStation, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter,
                      log: @escaping @Sendable (String) -> Void) async throws {
        let outbox = SocketOutbox()
        let id = station.subscribe { outbox.push($0) }
        defer { outbox.finish() }
        try await outbox.serve(to: outbound, phone: "a live phone", log: log, stopping: { station.unsubscribe(id) }) {
            for try await _ in inbound {}  // the phone says nothing; this ends when it closes
        }
    }
}

/// The WebSocket routes (the live stream, playbacks) and the share links of playbacks.
enum StreamRoutes {
    static func add(to router: Router<BasicWebSocketRequestContext>, api: SessionAPI, station: LiveStation, access: ServerAccess,
                    pool: PlaybackPool = PlaybackPool()) {
        let log: @Sendable (String) -> Void = { FileHandle.standardError.write(Data(("oarlog serve: " + $0 + "\n").utf8)) }
        router.ws("/api/live") { _, _ in .upgrade([:]) } onUpgrade: { inbound, outbound, _ in
            try await LiveSocket.serve(station: station, inbound: inbound, outbound: outbound, log: log)
        }
        // A stored session played back; not one that is being recorded (it has no end yet). It
        // needs the token or the session's share key: a playback costs the boat's computer work.
        router.ws("/api/sessions/:id/playback") { request, context in
            let id = try api.sessionID(context)
            _ = try api.sessionPath(context)
            guard PlaybackSocket.allows(request, session: id, access: access) else {
                throw HTTPError(.unauthorized, message: PlaybackGate.message)
            }
            if station.recordingID == id { throw HTTPError(.conflict, message: "the session is being recorded") }
            return .upgrade(PlaybackSocket.upgradeHeaders(request))
        } onUpgrade: { inbound, outbound, context in
            let path = try api.sessionPath(context.requestContext)
            try await PlaybackSocket.serve(path: path, pool: pool, inbound: inbound, outbound: outbound, log: log)
        }
        // A link that plays this one session back without the token (for a coach, a parent).
        router.post("/api/sessions/:id/share") { request, context in
            try api.authorize(request)
            let id = try api.sessionID(context)
            _ = try api.sessionPath(context)
            let key = access.shareKey(session: id)
            let link = "/#play/\(id)?share=\(key)"
            return json("{\"share\":\(JSONString.quoted(key)),\"link\":\(JSONString.quoted(link))}")
        }
    }
}
