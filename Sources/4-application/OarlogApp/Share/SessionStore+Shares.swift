import Foundation

/// Share links through the one door: make one for a kept session, list, revoke, and find the
/// session a link opens (`/share/TOKEN`, docs/API.md "Share links").
extension SessionStore {
    /// The share links beside these sessions.
    public var shares: ShareBook { ShareBook(sessionsPath: path) }

    /// A new link to the kept session `id` (exact id: the API's).
    public func share(id: String, now: Double = Date().timeIntervalSince1970) throws(SessionStoreError) -> SessionShare {
        try checkExists(id: id)
        return try shares.create(session: id, now: now)
    }

    /// A new link to the session a person names (an id, enough of its start, `last`).
    public func share(reference: String, now: Double = Date().timeIntervalSince1970) throws -> SessionShare {
        try share(id: SessionText.id(of: try path(of: reference)), now: now)
    }

    /// The links of session `id` (404 when it is not kept), oldest first.
    public func shares(id: String) throws(SessionStoreError) -> [SessionShare] {
        try checkExists(id: id)
        return try shares.list(session: id)
    }

    /// The kept session `token` opens; `notFound` for an unknown or revoked token, and for a
    /// session since deleted.
    public func sharedSession(token: String) throws(SessionStoreError) -> String {
        guard let id = try shares.session(token: token) else { throw .notFound("no such share link") }
        try checkExists(id: id)
        return id
    }

    /// Revokes a link by its token, or every link of a session (`oarlog unshare TOKEN|ID`): the
    /// links revoked (none: `notFound`).
    public func unshare(_ tokenOrID: String) throws(SessionStoreError) -> [SessionShare] {
        if ShareBook.isPlausibleToken(tokenOrID), let one = try shares.revoke(token: tokenOrID) { return [one] }
        let gone = try shares.revokeAll(session: tokenOrID)
        guard !gone.isEmpty else { throw .notFound("no share link and no shared session '\(tokenOrID.prefix(80))'") }
        return gone
    }
}
