import Dispatch
import Foundation
import OarlogUpload

/// Sends what is due in the upload queue: claims a few entries at a time (on disk, with this
/// process's id), works on them off the lock — a send, a search after a cut-off send, a poll — and
/// keeps each answer. A 401 stops the account (its other entries wait until it is added again).
public struct UploadDelivery: Sendable {
    /// Makes the client of an account's site: the interfaces give OarlogTrainingSites'
    /// `makeTrainingSite` (the application layer has no network client of its own).
    public typealias SiteMaker = @Sendable (SiteAccount, SiteSecrets) -> TrainingSite
    public let store: SessionStore
    let makeSite: SiteMaker
    /// Entries worked on at once.
    public var parallel = 4

    public init(store: SessionStore, makeSite: @escaping SiteMaker) {
        self.store = store
        self.makeSite = makeSite
    }

    /// One delivery: everything due now (of session `only`, if given), and uploads still being
    /// processed polled for up to `waitForProcessing_s`; `byHand`: every queued entry is tried
    /// once whatever its backoff (`oarlog upload --pending`). Returns the entries as each piece of
    /// work left them.
    @discardableResult
    public func deliver(only: String? = nil, waitForProcessing_s: Double = 0, byHand: Bool = false) async -> [UploadEntry] {
        let started = Date().timeIntervalSince1970
        var finished: [UploadEntry] = []
        var tried = Set<String>()
        while true {
            guard let accounts = try? store.uploadAccounts.list() else { return finished }
            let usable = accounts.filter { $0.stopped == nil }
            let services = Set(usable.map(\.service))
            // By hand each queued entry is tried once: one that fails again waits for its backoff.
            let jobs = (try? store.uploadQueue.claimDue(services: services, only: only, limit: parallel,
                                                        everyQueued: byHand, skipping: tried)) ?? []
            for job in jobs {
                if case .check = job.work { continue }
                tried.insert(job.entry.session + "/" + job.entry.service.rawValue)
            }
            if jobs.isEmpty {
                let now = Date().timeIntervalSince1970
                let polls = ((try? store.uploadQueue.list()) ?? []).filter {
                    $0.state == .sent && services.contains($0.service) && (only == nil || $0.session == only)
                }.compactMap(\.nextTryUTC)
                guard let next = polls.min(), next <= started + waitForProcessing_s, now <= started + waitForProcessing_s else { return finished }
                try? await Task.sleep(nanoseconds: UInt64(max(0.05, next - now) * 1e9))
                continue
            }
            let results = await withTaskGroup(of: UploadEntry?.self) { group in
                for job in jobs {
                    guard let kept = usable.first(where: { $0.service == job.entry.service }) else { continue }
                    group.addTask { await work(job, account: kept.account) }
                }
                var out: [UploadEntry] = []
                for await e in group { if let e { out.append(e) } }
                return out
            }
            finished += results
        }
    }

    /// The same, waiting for it (the command line).
    @discardableResult
    public func deliverWaiting(only: String? = nil, waitForProcessing_s: Double = 0, byHand: Bool = false) -> [UploadEntry] {
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let delivery = self
        Task {
            box.set(await delivery.deliver(only: only, waitForProcessing_s: waitForProcessing_s, byHand: byHand))
            done.signal()
        }
        done.wait()
        return box.get()
    }

    private func work(_ job: UploadJob, account: SiteAccount) async -> UploadEntry? {
        let site = makeSite(account, store.uploadAccounts.secrets(account.service))
        let result: UploadResult
        do throws(UploadFailure) {
            switch job.work {
            case .check(let remoteID):
                result = .outcome(try await site.check(remoteID: remoteID))
            case .send, .recover:
                let item: UploadItem
                do { item = try store.uploadItem(id: job.entry.session) } catch {
                    return try? store.uploadQueue.finish(job, .unreadable("session \(job.entry.session): \(error)"))
                }
                if job.work == .recover, let found = try await site.find(item) {
                    result = .outcome(.done(remoteID: found))
                } else {
                    result = .outcome(try await site.upload(item))
                }
            }
        } catch {
            if case .unauthorized(let why) = error {
                try? store.uploadAccounts.stop(account.service, reason: why)
            }
            return try? store.uploadQueue.finish(job, .failure(error))
        }
        return try? store.uploadQueue.finish(job, result)
    }
}

/// A value handed from a task to the thread waiting for it.
private final class Box: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [UploadEntry] = []
    func set(_ e: [UploadEntry]) { lock.lock(); entries = e; lock.unlock() }
    func get() -> [UploadEntry] { lock.lock(); defer { lock.unlock() }; return entries }
}
