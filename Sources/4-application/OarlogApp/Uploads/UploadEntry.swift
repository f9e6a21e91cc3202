#if canImport(Glibc)
import Glibc
#endif
import Foundation
import OarlogUpload

/// Where one session's send to one site stands (docs/UPLOADS.md).
public enum UploadState: String, Codable, Sendable {
    /// Waiting to be sent (offline, the site busy): tried when its time comes.
    case queued
    /// Being sent now (on disk before the send starts: one found so after a kill -9 is first
    /// looked for at the site, so it is neither lost nor sent twice).
    case sending
    /// Taken by the site and still being processed (Strava): asked about again.
    case sent
    /// In the site's log, with its id.
    case done
    /// The site had it already.
    case duplicate
    /// Refused (a 401, a bad file): not tried again by itself.
    case failed

    /// The site has it: a new `upload` says so unless forced.
    public var isThere: Bool { self == .sent || self == .done || self == .duplicate }
}

/// The process that claimed an entry to work on it, and when: another process leaves it alone
/// while that process lives and the claim is fresh.
public struct UploadClaim: Codable, Sendable, Equatable {
    public var pid: Int32
    public var atUTC: Double
    /// This run of the process (a process id is used again, soonest in a container: a claim with
    /// this process's id but another run's mark is a dead process's).
    public var run: UInt64?
    /// A claim older than this is stale whoever made it.
    static let stale_s: Double = 15 * 60
    /// This process's mark.
    static let thisRun = UInt64.random(in: 1...UInt64.max)

    init(pid: Int32, atUTC: Double) {
        self.pid = pid
        self.atUTC = atUTC
        run = Self.thisRun
    }

    /// True while the claiming process runs and the claim is fresh.
    func isLive(now: Double) -> Bool {
        guard now - atUTC < Self.stale_s else { return false }
        if pid == getpid() { return run == Self.thisRun }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}

/// One session's send to one service, as `uploads.json` keeps it.
public struct UploadEntry: Codable, Sendable, Equatable {
    public var session: String
    public var service: TrainingService
    public var state: UploadState
    /// The site's id of the activity (or of the upload while `sent`).
    public var remoteID: String?
    /// Sends tried.
    public var attempts: Int
    /// Polls of a `sent` upload.
    public var checks: Int
    /// When it is tried (or polled) next.
    public var nextTryUTC: Double?
    public var lastError: String?
    /// True when it failed on the account (401): queued again when the account is added again.
    public var unauthorized: Bool
    public var queuedUTC: Double
    public var updatedUTC: Double
    public var claim: UploadClaim?

    init(session: String, service: TrainingService, now: Double) {
        self.session = session
        self.service = service
        state = .queued
        attempts = 0
        checks = 0
        nextTryUTC = now
        unauthorized = false
        queuedUTC = now
        updatedUTC = now
    }
}

/// How long a send waits after its `attempts`-th try failed for a reason that passes (offline,
/// 429, 5xx): 30 s doubling to at most an hour, jittered by ±20 % (so a fleet of boats back on
/// shore does not knock all at once), never sooner than the site asked (`after_s`).
public enum UploadBackoff {
    public static let first_s: Double = 30
    public static let longest_s: Double = 3600

    /// `jitter` in 0...1 (0.5: none).
    public static func delay_s(attempts: Int, after_s: Double?, jitter: Double = Double.random(in: 0...1)) -> Double {
        let doublings = Double(max(0, min(attempts - 1, 20)))
        let plain = min(longest_s, first_s * pow(2, doublings))
        let jittered = min(longest_s, plain * (0.8 + 0.4 * min(1, max(0, jitter))))
        return max(jittered, min(after_s ?? 0, 24 * 3600))
    }

    /// How long before a `sent` upload is asked about again after `checks` polls: 2 s doubling to 5 min.
    public static func poll_s(checks: Int) -> Double {
        min(300, 2 * pow(2, Double(max(0, min(checks, 20)))))
    }
}
