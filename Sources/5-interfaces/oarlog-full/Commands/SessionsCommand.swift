import ArgumentParser
import OarlogApp
import OarlogCore
import OarlogTerminal

/// `oarlog sessions`: the recorded sessions, newest first, filtered and ordered.
struct Sessions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List the recorded sessions (newest first), search and filter them.",
        discussion: """
            One line each: date (UTC), title, duration, distance, strokes, average rate, average split and \
            the id (what `show`, `play`, `export`, `note` and `delete` take; `last` is the newest). \
            Sessions live in $OARLOG_DATA_DIR/sessions, else $XDG_DATA_HOME/oarlog/sessions, else \
            ~/.local/share/oarlog/sessions.

            The answers come from an index beside the files (.oarlog-index.sqlite): a file saved, \
            noted, renamed, removed or damaged since is read again first, and a deleted index is \
            rebuilt from the files. A damaged file is listed as damaged with the `oarlog recover` hint.

            Filters (all must hold): --search words (each must begin a word of the title, the \
            notes, the course or the names of the places and gates it passed), --from/--to dates \
            (YYYY-MM-DD, whole days in UTC, or YYYY-MM-DDTHH:MMZ), --near LAT,LON[,METRES] (its \
            GPS track's box came within METRES, 500 by default), --min-distance METRES, --rate A-B \
            (average stroke rate), --boat NAME.

            Examples:
              oarlog sessions --search "bridge"
              oarlog sessions --from 2026-05-01 --to 2026-05-31 --sort split
              oarlog sessions --near 51.4920,-0.2370,800 --min-distance 5000
            """
    )

    @Option(help: "Only sessions whose title, notes, course or places have these words (word starts, any case).")
    var search: String?

    @Option(help: "Only sessions that started on or after this day (YYYY-MM-DD, UTC) or time (YYYY-MM-DDTHH:MMZ).")
    var from: String?

    @Option(help: "Only sessions that started on or before this day (YYYY-MM-DD, UTC) or before this time.")
    var to: String?

    @Option(help: "Only sessions whose GPS track came near a place: LAT,LON[,METRES] (500 m by default).")
    var near: String?

    @Option(name: .customLong("min-distance"), help: "Only sessions of at least this many metres.")
    var minDistance: String?

    @Option(help: "Only sessions whose average stroke rate is in A-B (spm), or within 0.5 of one rate.")
    var rate: String?

    @Option(help: "Only the sessions of this boat (as recorded with --boat).")
    var boat: String?

    @Option(help: "Order: date (newest first), distance (longest first) or split (fastest first).")
    var sort: String?

    @Flag(help: "Print a JSON array (one object per session; null for no data).")
    var json = false

    @Flag(help: "Print the data directory and exit.")
    var directory = false

    func run() throws {
        let sessions = SessionStore.default
        if directory {
            StandardStreams.write(sessions.path + "\n")
            return
        }
        let query: SessionQuery
        do {
            query = try SessionQuery(search: search, from: from, to: to, near: near, minimumDistance: minDistance, rate: rate,
                                     boat: boat, sort: sort)
        } catch {
            throw ValidationError("\(error)")
        }
        let list = try sessions.list(query)
        if json {
            StandardStreams.write(list.json() + "\n")
        } else if list.sessions.isEmpty {
            var unfiltered = SessionQuery()
            unfiltered.order = query.order
            let filtered = query != unfiltered
            StandardStreams.write(filtered ? "no session matches\n"
                : "no sessions in \(sessions.path) (record one with `oarlog record`, or `oarlog replay TRACE --save`)\n")
        } else {
            // Titles stored by an older version may hold control characters: escaped, not obeyed.
            StandardStreams.write(StoredText.escapedForTerminal(list.table(), keepingNewlines: true))
        }
    }
}
