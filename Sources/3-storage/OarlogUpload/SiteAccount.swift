/// An account on a training site, as `accounts.json` keeps it (no secret is in it: those are
/// files of mode 0600 beside it, read through `SiteSecrets`).
public struct SiteAccount: Codable, Sendable, Equatable {
    public var service: TrainingService
    /// The site's base URL (`https://intervals.icu`, `https://www.strava.com`,
    /// `https://log.concept2.com`), or another server's given with `--url` (self-hosted, a test's stand-in).
    public var url: String
    /// Intervals.icu's athlete id (`i12345`).
    public var athleteID: String?
    /// The OAuth 2 client id (Strava, Concept2).
    public var clientID: String?
    /// Every saved session is sent to it by itself.
    public var auto: Bool

    public init(service: TrainingService, url: String, athleteID: String? = nil, clientID: String? = nil, auto: Bool = false) {
        self.service = service
        self.url = url
        self.athleteID = athleteID
        self.clientID = clientID
        self.auto = auto
    }

    /// The site's own address.
    public static func defaultURL(_ service: TrainingService) -> String {
        switch service {
        case .intervals: "https://intervals.icu"
        case .strava: "https://www.strava.com"
        case .concept2: "https://log.concept2.com"
        }
    }
}

/// The secrets an account has: each a file of mode 0600.
public enum SecretName: String, Sendable, CaseIterable {
    /// Intervals.icu's API key.
    case apiKey = "api-key"
    /// OAuth 2 refresh token (replaced when the site gives a new one).
    case refreshToken = "refresh-token"
    /// OAuth 2 client secret.
    case clientSecret = "client-secret"
    /// The current OAuth 2 access token and its expiry (`TOKEN EXPIRES_AT_UNIX_S`).
    case accessToken = "access-token"
}

/// Reads and keeps one account's secrets. Errors never hold a secret.
public protocol SiteSecrets: Sendable {
    func secret(_ name: SecretName) throws -> String?
    func keep(_ name: SecretName, _ value: String) throws
}
