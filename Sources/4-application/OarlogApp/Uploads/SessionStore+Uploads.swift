import Foundation
import OarlogCore
import OarlogSession
import OarlogUpload

/// Uploads through the one door: the accounts, the queue, a kept session as the sites take it.
extension SessionStore {
    /// The training-site accounts beside these sessions.
    public var uploadAccounts: UploadAccounts { UploadAccounts(sessionsPath: path) }
    /// The upload queue beside these sessions.
    public var uploadQueue: UploadQueue { UploadQueue(sessionsPath: path) }

    /// The kept session `id` as the sites take it: the FIT file exactly as `oarlog export ID
    /// --format fit` writes it, its name (date and boat), notes, figures and strokes.
    public func uploadItem(id: String) throws(SessionStoreError) -> UploadItem {
        let fit = try exportBytes(id: id, format: .fit)
        let reader = try reader(id: id)
        let report = try Self.unreadable { try StoredSessionReport(reader, includeStrokes: true) }
        let metadata = reader.metadata
        let summary = report.figures.summary
        let what = metadata.boat.isEmpty ? SessionText.title(metadata) : metadata.boat
        let name = SessionText.date(metadata.startUTC) + " · " + what
        let list = report.figures.strokes ?? []
        // Each stroke's heart rate (a strap's or the device's), for the logbooks' stroke data.
        let device = (try? StrokeDeviceFigures.atStrokes(list, reader: reader)) ?? nil
        let strokes = list.enumerated().map { k, s in
            UploadStroke(time_s: s.stroke.catchTime, distance_m: s.distance ?? 0, split_s_per_500m: s.split,
                         rate_spm: s.smoothedRate ?? s.stroke.strokeRate ?? 0, heartRate_bpm: device?[k].heartRate)
        }
        return UploadItem(sessionID: id, name: name, notes: report.notes.map(\.text).joined(separator: "\n"),
                          startUTC: Date(timeIntervalSince1970: metadata.startUTC),
                          elapsed_s: summary.elapsed ?? report.figures.duration, distance_m: summary.distance ?? 0,
                          strokeCount: summary.strokes, averageRate_spm: summary.averageStrokeRate,
                          averageHeartRate_bpm: summary.averageHeartRate, fit: fit, strokes: strokes)
    }

    /// Queues a saved session to every account marked `--auto` (not one stopped by a 401);
    /// returns the services queued. Never throws: a saved session is kept whatever the queue does.
    @discardableResult
    public func queueAutomaticUploads(session id: String) -> [TrainingService] {
        guard let accounts = try? uploadAccounts.list() else { return [] }
        let services = accounts.filter { $0.account.auto && $0.stopped == nil }.map(\.service)
        return (try? uploadQueue.queueNew(session: id, services: services)) ?? []
    }

    /// Queues the session a person names (`last`, an id or its start) for `service`, due now.
    public func requestUpload(_ reference: String, to service: TrainingService, force: Bool) throws -> UploadQueue.Request {
        guard try uploadAccounts.account(service) != nil else {
            throw AppError("no \(service.title) account: add one with `oarlog accounts add \(service.rawValue) …`")
        }
        let id = SessionText.id(of: try path(of: reference))
        return try uploadQueue.request(session: id, service: service, force: force)
    }

    /// The same for the session with exactly this id (the web API).
    public func requestUpload(id: String, to service: TrainingService, force: Bool) throws -> UploadQueue.Request {
        try checkExists(id: id)
        guard try uploadAccounts.account(service) != nil else {
            throw SessionStoreError.badRequest("no \(service.title) account: add one with `oarlog accounts add \(service.rawValue) …`")
        }
        return try uploadQueue.request(session: id, service: service, force: force)
    }

    /// Adds an account; the entries its last key or token failed (401) are queued again.
    public func addUploadAccount(_ account: SiteAccount, secrets: [SecretName: String]) throws {
        try uploadAccounts.add(account, secrets: secrets)
        try uploadQueue.requeueUnauthorized(account.service)
    }
}
