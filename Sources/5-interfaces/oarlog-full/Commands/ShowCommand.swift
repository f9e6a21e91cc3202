import ArgumentParser
import OarlogApp
import OarlogCore
import OarlogTerminal

/// `oarlog show SESSION [--strokes] [--json]`: a stored session's summary table.
struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a recorded session's summary (and its strokes and notes).",
        discussion: """
            The figures come from the summary stored at the end of the file, so this is instant for any \
            length of session. A session that was not closed (a power cut) has no stored summary: its \
            figures are then recomputed by replaying its records, and `show` says so. \
            "—" means no data (no GPS: no distance or split; no accelerometer: no strokes).
            Examples:
              oarlog show last
              oarlog show 2026-05-02T07 --strokes
              oarlog show last --json --strokes
            """
    )

    @Argument(help: SessionArgument.help)
    var session: String

    @Flag(help: "Also list every stroke (with --json: `stroke_list`).")
    var strokes = false

    @Flag(help: "Print one JSON object (the keys of `oarlog replay --json`).")
    var json = false

    func run() throws {
        let report = try SessionStore.default.report(session, includeStrokes: strokes)
        for warning in report.warnings { StandardStreams.error("note: \(warning)\n") }
        if json {
            StandardStreams.write(report.json() + "\n")
            return
        }
        if strokes { StandardStreams.write(report.strokeTable() + "\n") }
        // A title or note stored by an older version may hold ESC, BEL or a bidi override: shown
        // as \u{1B}, never sent to the terminal as they are.
        StandardStreams.write(StoredText.escapedForTerminal(report.table(), keepingNewlines: true))
    }
}
