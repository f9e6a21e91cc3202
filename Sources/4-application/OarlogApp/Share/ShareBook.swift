import Foundation
import OarlogCore

/// One share link: a random token that opens one kept session read-only on the boat's Wi-Fi
/// (`/share/TOKEN`), until the owner revokes it.
public struct SessionShare: Codable, Sendable, Equatable {
    /// 16 random bytes (128 bits) as base64url without padding: 22 characters.
    public let token: String
    /// The session it opens, and nothing else.
    public let session: String
    /// When it was made (seconds since 1970, UTC).
    public let created: Double

    /// The page it opens on this server.
    public var path: String { "/share/" + token }
}

/// The share links, kept in `shares.json` beside the sessions (locked, replaced atomically, mode
/// 0600 — each entry is a bearer token: `DataFile`). At most 500; a token is compared in constant
/// time; a token of a session since deleted opens nothing.
public struct ShareBook: Sendable {
    public static let fileName = "shares.json"
    public static let maximumShares = 500
    /// Random bytes in a token.
    static let tokenBytes = 16

    public let path: String

    public init(sessionsPath: String) {
        path = (sessionsPath.hasSuffix("/") ? sessionsPath : sessionsPath + "/") + Self.fileName
    }

    var file: DataFile { DataFile(path: path, maximumBytes: 1 << 20, mode: 0o600) }

    private struct Contents: Codable {
        var version = 1
        var shares: [SessionShare] = []
    }

    /// Every link (oldest first), or those of `session`.
    public func list(session: String? = nil) throws(SessionStoreError) -> [SessionShare] {
        let all = try read()
        guard let session else { return all }
        return all.filter { $0.session == session }
    }

    /// A new link to `session` (the caller has checked the session is kept); refused when 500
    /// are kept already.
    public func create(session: String, now: Double = Date().timeIntervalSince1970) throws(SessionStoreError) -> SessionShare {
        try change { (all: inout [SessionShare]) throws(SessionStoreError) -> SessionShare in
            guard all.count < Self.maximumShares else {
                throw .badRequest("\(Self.maximumShares) share links are kept already: revoke some (oarlog unshare)")
            }
            let share = SessionShare(token: Self.newToken(), session: session, created: now)
            all.append(share)
            return share
        }
    }

    /// Revokes the link `token`; the link revoked, nil when there was none.
    @discardableResult
    public func revoke(token: String) throws(SessionStoreError) -> SessionShare? {
        try change { (all: inout [SessionShare]) -> SessionShare? in
            guard let k = all.firstIndex(where: { Self.same($0.token, token) }) else { return nil }
            return all.remove(at: k)
        }
    }

    /// Revokes every link to `session`; the links revoked.
    @discardableResult
    public func revokeAll(session: String) throws(SessionStoreError) -> [SessionShare] {
        try change { (all: inout [SessionShare]) -> [SessionShare] in
            let gone = all.filter { $0.session == session }
            all.removeAll { $0.session == session }
            return gone
        }
    }

    /// The session `token` opens, or nil (no such link, or revoked). Every kept token is compared,
    /// each in constant time, so the answer's timing says nothing about how close a guess was.
    public func session(token: String) throws(SessionStoreError) -> String? {
        guard Self.isPlausibleToken(token) else { return nil }
        var found: String?
        for share in try read() where Self.same(share.token, token) { found = share.session }
        return found
    }

    /// Whether `text` has the shape of a token (22 base64url characters), so that nothing else is
    /// ever looked up, or written anywhere.
    public static func isPlausibleToken(_ text: String) -> Bool {
        text.utf8.count == 22 && text.utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D || c == 0x5F
        }
    }

    static func newToken() -> String {
        var g = SystemRandomNumberGenerator()
        let bytes = (0..<tokenBytes).map { _ in UInt8.random(in: 0...255, using: &g) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// Constant-time comparison of two tokens (the time depends on the lengths only).
    static func same(_ a: String, _ b: String) -> Bool { ConstantTime.equal(Array(a.utf8), Array(b.utf8)) }

    private func read() throws(SessionStoreError) -> [SessionShare] {
        let bytes: [UInt8]?
        do { bytes = try file.read() } catch { throw .unreadable(error.description) }
        guard let bytes, !bytes.isEmpty else { return [] }
        do {
            let contents = try JSONDecoder().decode(Contents.self, from: Data(bytes))
            guard contents.version <= 1 else { throw SessionStoreError.unreadable("\(Self.fileName) is of a newer version than this oarlog reads (1)") }
            return contents.shares
        } catch let error as SessionStoreError {
            throw error
        } catch {
            throw .unreadable("\(Self.fileName): not a list of share links ({\"version\": 1, \"shares\": [...]})")
        }
    }

    /// Reads the links, lets `body` change them, and writes them back, under the lock.
    private func change<T>(_ body: (inout [SessionShare]) throws(SessionStoreError) -> T) throws(SessionStoreError) -> T {
        do {
            return try file.locked { () throws(SessionStoreError) -> T in
                var all = try read()
                let before = all
                let result = try body(&all)
                if all != before {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                    do {
                        let data = try encoder.encode(Contents(shares: all))
                        try file.replace(with: String(decoding: data, as: UTF8.self) + "\n")
                    } catch { throw .unreadable("\(error)") }
                }
                return result
            }
        } catch let error as SessionStoreError {
            throw error
        } catch {
            throw .unreadable("\(error)")
        }
    }
}
