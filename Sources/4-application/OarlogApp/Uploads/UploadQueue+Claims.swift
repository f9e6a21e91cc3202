import Foundation
import OarlogUpload

/// An entry claimed by this process for one piece of work.
public struct UploadJob: Sendable, Equatable {
    public enum Work: Sendable, Equatable {
        /// Send it.
        case send
        /// It was being sent when its process died: look for it at the site, send it if not there.
        case recover
        /// Ask the site about an upload still being processed.
        case check(remoteID: String)
    }

    public var entry: UploadEntry
    public var work: Work
    var claim: UploadClaim
}

/// What a piece of work came to.
enum UploadResult: Sendable {
    case outcome(UploadOutcome)
    case failure(UploadFailure)
    /// The session could not be read (deleted, damaged): failed with the reason.
    case unreadable(String)
}

extension UploadQueue {
    /// Claims the entries due at `now` (queued and due; `sent` and due for a poll; `sending` or
    /// `sent` whose claim's process is gone), each made `sending` (or left `sent`) with this
    /// process's claim, on disk before any send starts. Services not in `services` (no account,
    /// or stopped by a 401) are left alone; `only` limits it to one session; `now`: every queued
    /// entry is due (a person asked: the network is back), not only those whose backoff ended.
    func claimDue(services: Set<TrainingService>, only: String? = nil, limit: Int = .max, everyQueued: Bool = false,
                  skipping: Set<String> = [], now: Double = Date().timeIntervalSince1970) throws -> [UploadJob] {
        // Nothing to claim without an account or a queue: no lock taken (no lock file made).
        guard !services.isEmpty, FileManager.default.fileExists(atPath: path) else { return [] }
        return try change { all -> [UploadJob] in
            var jobs: [UploadJob] = []
            let claim = UploadClaim(pid: getpid(), atUTC: now)
            for k in all.indices where jobs.count < limit {
                var e = all[k]
                guard services.contains(e.service), only == nil || e.session == only,
                      e.state == .sent || !skipping.contains(e.session + "/" + e.service.rawValue) else { continue }
                if let c = e.claim, c.isLive(now: now) { continue }
                let due = everyQueued || (e.nextTryUTC ?? 0) <= now
                let work: UploadJob.Work
                switch e.state {
                case .queued where due:
                    work = .send
                case .sending:
                    work = .recover
                case .sent where due || e.claim != nil:
                    guard let id = e.remoteID else { work = .recover; break }
                    work = .check(remoteID: id)
                default:
                    continue
                }
                if work == .send { e.attempts += 1 }
                if e.state == .queued { e.state = .sending }
                e.claim = claim
                e.updatedUTC = now
                all[k] = e
                jobs.append(UploadJob(entry: e, work: work, claim: claim))
            }
            return jobs
        }
    }

    /// Keeps what `job` came to, if the entry is still this job's (not removed, not re-queued by force).
    /// Returns the entry as kept.
    @discardableResult
    func finish(_ job: UploadJob, _ result: UploadResult, now: Double = Date().timeIntervalSince1970) throws -> UploadEntry? {
        try change { all -> UploadEntry? in
            guard let k = all.firstIndex(where: { $0.session == job.entry.session && $0.service == job.entry.service }),
                  all[k].claim == job.claim else { return nil }
            var e = all[k]
            e.claim = nil
            e.updatedUTC = now
            switch result {
            case .outcome(.done(let id)):
                e.state = .done
                e.remoteID = id
                e.lastError = nil
            case .outcome(.duplicate(let id)):
                e.state = .duplicate
                e.remoteID = id ?? e.remoteID
                e.lastError = nil
            case .outcome(.processing(let id)):
                if e.state != .sent { e.checks = 0 }
                e.state = .sent
                e.remoteID = id
                e.nextTryUTC = now + UploadBackoff.poll_s(checks: e.checks)
                e.checks += 1
            case .failure(.retry(let why, let after)):
                if e.state == .sending { e.state = .queued }
                e.lastError = why
                e.nextTryUTC = now + (e.state == .sent ? UploadBackoff.poll_s(checks: e.checks)
                                                      : UploadBackoff.delay_s(attempts: max(1, e.attempts), after_s: after))
                if e.state == .sent { e.checks += 1 }
            case .failure(.unauthorized(let why)):
                e.state = .failed
                e.lastError = why
                e.unauthorized = true
                e.nextTryUTC = nil
            case .failure(.rejected(let why)), .unreadable(let why):
                e.state = .failed
                e.lastError = why
                e.nextTryUTC = nil
            }
            all[k] = e
            return e
        }
    }
}
