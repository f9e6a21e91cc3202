import ArgumentParser
import OarlogApp
import OarlogTrainingSites
import OarlogCore
import OarlogTerminal

/// `oarlog upload ID|last --to SERVICE [--force]`, `oarlog upload --pending`: sends a session to
/// a training site now, or queues it when the site cannot be reached (store and forward).
struct UploadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract: "Upload a session to Intervals.icu, Strava or the Concept2 logbook (queued while offline).",
        discussion: """
            The session is queued and sent at once; a send that cannot be made (no network, the site \
            busy) stays queued and is retried with backoff by `oarlog upload --pending`, by `serve` and \
            by `record`. A session the site has is not sent again (--force sends it anyway).
            Examples:
              oarlog upload last --to intervals
              oarlog upload 2026-05-02T07 --to strava --force
              oarlog upload --pending
            """
    )

    @Argument(help: "The sessions: ids, the start of one, or last.")
    var sessions: [String] = []

    @Option(help: "intervals, strava or concept2.")
    var to: UploadService?

    @Flag(help: "Send it again even if the site has it.")
    var force = false

    @Flag(help: "Deliver everything queued (now, whatever its backoff).")
    var pending = false

    func validate() throws {
        if pending && (!sessions.isEmpty || to != nil || force) { throw ValidationError("--pending takes no session, --to or --force") }
        if !pending && (sessions.isEmpty || to == nil) { throw ValidationError("give a session and --to SERVICE, or --pending") }
    }

    func run() throws {
        let store = SessionStore.default
        let delivery = UploadDelivery(store: store, makeSite: Self.makeSite)
        guard let to else {
            let done = delivery.deliverWaiting(waitForProcessing_s: 60, byHand: true)
            for e in done { StandardStreams.write(Self.line(e)) }
            let left = (try? store.uploadQueue.list())?.filter { $0.state == .queued || $0.state == .sending || $0.state == .sent }.count ?? 0
            StandardStreams.write("\(done.count) worked on, \(left) waiting\n")
            return
        }
        var queued: [String] = []
        for session in sessions {
            switch try AccountsCommand.reporting({ try store.requestUpload(session, to: to, force: force) }) {
            case .alreadyThere(let e):
                StandardStreams.write("\(e.session) is already on \(to.title) (\(e.state.rawValue)\(e.remoteID.map { ", id " + $0 } ?? "")): --force sends it again\n")
            case .beingSent(let e):
                StandardStreams.write("\(e.session) is being sent to \(to.title) by another process\n")
            case .queued(let e):
                queued.append(e.session)
            }
        }
        guard !queued.isEmpty else { return }
        let done = delivery.deliverWaiting(only: queued.count == 1 ? queued[0] : nil, waitForProcessing_s: 60, byHand: true)
        let now = (try? store.uploadQueue.list()) ?? done
        var failed = false
        for id in queued {
            guard let e = done.last(where: { $0.session == id && $0.service == to }) ?? now.first(where: { $0.session == id && $0.service == to })
            else { continue }
            StandardStreams.write(Self.line(e))
            failed = failed || e.state == .failed
        }
        if failed { throw ExitCode.failure }
    }

    /// A session just saved (`replay --save`): queued to the `--auto` accounts and sent now if it can be.
    static func sendAutomatic(session id: String) {
        let store = SessionStore.default
        guard !store.queueAutomaticUploads(session: id).isEmpty else { return }
        for e in UploadDelivery(store: store, makeSite: Self.makeSite).deliverWaiting(only: id, waitForProcessing_s: 30) { StandardStreams.error(line(e)) }
    }

    /// `record`: the queue delivered in the background while recording, when an account is `--auto`.
    static func startPumpIfAuto() {
        let store = SessionStore.default
        guard ((try? store.uploadAccounts.list()) ?? []).contains(where: { $0.account.auto }) else { return }
        UploadPump.start(store: store, makeSite: Self.makeSite)
    }

    /// `record`'s end: what is due is delivered before it exits.
    static func deliverAtEnd() {
        let store = SessionStore.default
        guard ((try? store.uploadAccounts.list()) ?? []).contains(where: { $0.account.auto }) else { return }
        for e in UploadDelivery(store: store, makeSite: Self.makeSite).deliverWaiting(waitForProcessing_s: 30) { StandardStreams.error(line(e)) }
    }

    /// The sites' clients (OarlogTrainingSites).
    static let makeSite: UploadDelivery.SiteMaker = { makeTrainingSite($0, secrets: $1) }

    static func line(_ e: UploadEntry) -> String {

        var s = "\(e.session) → \(e.service.title): \(e.state.rawValue)"
        if let id = e.remoteID { s += ", id \(id)" }
        if let why = e.lastError, e.state != .done, e.state != .duplicate { s += " (\(StoredText.escapedForTerminal(why)))" }
        if e.state == .queued { s += "; queued, tried again by `oarlog upload --pending`, serve or record" }
        return s + "\n"
    }
}
