import Foundation
import OarlogUpload

// Strava API v3, written from (read November 2026, not yet met the real service):
// - "Uploading to Strava", developers.strava.com/docs/uploads: "an asynchronous process"; the file
//   POSTed as multipart/form-data, then "processing status may be checked by polling … a one-second
//   or longer polling interval"; "errors can occur … due to … duplicate data submission".
// - Strava API v3 reference, "Uploads": `POST /api/v3/uploads` (file, name, description,
//   trainer, commute, data_type, external_id; activity:write scope) answers an Upload
//   (`id`, `id_str`, `external_id`, `error`, `status`, `activity_id`); `GET /api/v3/uploads/{uploadId}`.
// - Strava authentication: `POST /oauth/token` with client_id, client_secret,
//   grant_type=refresh_token, refresh_token answers access_token, expires_at, expires_in and the
//   refresh token (which may be new: keep it).
// - `GET /api/v3/athlete/activities?after=&before=` lists the athlete's activities (each with
//   `id` and `external_id`), for `find`.

/// Strava: the FIT file uploaded with an OAuth 2 access token, then the upload polled.
public struct StravaSite: TrainingSite {
    public var service: TrainingService { .strava }
    public static let site = "Strava"
    public let baseURL: String
    public let oauth: OAuthSession

    public init(baseURL: String, clientID: String, secrets: SiteSecrets) {
        self.baseURL = SiteHTTP.base(baseURL)
        self.oauth = OAuthSession(site: Self.site, tokenURL: SiteHTTP.base(baseURL) + "/oauth/token", clientID: clientID, secrets: secrets)
    }

    public func upload(_ item: UploadItem) async throws(UploadFailure) -> UploadOutcome {
        var form = MultipartForm()
        form.addFile("file", filename: "\(item.sessionID).fit", contentType: "application/octet-stream", item.fit)
        form.add("data_type", "fit")
        form.add("name", item.name)
        form.add("description", item.notes)
        form.add("external_id", item.externalID)
        form.add("activity_type", "rowing")
        let body = form.body, contentType = form.contentType
        do throws(UploadFailure) {
            let response = try await oauth.authorized { token in
                SiteRequest(method: "POST", url: baseURL + "/api/v3/uploads",
                            headers: [("Authorization", "Bearer " + token), ("Content-Type", contentType), ("Accept", "application/json")],
                            body: body)
            }
            guard response.status == 201 || response.status == 200 else {
                throw SiteHTTP.failure(for: response, site: Self.site, unauthorized: oauth.refusal)
            }
            return try Self.outcome(response.json)
        } catch {
            throw error.scrubbed(oauth.knownSecrets)
        }
    }

    public func check(remoteID: String) async throws(UploadFailure) -> UploadOutcome {
        do throws(UploadFailure) {
            let response = try await oauth.authorized { token in
                SiteRequest(method: "GET", url: baseURL + "/api/v3/uploads/" + SiteHTTP.query(remoteID),
                            headers: [("Authorization", "Bearer " + token), ("Accept", "application/json")])
            }
            guard response.status == 200 else { throw SiteHTTP.failure(for: response, site: Self.site, unauthorized: oauth.refusal) }
            return try Self.outcome(response.json)
        } catch {
            throw error.scrubbed(oauth.knownSecrets)
        }
    }

    /// Strava refuses a second upload of one file itself ("duplicate of activity N"); after a cut
    /// off send the athlete's activities around the session's start are searched for its external id.
    public func find(_ item: UploadItem) async throws(UploadFailure) -> String? {
        let after = Int(item.startUTC.timeIntervalSince1970) - 86_400
        let before = Int(item.startUTC.timeIntervalSince1970 + item.elapsed_s) + 86_400
        do throws(UploadFailure) {
            let response = try await oauth.authorized { token in
                SiteRequest(method: "GET", url: baseURL + "/api/v3/athlete/activities?after=\(after)&before=\(before)&per_page=100",
                            headers: [("Authorization", "Bearer " + token), ("Accept", "application/json")])
            }
            guard response.status == 200 else { throw SiteHTTP.failure(for: response, site: Self.site, unauthorized: oauth.refusal) }
            guard let list = response.json as? [[String: Any]] else { return nil }
            let names: Set<String> = [item.externalID, item.externalID + ".fit", item.sessionID + ".fit"]
            let match = list.first { ($0["external_id"] as? String).map(names.contains) ?? false }
            return match.flatMap { Self.number($0["id"]) }
        } catch {
            throw error.scrubbed(oauth.knownSecrets)
        }
    }

    /// An Upload's meaning: `activity_id` → done; an error naming a duplicate → duplicate (with
    /// the activity it duplicates); another error → rejected; else still processing.
    static func outcome(_ json: Any?) throws(UploadFailure) -> UploadOutcome {
        guard let upload = json as? [String: Any], let uploadID = number(upload["id_str"]) ?? number(upload["id"]) else {
            throw .retry("Strava answered the upload without its id", after_s: nil)
        }
        if let activity = number(upload["activity_id"]) { return .done(remoteID: activity) }
        if let error = upload["error"] as? String, !error.isEmpty {
            if error.lowercased().contains("duplicate") { return .duplicate(remoteID: duplicateOf(error)) }
            throw .rejected("Strava could not take the file: \(String(error.prefix(200)))")
        }
        return .processing(remoteID: uploadID)
    }

    /// N in "… duplicate of activity N" (or of `<a href='/activities/N'>`).
    static func duplicateOf(_ error: String) -> String? {
        guard let range = error.range(of: "duplicate of", options: .caseInsensitive) else { return nil }
        let digits = error[range.upperBound...].drop { !$0.isNumber }.prefix { $0.isNumber }
        return digits.isEmpty ? nil : String(digits)
    }

    static func number(_ value: Any?) -> String? {
        if let text = value as? String, !text.isEmpty { return text }
        if let n = value as? Int { return String(n) }
        if let n = value as? Double, n.isFinite, n == n.rounded() { return String(Int64(n)) }
        return nil
    }
}
