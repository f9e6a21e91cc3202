import ArgumentParser
import OarlogApp
import OarlogCore
import OarlogTerminal

extension UploadService: ExpressibleByArgument {}

/// `oarlog accounts`: the training-site accounts sessions are uploaded to (docs/UPLOADS.md).
/// Secrets are read from files and kept in files of mode 0600 beside the sessions; never printed.
struct AccountsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts",
        abstract: "Keep the accounts sessions are uploaded to: Intervals.icu, Strava, the Concept2 logbook.",
        discussion: """
            One account per service. Keys and tokens are read from the files given (never typed on the \
            command line, where `ps` would show them) and kept in files of mode 0600 under the data \
            directory; they are never printed. --auto sends every saved session to the account by itself.
            Examples:
              oarlog accounts add intervals --athlete i12345 --api-key-file ~/intervals.key --auto
              oarlog accounts add strava --client-id 12345 --client-secret-file s.txt --refresh-token-file t.txt
              oarlog accounts list
              oarlog accounts remove strava
            """,
        subcommands: [Add.self, List.self, Remove.self]
    )

    static func reporting<T>(_ work: () throws -> T) throws -> T {
        do { return try work() } catch {
            StandardStreams.error("Error: \(StoredText.escapedForTerminal("\(error)"))\n")
            throw ExitCode.failure
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add (or replace) a service's account.")

        @Argument(help: "intervals, strava or concept2.")
        var service: UploadService

        @Option(help: "Intervals.icu's athlete id (i12345).")
        var athlete: String?

        @Option(name: .customLong("api-key-file"), help: "A file holding Intervals.icu's API key.")
        var apiKeyFile: String?

        @Option(name: .customLong("client-id"), help: "Strava's or Concept2's API application client id.")
        var clientID: String?

        @Option(name: .customLong("client-secret-file"), help: "A file holding the application's client secret.")
        var clientSecretFile: String?

        @Option(name: .customLong("refresh-token-file"), help: "A file holding the OAuth 2 refresh token.")
        var refreshTokenFile: String?

        @Option(help: "Another server (a self-hosted or test one) instead of the site's own.")
        var url: String?

        @Flag(help: "Send every saved session to this account by itself.")
        var auto = false

        func run() throws {
            let request = UploadAccountRequest(service: service, url: url, athlete: athlete, clientID: clientID, auto: auto,
                                               apiKeyFile: apiKeyFile, refreshTokenFile: refreshTokenFile, clientSecretFile: clientSecretFile)
            let kept = try AccountsCommand.reporting { try SessionStore.default.addUploadAccount(request) }
            let who = kept.account.athleteID ?? kept.account.clientID ?? ""
            StandardStreams.write("added the \(service.title) account \(who) at \(kept.account.url)\(auto ? " (every saved session is sent)" : "")\n")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the accounts (never a secret).")

        @Flag(help: "As JSON.")
        var json = false

        func run() throws {
            let accounts = try AccountsCommand.reporting { try SessionStore.default.uploadAccounts.list() }
            StandardStreams.write(json ? UploadReports.accountsJSON(accounts) : UploadReports.accountsTable(accounts))
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a service's account and its secrets.")

        @Argument(help: "intervals, strava or concept2.")
        var service: UploadService

        func run() throws {
            let removed = try AccountsCommand.reporting { try SessionStore.default.uploadAccounts.remove(service) }
            if !removed {
                StandardStreams.error("Error: no \(service.title) account\n")
                throw ExitCode.failure
            }
            StandardStreams.write("removed the \(service.title) account\n")
        }
    }
}
