import Foundation
import OarlogAPI
import OarlogCore
import Synchronization

/// Who may control the boat: the token `oarlog serve` prints (kept in the data directory, so a
/// phone stays paired across restarts) and a short pairing code, new at every start, that a
/// phone exchanges for the token. Reads are open on the address the server listens on.
///
/// Guessing the code is slowed per address, never for everyone: one phone's wrong codes (or an
/// attacker's) never keep another phone from pairing. An address gets five wrong codes free;
/// after that it waits a minute before its next try, twice as long after each further wrong
/// code, at most an hour (`PairingLimits`). After 20 wrong codes from anyone the code is
/// replaced and `onNewCode` shows the new one, so no code can be worked through.
public final class ServerAccess: Sendable {
    public let token: String
    private let state: Mutex<PairingState>
    private let limits: PairingLimits
    private let onNewCode: @Sendable (String) -> Void

    /// Reads the token from `tokenFile`, or makes one there (mode 0600).
    public convenience init(tokenFile: String, limits: PairingLimits = .init(), onNewCode: @escaping @Sendable (String) -> Void = { _ in }) throws {
        let fm = FileManager.default
        let token: String
        if let text = try? String(contentsOfFile: tokenFile, encoding: .utf8),
           case let t = text.trimmingCharacters(in: .whitespacesAndNewlines), t.count >= 32, t.allSatisfy(\.isHexDigit) {
            token = t
        } else {
            token = Self.randomHex(bytes: 16)
            try fm.createDirectory(atPath: (tokenFile as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            _ = fm.createFile(atPath: tokenFile, contents: Data((token + "\n").utf8), attributes: [.posixPermissions: 0o600])
        }
        self.init(token: token, pairingCode: Self.newCode(), limits: limits, onNewCode: onNewCode)
    }

    public init(token: String, pairingCode: String, limits: PairingLimits = .init(), onNewCode: @escaping @Sendable (String) -> Void = { _ in }) {
        self.token = token
        self.limits = limits
        self.onNewCode = onNewCode
        state = Mutex(PairingState(code: pairingCode))
    }

    /// The code a phone enters now (it changes after `PairingLimits.wrongCodesPerCode` wrong ones).
    public var pairingCode: String { state.withLock { $0.code } }

    /// Whether an `Authorization: Bearer …` header carries the token (compared in constant time).
    public func allows(authorization: String?) -> Bool {
        guard let given = APIRequest.bearerToken(authorization) else { return false }
        return Self.equal(Array(given.utf8), Array(token.utf8))
    }

    public enum PairingResult: Equatable {
        case token(String)
        case wrongCode
        /// This address must wait this many seconds before its next try.
        case tooManyAttempts(retryAfter: Int)
    }

    /// The token for the right code. `client` is who asks (the phone's address): its own wrong
    /// codes, and no one else's, make it wait.
    public func pair(code: String, client: String, now: Date = Date()) -> PairingResult {
        let (result, newCode) = state.withLock { s -> (PairingResult, String?) in
            let cutoff = now.addingTimeInterval(-limits.forgetAfter)
            s.forget(before: cutoff, keeping: limits.rememberedClients)
            var record = s.clients[client] ?? ClientRecord()
            if record.last < cutoff { record = ClientRecord() }
            if let until = record.waitUntil, until > now {
                return (.tooManyAttempts(retryAfter: Int(until.timeIntervalSince(now).rounded(.up))), nil)
            }
            if Self.equal(Array(code.utf8), Array(s.code.utf8)) {
                s.clients[client] = nil
                return (.token(token), nil)
            }
            record.wrong += 1
            record.last = now
            if record.wrong >= limits.freeWrongCodes {
                let doublings = min(record.wrong - limits.freeWrongCodes, 20)
                let wait = min(limits.firstWait * pow(2, Double(doublings)), limits.longestWait)
                record.waitUntil = now.addingTimeInterval(wait)
            }
            s.clients[client] = record
            s.wrongForCode += 1
            guard s.wrongForCode >= limits.wrongCodesPerCode else { return (.wrongCode, nil) }
            s.code = Self.newCode()
            s.wrongForCode = 0
            return (.wrongCode, s.code)
        }
        if let newCode { onNewCode(newCode) }
        return result
    }

    static func newCode() -> String { String(format: "%06d", Int.random(in: 0..<1_000_000)) }

    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool { ConstantTime.equal(a, b) }

    static func randomHex(bytes: Int) -> String {
        var g = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &g)) }.joined()
    }
}

/// How guessing the pairing code is slowed (docs/API.md, Limits).
public struct PairingLimits: Sendable {
    /// Wrong codes an address may give before it has to wait.
    public var freeWrongCodes = 5
    /// The first wait (seconds), doubled after each further wrong code…
    public var firstWait: TimeInterval = 60
    /// … up to this.
    public var longestWait: TimeInterval = 3600
    /// Wrong codes from everyone after which the code is replaced.
    public var wrongCodesPerCode = 20
    /// An address whose last wrong code is this old (seconds) starts afresh.
    public var forgetAfter: TimeInterval = 86_400
    /// Addresses remembered at most (the oldest are forgotten first), so a flood of addresses
    /// cannot grow the server.
    public var rememberedClients = 4096

    public init() {}
}

private struct ClientRecord {
    var wrong = 0
    var last = Date.distantPast
    var waitUntil: Date?
}

private struct PairingState {
    var code: String
    var wrongForCode = 0
    var clients: [String: ClientRecord] = [:]

    init(code: String) { self.code = code }

    /// Drops addresses not heard from since `cutoff`, and the oldest beyond the limit.
    mutating func forget(before cutoff: Date, keeping limit: Int) {
        if clients.count < limit / 2 { return }
        clients = clients.filter { $0.value.last >= cutoff }  // a wait (an hour at most) has ended by then
        if clients.count > limit {
            for (key, _) in clients.sorted(by: { $0.value.last < $1.value.last }).prefix(clients.count - limit) { clients[key] = nil }
        }
    }
}
