import Foundation
import OarlogUpload

/// The upload seam's names as the interfaces use them (they import OarlogApp only).
public typealias UploadService = TrainingService
public typealias UploadSiteAccount = SiteAccount

/// What a person gives to add an account (`oarlog accounts add`): the service, another server's
/// URL (a self-hosted or test one), Intervals.icu's athlete id and API key file, or the OAuth 2
/// client id, refresh token file and client secret file; `auto` sends every saved session.
public struct UploadAccountRequest: Sendable {
    public var service: UploadService
    public var url: String?
    public var athlete: String?
    public var clientID: String?
    public var auto: Bool
    public var apiKeyFile: String?
    public var refreshTokenFile: String?
    public var clientSecretFile: String?

    public init(service: UploadService, url: String? = nil, athlete: String? = nil, clientID: String? = nil, auto: Bool = false,
                apiKeyFile: String? = nil, refreshTokenFile: String? = nil, clientSecretFile: String? = nil) {
        self.service = service
        self.url = url
        self.athlete = athlete
        self.clientID = clientID
        self.auto = auto
        self.apiKeyFile = apiKeyFile
        self.refreshTokenFile = refreshTokenFile
        self.clientSecretFile = clientSecretFile
    }

    /// The account and its secrets (read from the files given), or the reason it cannot be added.
    /// Errors name the option or file, never a secret.
    func resolved() throws -> (SiteAccount, [SecretName: String]) {
        let url = (url ?? SiteAccount.defaultURL(service)).trimmingCharacters(in: .whitespaces)
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil else {
            throw AppError("--url '\(url)' is not an http(s) address")
        }
        let base = url.hasSuffix("/") ? String(url.dropLast()) : url
        var secrets: [SecretName: String] = [:]
        switch service {
        case .intervals:
            guard let athlete = Self.plain(athlete) else { throw AppError("intervals needs --athlete ID (i12345, on the site's settings page)") }
            guard let file = apiKeyFile else { throw AppError("intervals needs --api-key-file FILE (the API key, on the site's settings page)") }
            secrets[.apiKey] = try Self.readSecret(file, option: "--api-key-file")
            return (SiteAccount(service: service, url: base, athleteID: athlete, auto: auto), secrets)
        case .strava, .concept2:
            guard let client = Self.plain(clientID) else { throw AppError("\(service.rawValue) needs --client-id ID (the API application's)") }
            guard let file = refreshTokenFile else { throw AppError("\(service.rawValue) needs --refresh-token-file FILE (OAuth 2)") }
            secrets[.refreshToken] = try Self.readSecret(file, option: "--refresh-token-file")
            if let file = clientSecretFile { secrets[.clientSecret] = try Self.readSecret(file, option: "--client-secret-file") }
            return (SiteAccount(service: service, url: base, clientID: client, auto: auto), secrets)
        }
    }

    /// An id: printable, no spaces, at most 100 characters.
    static func plain(_ text: String?) -> String? {
        guard let t = text?.trimmingCharacters(in: .whitespaces), !t.isEmpty, t.count <= 100,
              t.unicodeScalars.allSatisfy({ $0.value > 32 && $0.value < 127 }) else { return nil }
        return t
    }

    /// The secret in `path`: one line of printable characters; errors name the file only.
    static func readSecret(_ path: String, option: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else { throw AppError("\(option) \(path) cannot be read") }
        guard data.count <= SecretFiles.maximumBytes else { throw AppError("\(option) \(path) is over 16 KiB") }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw AppError("\(option) \(path) is empty") }
        guard text.unicodeScalars.allSatisfy({ $0.value >= 32 && $0.value < 127 }) else {
            throw AppError("\(option) \(path) holds more than one line or characters a key does not have")
        }
        return text
    }
}

extension SessionStore {
    /// Adds (or replaces) an account from what a person gave; the entries its last key or token
    /// failed (401) are queued again. Returns it as kept.
    @discardableResult
    public func addUploadAccount(_ request: UploadAccountRequest) throws -> KeptAccount {
        let (account, secrets) = try request.resolved()
        try addUploadAccount(account, secrets: secrets)
        guard let kept = try uploadAccounts.account(account.service) else { throw AppError("\(UploadAccounts.fileName) did not keep the account") }
        return kept
    }
}
