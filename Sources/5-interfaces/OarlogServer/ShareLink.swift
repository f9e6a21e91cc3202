import Crypto
import Foundation
import OarlogAPI

/// Who may play a session back (`/api/sessions/{id}/playback`): the holder of the token, or of
/// that session's share key — HMAC-SHA256 of `oarlog-playback:ID` keyed with the token, its
/// first 16 bytes in hex. A key opens that one session's playback and nothing else; a new token
/// (delete the token file) withdraws every key given (docs/API.md, "Playback"; the page offers share links instead: SharesController).
extension ServerAccess {
    /// Whether a playback of session `id` may open: the token as `Authorization: Bearer`, or as a
    /// WebSocket subprotocol, or that session's share key (`?share=`). The one rule both the front
    /// door (`PlaybackGate`, for its 401) and the route apply.
    public func allowsPlayback(session id: String, authorization: String?, webSocketProtocols: String?, shareKey: String?) -> Bool {
        allows(authorization: authorization) || allows(webSocketProtocols: webSocketProtocols) || allows(shareKey: shareKey, session: id)
    }

    /// The share key of session `id`.
    public func shareKey(session id: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array("oarlog-playback:\(id)".utf8), using: SymmetricKey(data: Array(token.utf8)))
        return Array(mac).prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    /// Whether `key` is session `id`'s share key (compared in constant time).
    public func allows(shareKey key: String?, session id: String) -> Bool {
        guard let key else { return false }
        return Self.equal(Array(key.lowercased().utf8), Array(shareKey(session: id).utf8))
    }

    /// The token as a browser can send it on a WebSocket, which takes no headers: one of the
    /// offered subprotocols is `oarlog-token.TOKEN` (the server answers with `oarlog`).
    public func allows(webSocketProtocols header: String?) -> Bool {
        guard let header else { return false }
        let prefix = "oarlog-token."
        for offered in header.split(separator: ",") {
            let p = offered.trimmingCharacters(in: .whitespaces)
            if p.hasPrefix(prefix), Self.equal(Array(p.dropFirst(prefix.count).utf8), Array(token.utf8)) { return true }
        }
        return false
    }
}
