import Foundation
import OarlogUpload

/// The uploads, kept in `uploads.json` beside the sessions (locked, replaced atomically:
/// `DataFile`): one entry per session and service. The lock is held only to read and change the
/// file — to claim an entry (with this process's id and the time) or to keep what a send did —
/// never across the network, so `serve` and a command share the queue and never send one entry
/// at once.
public struct UploadQueue: Sendable {
    public static let fileName = "uploads.json"
    /// Entries kept (the oldest finished ones are dropped past it).
    public static let maximumEntries = 20_000
    public let sessionsPath: String

    public init(sessionsPath: String) {
        self.sessionsPath = sessionsPath.hasSuffix("/") ? String(sessionsPath.dropLast()) : sessionsPath
    }

    public var path: String { sessionsPath + "/" + Self.fileName }
    var file: DataFile { DataFile(path: path, maximumBytes: 32 << 20) }

    /// Every entry, oldest first.
    public func list() throws -> [UploadEntry] {
        try file.items(UploadEntry.self)
    }

    /// Reads the entries, lets `body` change them and writes them back, under the lock; past
    /// `maximumEntries` the oldest finished ones are dropped.
    @discardableResult
    func change<T>(_ body: (inout [UploadEntry]) throws -> T) throws -> T {
        try file.changeItems(UploadEntry.self) { all -> T in
            let result = try body(&all)
            if all.count > Self.maximumEntries {
                let finished = all.indices.filter { all[$0].state == .done || all[$0].state == .duplicate }
                let drop = Set(finished.prefix(all.count - Self.maximumEntries))
                all = all.indices.filter { !drop.contains($0) }.map { all[$0] }
            }
            return result
        }
    }

    /// What asking for a send made of it.
    public enum Request: Sendable, Equatable {
        /// Queued, to be tried at once.
        case queued(UploadEntry)
        /// The site has it already (`sent`, `done`, `duplicate`): not sent again without force.
        case alreadyThere(UploadEntry)
        /// Another process is sending it now.
        case beingSent(UploadEntry)
    }

    /// Queues `session` for `service`, due now. A session the site has already is left as it is
    /// unless `force`; one failed is queued again.
    public func request(session: String, service: TrainingService, force: Bool, now: Double = Date().timeIntervalSince1970) throws -> Request {
        try change { all -> Request in
            guard let k = all.firstIndex(where: { $0.session == session && $0.service == service }) else {
                let entry = UploadEntry(session: session, service: service, now: now)
                all.append(entry)
                return .queued(entry)
            }
            var e = all[k]
            if let claim = e.claim, claim.isLive(now: now) { return .beingSent(e) }
            // Cut off mid-send (a kill -9): the next delivery looks for it at the site first.
            if e.state == .sending && !force { return .queued(e) }
            if e.state.isThere && !force { return .alreadyThere(e) }
            e.state = .queued
            e.remoteID = nil
            e.attempts = 0
            e.checks = 0
            e.nextTryUTC = now
            e.lastError = nil
            e.unauthorized = false
            e.claim = nil
            e.queuedUTC = now
            e.updatedUTC = now
            all[k] = e
            return .queued(e)
        }
    }

    /// Queues `session` for each of `services` it has no entry for yet (a saved session's
    /// automatic uploads); returns the services queued.
    @discardableResult
    public func queueNew(session: String, services: [TrainingService], now: Double = Date().timeIntervalSince1970) throws -> [TrainingService] {
        guard !services.isEmpty else { return [] }
        return try change { all -> [TrainingService] in
            let fresh = services.filter { s in !all.contains { $0.session == session && $0.service == s } }
            all += fresh.map { UploadEntry(session: session, service: $0, now: now) }
            return fresh
        }
    }

    /// The entries of `service` that failed on its account (401), queued again (the account was added again).
    func requeueUnauthorized(_ service: TrainingService, now: Double = Date().timeIntervalSince1970) throws {
        try change { all in
            for k in all.indices where all[k].service == service && all[k].state == .failed && all[k].unauthorized {
                all[k].state = .queued
                all[k].unauthorized = false
                all[k].attempts = 0
                all[k].nextTryUTC = now
                all[k].updatedUTC = now
            }
        }
    }
}
