import ArgumentParser
import OarlogApp
import OarlogReport
import OarlogSession

/// `oarlog sessions`: the recorded sessions, newest first.
struct Sessions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List the recorded sessions, newest first.",
        discussion: """
            One line each: date (UTC), title, duration, distance, strokes, average rate, average split and \
            the id (what `show`, `play`, `export`, `note` and `delete` take; `last` is the newest). \
            Sessions live in $OARLOG_DATA_DIR/sessions, else $XDG_DATA_HOME/oarlog/sessions, else \
            ~/.local/share/oarlog/sessions. Only each file's start and end are read.
            """
    )

    @Flag(help: "Print a JSON array (one object per session; null for no data).")
    var json = false

    @Flag(help: "Print the data directory and exit.")
    var directory = false

    func run() throws {
        let dir = SessionDirectory.default
        if directory {
            StandardStreams.write(dir.path + "\n")
            return
        }
        let list = try SessionList(dir)
        if json {
            StandardStreams.write(list.json() + "\n")
        } else if list.listings.isEmpty {
            StandardStreams.write("no sessions in \(dir.path) (record one with `oarlog record`, or `oarlog replay TRACE --save`)\n")
        } else {
            StandardStreams.write(list.table())
        }
    }
}
