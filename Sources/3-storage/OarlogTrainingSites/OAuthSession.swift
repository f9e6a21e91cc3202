import Foundation
import OarlogUpload

/// An OAuth 2 account's access token (Strava, the Concept2 logbook): made from the refresh token
/// with the client id and secret (`grant_type=refresh_token`, RFC 6749 §6), kept with its expiry
/// in the `access-token` secret (`TOKEN EXPIRES_AT_UNIX_S`) and used until a minute before it
/// expires; a refresh token the site rotates is kept at once. On a 401 the token is refreshed
/// once (`authorized`); a second 401 is `.unauthorized`.
public struct OAuthSession: Sendable {
    public let site: String
    /// The token endpoint (`https://www.strava.com/oauth/token`).
    public let tokenURL: String
    public let clientID: String
    public let secrets: SiteSecrets
    /// The sentence a refusal of the account gives.
    public var refusal: String { "\(site) refused the account (401): add it again" }
    /// A token this close to its expiry is refreshed first.
    public static let margin_s: Double = 60

    public init(site: String, tokenURL: String, clientID: String, secrets: SiteSecrets) {
        self.site = site
        self.tokenURL = tokenURL
        self.clientID = clientID
        self.secrets = secrets
    }

    /// Every secret of the account as far as it can be read (to scrub messages).
    public var knownSecrets: [String?] {
        var all: [String?] = []
        for name in SecretName.allCases {
            guard let value = try? secrets.secret(name) else { continue }
            all.append(value)
            all += value.split(separator: " ").map { String($0) }
        }
        return all
    }

    /// The kept access token, when it has over a minute to live.
    func keptToken(now: Date = Date()) -> String? {
        guard let text = try? secrets.secret(.accessToken) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count == 2, let expires = Double(fields[1]), expires - Self.margin_s > now.timeIntervalSince1970 else { return nil }
        return String(fields[0])
    }

    /// A new access token from the refresh token, kept (with a rotated refresh token). Refreshes
    /// of one account at the same time are one request (a rotated refresh token is used once).
    public func refresh() async throws(UploadFailure) -> String {
        let key = tokenURL + " " + clientID
        do {
            return try await RefreshGate.shared.join(key) { () async throws -> String in try await self.refreshNow() }
        } catch let failure as UploadFailure {
            throw failure
        } catch {
            throw .retry("\(site): the token could not be refreshed", after_s: nil)
        }
    }

    private func refreshNow() async throws(UploadFailure) -> String {
        let refreshToken: String?, clientSecret: String?
        do {
            refreshToken = try secrets.secret(.refreshToken)
            clientSecret = try secrets.secret(.clientSecret)
        } catch {
            throw .unauthorized("\(site): the account's secrets cannot be read (\(error)): add it again")
        }
        guard let refreshToken, let clientSecret else {
            throw .unauthorized("\(site): the account has no refresh token or client secret: add it again")
        }
        let form = [("client_id", clientID), ("client_secret", clientSecret), ("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
            .map { "\($0.0)=\(SiteHTTP.query($0.1))" }.joined(separator: "&")
        let request = SiteRequest(method: "POST", url: tokenURL,
                                  headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
                                  body: Array(form.utf8))
        let response = try await SiteHTTP.send(request, site: site)
        guard response.status == 200 || response.status == 201 else {
            if response.status == 400 || response.status == 401 { throw .unauthorized(refusal) }
            throw SiteHTTP.failure(for: response, site: site, unauthorized: refusal).scrubbed([refreshToken, clientSecret])
        }
        guard let answer = response.json as? [String: Any], let access = answer["access_token"] as? String, !access.isEmpty else {
            throw .retry("\(site) gave no access token: try again later", after_s: nil)
        }
        let expires_s: Double
        if let at = answer["expires_at"] as? Double {
            expires_s = at
        } else if let seconds = answer["expires_in"] as? Double {
            expires_s = Date().timeIntervalSince1970 + seconds
        } else {
            expires_s = Date().timeIntervalSince1970 + 3600
        }
        do {
            if let rotated = answer["refresh_token"] as? String, !rotated.isEmpty, rotated != refreshToken {
                try secrets.keep(.refreshToken, rotated)
            }
            try secrets.keep(.accessToken, "\(access) \(Int(expires_s))")
        } catch {
            throw .retry("\(site): the new token cannot be kept (\(error))", after_s: nil)
        }
        return access
    }

    /// Sends what `make` makes with a valid access token; on a 401 the token is refreshed once and
    /// the request sent again; a second 401 is `.unauthorized`.
    public func authorized(_ make: (String) -> SiteRequest) async throws(UploadFailure) -> SiteResponse {
        var token: String
        var refreshed = false
        if let kept = keptToken() {
            token = kept
        } else {
            token = try await refresh()
            refreshed = true
        }
        while true {
            let response = try await SiteHTTP.send(make(token), site: site)
            guard response.status == 401 else { return response }
            guard !refreshed else { throw .unauthorized(refusal) }
            token = try await refresh()
            refreshed = true
        }
    }
}

/// The refreshes in flight, one per account: a second asker waits for the first's answer.
actor RefreshGate {
    static let shared = RefreshGate()
    private var running: [String: Task<String, Error>] = [:]

    func join(_ key: String, _ work: @escaping @Sendable () async throws -> String) async throws -> String {
        if let task = running[key] { return try await task.value }
        let task = Task { try await work() }
        running[key] = task
        defer { running[key] = nil }
        return try await task.value
    }
}
