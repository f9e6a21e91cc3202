import ArgumentParser
import Foundation
import OarlogApp
import OarlogTerminal

/// `oarlog share SESSION`: a share link that opens that one session read-only on the boat's
/// Wi-Fi (docs/API.md, "Share links"); prints its path, `/share/TOKEN`.
struct ShareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Make a link that opens one session read-only (revoke it with oarlog unshare).",
        discussion: """
            Prints the link's path: put the boat's address in front of it (http://ADDRESS:8080/share/…).
            Whoever has the link sees that session and nothing else, until it is revoked.
            Examples:
              oarlog share last
              oarlog shares
              oarlog unshare last-session-id
            """
    )

    @Argument(help: SessionArgument.help)
    var session: String

    func run() throws {
        let share = try SessionStore.default.share(reference: session)
        StandardStreams.write(share.path + "\n")
    }
}

/// `oarlog shares [--json]`: every live share link, with its session.
struct SharesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "shares", abstract: "List the share links (oarlog share).")

    @Flag(help: "As JSON: [{token, path, session, created}].")
    var json = false

    func run() throws {
        let shares = try SessionStore.default.shares.list()
        if json {
            struct Row: Encodable { let token, path, session: String; let created: Double }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let rows = shares.map { Row(token: $0.token, path: $0.path, session: $0.session, created: $0.created) }
            StandardStreams.write(String(decoding: try encoder.encode(rows), as: UTF8.self) + "\n")
            return
        }
        if shares.isEmpty { StandardStreams.write("no share links\n") }
        let format = ISO8601DateFormatter()
        for s in shares {
            StandardStreams.write("\(s.path)  \(s.session)  made \(format.string(from: Date(timeIntervalSince1970: s.created)))\n")
        }
    }
}

/// `oarlog unshare TOKEN|ID`: revokes one link, or every link of a session.
struct UnshareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unshare", abstract: "Revoke a share link, or every link of a session.")

    @Argument(help: "A link's token (or its path /share/TOKEN), or a session's id.")
    var link: String

    func run() throws {
        let token = link.hasPrefix("/share/") ? String(link.dropFirst("/share/".count)) : link
        let gone = try SessionStore.default.unshare(token)
        StandardStreams.write("revoked \(gone.count) share link\(gone.count == 1 ? "" : "s")\n")
    }
}
