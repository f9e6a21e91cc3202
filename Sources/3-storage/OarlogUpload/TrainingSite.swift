import Foundation

/// The training logs a session can be sent to (docs/UPLOADS.md).
public enum TrainingService: String, Codable, CaseIterable, Sendable {
    /// Intervals.icu: an API key, `POST /api/v1/athlete/{id}/activities` with the FIT file.
    case intervals
    /// Strava: OAuth 2 (refresh token), `POST /api/v3/uploads`, then the upload polled.
    case strava
    /// The Concept2 logbook: OAuth 2, a result of `type: water` with its stroke data.
    case concept2

    /// The name a rower knows it by.
    public var title: String {
        switch self {
        case .intervals: "Intervals.icu"
        case .strava: "Strava"
        case .concept2: "Concept2 logbook"
        }
    }
}

/// One stroke as the Concept2 logbook's stroke data takes it (its units are converted by the site).
public struct UploadStroke: Sendable, Equatable {
    /// Time of the catch since the start of the session.
    public var time_s: Double
    /// Distance rowed at the catch since the start.
    public var distance_m: Double
    /// Split at that stroke.
    public var split_s_per_500m: Double?
    public var rate_spm: Double
    public var heartRate_bpm: Double?

    public init(time_s: Double, distance_m: Double, split_s_per_500m: Double?, rate_spm: Double, heartRate_bpm: Double? = nil) {
        self.time_s = time_s
        self.distance_m = distance_m
        self.split_s_per_500m = split_s_per_500m
        self.rate_spm = rate_spm
        self.heartRate_bpm = heartRate_bpm
    }
}

/// A kept session as the sites take it: its figures, its FIT file, its strokes.
public struct UploadItem: Sendable {
    /// The kept session's id (its file name without `.oarlog`).
    public var sessionID: String
    /// The same for every send of this session: `oarlog-` and the session id; sent where a site
    /// takes an external id, so a site (and a search after a crash) can know it again.
    public var externalID: String
    /// The activity's title ("Morning outing, 8+ Blue").
    public var name: String
    /// The session's notes, sent as the activity's description.
    public var notes: String
    /// UTC of the session's start.
    public var startUTC: Date
    /// Whole session time.
    public var elapsed_s: Double
    public var distance_m: Double
    public var strokeCount: Int
    public var averageRate_spm: Double?
    public var averageHeartRate_bpm: Double?
    /// The session's FIT file (OarlogExport's), as sent to Intervals.icu and Strava.
    public var fit: [UInt8]
    /// Every stroke, for the Concept2 logbook's stroke data.
    public var strokes: [UploadStroke]

    public init(sessionID: String, name: String, notes: String, startUTC: Date, elapsed_s: Double, distance_m: Double,
                strokeCount: Int, averageRate_spm: Double?, averageHeartRate_bpm: Double?, fit: [UInt8], strokes: [UploadStroke]) {
        self.sessionID = sessionID
        self.externalID = "oarlog-" + sessionID
        self.name = name
        self.notes = notes
        self.startUTC = startUTC
        self.elapsed_s = elapsed_s
        self.distance_m = distance_m
        self.strokeCount = strokeCount
        self.averageRate_spm = averageRate_spm
        self.averageHeartRate_bpm = averageHeartRate_bpm
        self.fit = fit
        self.strokes = strokes
    }
}

/// What a site made of a send.
public enum UploadOutcome: Sendable, Equatable {
    /// It is in the log: the site's id of the activity (or result).
    case done(remoteID: String)
    /// The site already had it (its id when it says).
    case duplicate(remoteID: String?)
    /// Taken and still being processed (Strava's upload): ask again with `check(remoteID:)`,
    /// where `remoteID` is the upload's id.
    case processing(remoteID: String)
}

/// Why a send did not land. Every message is a sentence for the owner and never holds a secret.
public enum UploadFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// 401 (after one refresh of an expired token): the account must be fixed by hand; nothing more
    /// is tried for it.
    case unauthorized(String)
    /// The network is down, the site is busy (429) or failing (5xx): try again later, after
    /// `after_s` when the site said (Retry-After).
    case retry(String, after_s: Double?)
    /// Any other refusal (a bad file, 4xx): failed; not retried by itself.
    case rejected(String)

    public var description: String {
        switch self {
        case .unauthorized(let m), .retry(let m, _), .rejected(let m): m
        }
    }
}

/// A training site's upload endpoints, as its public API document gives them.
public protocol TrainingSite: Sendable {
    var service: TrainingService { get }
    /// Sends `item`.
    func upload(_ item: UploadItem) async throws(UploadFailure) -> UploadOutcome
    /// Asks again about a send answered `.processing(remoteID)`.
    func check(remoteID: String) async throws(UploadFailure) -> UploadOutcome
    /// After a send was cut off (a kill, a power cut) before its answer was kept: the site's id of
    /// `item` if the site has it already, so it is not sent twice; nil when it has not.
    func find(_ item: UploadItem) async throws(UploadFailure) -> String?
}
