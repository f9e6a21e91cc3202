import Foundation
import OarlogUpload

// Intervals.icu, API v1, written from (read November 2026, not yet met the real service):
// - "Intervals.icu API Integration Cookbook", forum.intervals.icu/t/intervals-icu-integration-cookbook/80090:
//   "Uploading completed activities … POSTing multipart/form-data" with `file`, to
//   `/api/v1/athlete/{id}/activities?name=…&description=…` (both optional), "an optional
//   external_id parameter", personal API key by basic authentication (user `API_KEY`).
// - "API access to Intervals.icu", forum.intervals.icu/t/api-access-to-intervals-icu/609:
//   `curl -u API_KEY:xxx -F "file=@my_activity.fit" …/api/v1/athlete/{id}/activities`, and
//   `GET /api/v1/athlete/{id}/activities?oldest=YYYY-MM-DD&newest=YYYY-MM-DD` lists activities
//   (each with `id`, `external_id`, `start_date_local`).
// The answer to a second upload of one activity is not documented there: a 409, or a refusal
// whose message says "duplicate", is taken as the site already having it (docs/UPLOADS.md).

/// Intervals.icu: the FIT file sent with the account's API key.
public struct IntervalsSite: TrainingSite {
    public var service: TrainingService { .intervals }
    public static let site = "Intervals.icu"
    public let baseURL: String
    public let athleteID: String
    public let secrets: SiteSecrets

    public init(baseURL: String, athleteID: String, secrets: SiteSecrets) {
        self.baseURL = SiteHTTP.base(baseURL)
        self.athleteID = athleteID
        self.secrets = secrets
    }

    private var refusal: String { "Intervals.icu refused the API key (401): add the account again" }

    private func authorization() throws(UploadFailure) -> (header: String, key: String) {
        let key: String?
        do { key = try secrets.secret(.apiKey) } catch { throw .unauthorized("Intervals.icu: the API key cannot be read (\(error)): add the account again") }
        guard let key else { throw .unauthorized("Intervals.icu: the account has no API key: add it again") }
        let basic = Data("API_KEY:\(key)".utf8).base64EncodedString()
        return ("Basic " + basic, key)
    }

    private var activitiesURL: String { "\(baseURL)/api/v1/athlete/\(SiteHTTP.query(athleteID))/activities" }

    public func upload(_ item: UploadItem) async throws(UploadFailure) -> UploadOutcome {
        let (header, key) = try authorization()
        var form = MultipartForm()
        form.addFile("file", filename: "\(item.sessionID).fit", contentType: "application/octet-stream", item.fit)
        let query = [("name", item.name), ("description", item.notes), ("external_id", item.externalID)]
            .map { "\($0.0)=\(SiteHTTP.query($0.1))" }.joined(separator: "&")
        let request = SiteRequest(method: "POST", url: activitiesURL + "?" + query,
                                  headers: [("Authorization", header), ("Content-Type", form.contentType), ("Accept", "application/json")],
                                  body: form.body)
        do throws(UploadFailure) {
            let response = try await SiteHTTP.send(request, site: Self.site)
            switch response.status {
            case 200, 201:
                guard let id = Self.activityID(response.json) else {
                    throw UploadFailure.retry("Intervals.icu took the file but gave no activity id", after_s: nil)
                }
                return .done(remoteID: id)
            case 409:
                return .duplicate(remoteID: Self.activityID(response.json))
            case let status where (status == 400 || status == 422) && response.siteMessage.lowercased().contains("duplicate"):
                return .duplicate(remoteID: Self.activityID(response.json))
            default:
                throw SiteHTTP.failure(for: response, site: Self.site, unauthorized: refusal)
            }
        } catch {
            throw error.scrubbed([key])
        }
    }

    /// Intervals.icu makes the activity at once: nothing to ask again.
    public func check(remoteID: String) async throws(UploadFailure) -> UploadOutcome { .done(remoteID: remoteID) }

    /// The activity whose `external_id` is the item's, among those of the session's day (±1 day
    /// for time zones).
    public func find(_ item: UploadItem) async throws(UploadFailure) -> String? {
        let (header, key) = try authorization()
        let oldest = SiteDates.day(item.startUTC.addingTimeInterval(-86_400))
        let newest = SiteDates.day(item.startUTC.addingTimeInterval(86_400 + item.elapsed_s))
        let request = SiteRequest(method: "GET", url: activitiesURL + "?oldest=\(oldest)&newest=\(newest)",
                                  headers: [("Authorization", header), ("Accept", "application/json")])
        do throws(UploadFailure) {
            let response = try await SiteHTTP.send(request, site: Self.site)
            guard response.status == 200 else { throw SiteHTTP.failure(for: response, site: Self.site, unauthorized: refusal) }
            guard let list = response.json as? [[String: Any]] else { return nil }
            let match = list.first { ($0["external_id"] as? String) == item.externalID }
            return match.flatMap { Self.activityID($0) }
        } catch {
            throw error.scrubbed([key])
        }
    }

    /// The `id` of an answer (a string like `i12345`, or a number), or of its first `activities`.
    static func activityID(_ json: Any?) -> String? {
        guard let object = json as? [String: Any] else { return nil }
        if let id = object["id"] as? String, !id.isEmpty { return id }
        if let id = object["id"] as? Int { return String(id) }
        if let activities = object["activities"] as? [[String: Any]], let first = activities.first { return activityID(first) }
        return nil
    }
}

/// Dates as the sites write them, in UTC.
enum SiteDates {
    static func format(_ date: Date, _ pattern: String, timeZone: TimeZone = TimeZone(identifier: "UTC")!) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }

    /// `YYYY-MM-DD`.
    static func day(_ date: Date) -> String { format(date, "yyyy-MM-dd") }
}
