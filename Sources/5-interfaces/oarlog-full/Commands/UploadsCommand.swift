import ArgumentParser
import OarlogApp
import OarlogCore
import OarlogTerminal

/// `oarlog uploads [--json]`: each session's sends to each site and where they stand.
struct UploadsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uploads",
        abstract: "List the uploads: queued, sent, done, duplicate or failed, with the remote id and the last error.",
        discussion: """
            JSON keys: session, service, state, remote_id, last_error, attempts, next_try_utc, queued_utc, \
            updated_utc, account, account_stopped (docs/UPLOADS.md).
            """
    )

    @Flag(help: "As JSON.")
    var json = false

    func run() throws {
        let store = SessionStore.default
        let (entries, accounts) = try AccountsCommand.reporting { (try store.uploadQueue.list(), try store.uploadAccounts.list()) }
        StandardStreams.write(json ? UploadReports.uploadsJSON(entries, accounts: accounts) : UploadReports.uploadsTable(entries, accounts: accounts))
    }
}
