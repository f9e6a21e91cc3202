#if canImport(Glibc)
import Glibc
#endif
import Foundation
import OarlogUpload

/// An account as `accounts.json` keeps it: the site's account (no secret in it), when it was
/// added, and why it was stopped (a 401: nothing more is sent to it until it is added again).
public struct KeptAccount: Codable, Sendable, Equatable {
    public var account: SiteAccount
    public var addedUTC: Double
    /// The site's refusal (401) that stopped the account; nil while it is in use.
    public var stopped: String?

    public var service: TrainingService { account.service }
}

/// The training-site accounts, one per service, in `accounts.json` beside the sessions (locked,
/// replaced atomically: `DataFile`); each account's secrets are files of mode 0600 in the data
/// directory's `accounts/SERVICE/` (directory 0700: outside `sessions/`, so a copy of the
/// sessions handed round holds no secret), through `SecretFiles`. Nothing here ever prints, logs
/// or returns a secret.
public struct UploadAccounts: Sendable {
    public static let fileName = "accounts.json"
    public let sessionsPath: String

    public init(sessionsPath: String) {
        self.sessionsPath = sessionsPath.hasSuffix("/") ? String(sessionsPath.dropLast()) : sessionsPath
    }

    public var path: String { sessionsPath + "/" + Self.fileName }
    var file: DataFile { DataFile(path: path, maximumBytes: 1 << 20) }

    /// The secrets of `service`'s account.
    public func secrets(_ service: TrainingService) -> SecretFiles {
        SecretFiles(directory: secretsPath + "/" + service.rawValue)
    }

    /// `DATA/accounts` for the usual `DATA/sessions`; else `accounts` in the sessions folder.
    public var secretsPath: String {
        let url = URL(fileURLWithPath: sessionsPath)
        guard url.lastPathComponent == "sessions" else { return sessionsPath + "/accounts" }
        return url.deletingLastPathComponent().appendingPathComponent("accounts").path
    }

    /// Every account, in the order of `TrainingService`.
    public func list() throws -> [KeptAccount] {
        try file.items(KeptAccount.self)
            .sorted { TrainingService.allCases.firstIndex(of: $0.service)! < TrainingService.allCases.firstIndex(of: $1.service)! }
    }

    public func account(_ service: TrainingService) throws -> KeptAccount? {
        try list().first { $0.service == service }
    }

    /// Adds (or replaces) `service`'s account with its secrets, each kept in a file of mode 0600;
    /// an account stopped by a 401 is in use again.
    public func add(_ account: SiteAccount, secrets given: [SecretName: String], now: Double = Date().timeIntervalSince1970) throws {
        let secrets = secrets(account.service)
        for name in SecretName.allCases where name != .accessToken {
            if let value = given[name] { try secrets.keep(name, value) }
        }
        // A new refresh token makes the last access token worthless.
        unlink(secrets.path(.accessToken))
        try change { all in
            all.removeAll { $0.service == account.service }
            all.append(KeptAccount(account: account, addedUTC: now, stopped: nil))
        }
    }

    /// Removes `service`'s account and its secrets; false when there was none.
    @discardableResult
    public func remove(_ service: TrainingService) throws -> Bool {
        let removed = try change { all -> Bool in
            let before = all.count
            all.removeAll { $0.service == service }
            return all.count != before
        }
        secrets(service).removeAll()
        return removed
    }

    /// Stops `service`'s account: the site refused its key or token (`reason`, a sentence without a secret).
    func stop(_ service: TrainingService, reason: String) throws {
        try change { all in
            if let k = all.firstIndex(where: { $0.service == service }) { all[k].stopped = reason }
        }
    }

    @discardableResult
    func change<T>(_ body: (inout [KeptAccount]) throws -> T) throws -> T {
        try file.changeItems(KeptAccount.self, pretty: true, body)
    }
}
