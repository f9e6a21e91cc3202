import Foundation
import NIOHTTP1

/// Who may open a playback, decided on the request's head at the front door (`RequestGuard`),
/// so that a phone without the token or the session's share key is answered `401` with why:
/// past this point Hummingbird answers every refused WebSocket upgrade `400`. The route checks
/// the same again (`PlaybackSocket.allows`); everything else about the request (is there such a
/// session, is it being recorded) stays the route's to answer.
struct PlaybackGate: Sendable {
    let access: ServerAccess

    static let message = "a playback needs the token (or the session's share link)"

    /// Why an upgrade to `/api/sessions/{id}/playback` is refused, or nil (any other request, or
    /// one with the token, the token as a WebSocket subprotocol, or the session's share key).
    func refusal(uri: String, headers: HTTPHeaders) -> String? {
        let path = uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        let parts = path.split(separator: "/")
        guard parts.count == 4, parts[0] == "api", parts[1] == "sessions", parts[3] == "playback",
              let id = String(parts[2]).removingPercentEncoding else { return nil }
        let share = URLComponents(string: uri)?.queryItems?.first { $0.name == "share" }?.value
        let protocols = headers["sec-websocket-protocol"]
        let allowed = access.allowsPlayback(session: id, authorization: headers["authorization"].first,
                                            webSocketProtocols: protocols.isEmpty ? nil : protocols.joined(separator: ","), shareKey: share)
        return allowed ? nil : Self.message
    }
}
