import Foundation
import OarlogUpload

// Concept2 Logbook API v1, written from (read November 2026, not yet met the real service):
// - "Concept2 Logbook API", log.concept2.com/developers/documentation: "The current version of
//   the API is v1 … explicitly request this version via the Accept header
//   `Accept: application/vnd.c2logbook.v1+json`"; `POST api/users/me/results` "with the correct
//   payload will create a new workout for the authenticated user"; `GET api/users/me/results`
//   (with `from`, `to`, `type`) lists them as `{"data": [...], "meta": {...}}`; OAuth 2 with
//   the token at `/oauth/access_token` (grant_type=refresh_token, client_id, client_secret,
//   refresh_token, scope), answering access_token, expires_in and a new refresh_token.
// - The result's fields as that document gives them: `type` ("water" for on-water rowing),
//   `date` ("YYYY-MM-DD HH:MM:SS", local), `timezone`, `distance` (metres, whole), `time`
//   (tenths of a second, whole), `weight_class` ("H"/"L"), `stroke_rate`, `heart_rate.average`,
//   `comments`, and `stroke_data` of `{t, d, p, spm, hr}` (t tenths of a second, d decimetres,
//   p pace in tenths of a second per 500 m).
// The logbook's answer to a result it already has is taken as 409 (or a refusal saying
// "duplicate"/"already"): not seen in the document (docs/UPLOADS.md).

/// The Concept2 logbook: the session as a result of `type: water` with its stroke data.
public struct Concept2Site: TrainingSite {
    public var service: TrainingService { .concept2 }
    public static let site = "Concept2 logbook"
    public static let accept = "application/vnd.c2logbook.v1+json"
    public let baseURL: String
    public let oauth: OAuthSession
    /// The zone the result's local `date` is written in (and named in `timezone`).
    public let timeZone: TimeZone
    /// "H" (heavyweight) unless the account says otherwise.
    public let weightClass: String

    public init(baseURL: String, clientID: String, secrets: SiteSecrets, timeZone: TimeZone = .current, weightClass: String = "H") {
        self.baseURL = SiteHTTP.base(baseURL)
        self.oauth = OAuthSession(site: Self.site, tokenURL: SiteHTTP.base(baseURL) + "/oauth/access_token", clientID: clientID, secrets: secrets)
        self.timeZone = timeZone
        self.weightClass = weightClass
    }

    public func upload(_ item: UploadItem) async throws(UploadFailure) -> UploadOutcome {
        let body = Concept2Result.json(item, timeZone: timeZone, weightClass: weightClass)
        do throws(UploadFailure) {
            let response = try await oauth.authorized { token in
                SiteRequest(method: "POST", url: baseURL + "/api/users/me/results",
                            headers: [("Authorization", "Bearer " + token), ("Content-Type", "application/json"), ("Accept", Self.accept)],
                            body: body)
            }
            switch response.status {
            case 200, 201:
                guard let id = Self.resultID((response.json as? [String: Any])?["data"]) else {
                    throw UploadFailure.retry("The Concept2 logbook took the result but gave no id", after_s: nil)
                }
                return .done(remoteID: id)
            case 409:
                return .duplicate(remoteID: Self.resultID((response.json as? [String: Any])?["data"]))
            case let status where (status == 400 || status == 422) && Self.saysDuplicate(response.siteMessage):
                return .duplicate(remoteID: nil)
            default:
                throw SiteHTTP.failure(for: response, site: Self.site, unauthorized: oauth.refusal)
            }
        } catch {
            throw error.scrubbed(oauth.knownSecrets)
        }
    }

    /// A result is made at once: nothing to ask again.
    public func check(remoteID: String) async throws(UploadFailure) -> UploadOutcome { .done(remoteID: remoteID) }

    /// The result on the session's day (±1 day) with its whole metres and tenths of a second.
    public func find(_ item: UploadItem) async throws(UploadFailure) -> String? {
        let from = SiteDates.format(item.startUTC.addingTimeInterval(-86_400), "yyyy-MM-dd", timeZone: timeZone)
        let to = SiteDates.format(item.startUTC.addingTimeInterval(86_400 + item.elapsed_s), "yyyy-MM-dd", timeZone: timeZone)
        do throws(UploadFailure) {
            let response = try await oauth.authorized { token in
                SiteRequest(method: "GET", url: baseURL + "/api/users/me/results?from=\(from)&to=\(to)&type=water",
                            headers: [("Authorization", "Bearer " + token), ("Accept", Self.accept)])
            }
            guard response.status == 200 else { throw SiteHTTP.failure(for: response, site: Self.site, unauthorized: oauth.refusal) }
            guard let list = (response.json as? [String: Any])?["data"] as? [[String: Any]] else { return nil }
            let distance = Concept2Result.wholeMetres(item.distance_m), time = Concept2Result.tenths(item.elapsed_s)
            let date = Concept2Result.localDate(item.startUTC, timeZone)
            let match = list.first {
                Self.int($0["distance"]) == distance && Self.int($0["time"]) == time
                    && (($0["date"] as? String).map { $0.hasPrefix(String(date.prefix(16))) } ?? true)
            }
            return match.flatMap { Self.resultID($0) }
        } catch {
            throw error.scrubbed(oauth.knownSecrets)
        }
    }

    static func saysDuplicate(_ message: String) -> Bool {
        let m = message.lowercased()
        return m.contains("duplicate") || m.contains("already")
    }

    static func resultID(_ json: Any?) -> String? {
        guard let object = json as? [String: Any] else { return nil }
        return StravaSite.number(object["id"])
    }

    static func int(_ value: Any?) -> Int? {
        if let n = value as? Int { return n }
        if let n = value as? Double, n.isFinite { return Int(n.rounded()) }
        if let s = value as? String { return Int(s) }
        return nil
    }
}
