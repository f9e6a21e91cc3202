/// The site client for an account. (The clients land with issue 27's site work; until then
/// every send is answered "not yet".)
public func makeTrainingSite(_ account: SiteAccount, secrets: SiteSecrets) -> TrainingSite {
    PendingSite(service: account.service)
}

private struct PendingSite: TrainingSite {
    let service: TrainingService
    func upload(_ item: UploadItem) async throws(UploadFailure) -> UploadOutcome { throw .retry("\(service.title): no client yet", after_s: nil) }
    func check(remoteID: String) async throws(UploadFailure) -> UploadOutcome { throw .retry("\(service.title): no client yet", after_s: nil) }
    func find(_ item: UploadItem) async throws(UploadFailure) -> String? { nil }
}
