#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import OarlogApp
import OarlogCore
import OarlogTerminal

/// `oarlog delete SESSION`: removes a session file (only a session file).
struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a recorded session.",
        discussion: """
            Asks first when run on a terminal (unless --yes). Refuses a file that is not an Oarlog \
            session, so a mistyped path cannot remove a trace or anything else.
            Examples:
              oarlog delete last
              oarlog delete 2026-05-02T07-00-00Z_morning-outing --yes
            """
    )

    @Argument(help: SessionArgument.help)
    var session: String

    @Flag(name: .shortAndLong, help: "Do not ask.")
    var yes = false

    func run() throws {
        let sessions = SessionStore.default
        // A damaged session may still be deleted; a file that is not a session is refused.
        let (path, description) = try sessions.deletion(of: session)
        if !yes && isatty(STDIN_FILENO) == 1 {
            StandardStreams.error("delete \(path) (\(description))? [y/N] ")
            guard let answer = readLine(), answer.lowercased().hasPrefix("y") else {
                StandardStreams.error("not deleted\n")
                throw ExitCode(1)
            }
        }
        // Once a note or rename under way (from the web app too) is done: it cannot bring the
        // session back afterwards (SessionFileLock).
        try sessions.delete(path: path)
        StandardStreams.write("deleted \(path) (\(description))\n")
    }
}
