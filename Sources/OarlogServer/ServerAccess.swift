import Foundation
import OarlogAPI
import Synchronization

/// Who may control the boat: the token `oarlog serve` prints (kept in the data directory, so a
/// phone stays paired across restarts) and a short pairing code, new at every start, that a
/// phone exchanges for the token. Reads are open on the address the server listens on.
public final class ServerAccess: Sendable {
    public let token: String
    public let pairingCode: String
    private let failures = Mutex<(count: Int, until: Date)>((0, .distantPast))

    /// Reads the token from `tokenFile`, or makes one there (mode 0600).
    public init(tokenFile: String) throws {
        let fm = FileManager.default
        if let text = try? String(contentsOfFile: tokenFile, encoding: .utf8),
           case let t = text.trimmingCharacters(in: .whitespacesAndNewlines), t.count >= 32, t.allSatisfy(\.isHexDigit) {
            token = t
        } else {
            token = Self.randomHex(bytes: 16)
            try fm.createDirectory(atPath: (tokenFile as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            _ = fm.createFile(atPath: tokenFile, contents: Data((token + "\n").utf8), attributes: [.posixPermissions: 0o600])
        }
        pairingCode = String(format: "%06d", Int.random(in: 0..<1_000_000))
    }

    public init(token: String, pairingCode: String) {
        self.token = token
        self.pairingCode = pairingCode
    }

    /// Whether an `Authorization: Bearer …` header carries the token (compared in constant time).
    public func allows(authorization: String?) -> Bool {
        guard let given = APIRequest.bearerToken(authorization) else { return false }
        return Self.equal(Array(given.utf8), Array(token.utf8))
    }

    public enum PairingResult: Equatable { case token(String), wrongCode, tooManyAttempts }

    /// The token for the right code; five wrong codes lock pairing for a minute.
    public func pair(code: String) -> PairingResult {
        failures.withLock { f in
            if f.until > Date() { return .tooManyAttempts }
            if Self.equal(Array(code.utf8), Array(pairingCode.utf8)) {
                f.count = 0
                return .token(token)
            }
            f.count += 1
            if f.count >= 5 {
                f.count = 0
                f.until = Date().addingTimeInterval(60)
            }
            return .wrongCode
        }
    }

    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for i in 0..<a.count { diff |= a[i] ^ b[i] }
        return diff == 0
    }

    static func randomHex(bytes: Int) -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &g)) }.joined()
    }
}
