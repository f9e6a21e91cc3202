import ArgumentParser
import OarlogApp
import OarlogCore
import OarlogTerminal

/// `oarlog bests`: personal bests over every recorded session.
struct Bests: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bests",
        abstract: "Personal bests: the fastest 500 m to 6,000 m and the most distance in 1, 20 and 30 minutes.",
        discussion: """
            Found anywhere in any recorded session (any window, not only marked pieces) on its GPS \
            distance; a window across a GPS gap (fixes more than 10 s apart) does not count. Each \
            best with its split, the session (its id) and where in it the window began. --json adds \
            each event's progression: every session that set a new best, in date order.
            """
    )

    @Flag(help: "Print a JSON array (one object per event; null where no session has it).")
    var json = false

    @Option(help: "Only the sessions of this boat (as recorded with --boat).")
    var boat: String?

    func run() throws {
        let bests = try SessionStore.default.bests(boat: boat)
        StandardStreams.write(json ? bests.json() + "\n" : bests.table())
        for (id, reason) in bests.unreadable {
            StandardStreams.error("note: \(id) left out: \(reason)\n")
        }
    }
}
