import OarlogUpload

/// The site client for an account (docs/UPLOADS.md). An account without what its site needs (an
/// athlete id, a client id) gets a client that answers `.unauthorized` saying so.
public func makeTrainingSite(_ account: SiteAccount, secrets: SiteSecrets) -> TrainingSite {
    switch account.service {
    case .intervals:
        guard let athlete = account.athleteID, !athlete.isEmpty else { return UnusableSite(service: .intervals, missing: "an athlete id") }
        return IntervalsSite(baseURL: account.url, athleteID: athlete, secrets: secrets)
    case .strava:
        guard let client = account.clientID, !client.isEmpty else { return UnusableSite(service: .strava, missing: "a client id") }
        return StravaSite(baseURL: account.url, clientID: client, secrets: secrets)
    case .concept2:
        guard let client = account.clientID, !client.isEmpty else { return UnusableSite(service: .concept2, missing: "a client id") }
        return Concept2Site(baseURL: account.url, clientID: client, secrets: secrets)
    }
}

/// An account that lacks what its site needs.
private struct UnusableSite: TrainingSite {
    let service: TrainingService
    let missing: String
    private var failure: UploadFailure { .unauthorized("\(service.title): the account has no \(missing): add it again") }
    func upload(_ item: UploadItem) async throws(UploadFailure) -> UploadOutcome { throw failure }
    func check(remoteID: String) async throws(UploadFailure) -> UploadOutcome { throw failure }
    func find(_ item: UploadItem) async throws(UploadFailure) -> String? { throw failure }
}
