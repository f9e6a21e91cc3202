import ArgumentParser
import OarlogApp
import OarlogCore
import OarlogTerminal

/// `oarlog note SESSION "text" [--at 12:30]`: a note added after the fact.
struct NoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "note",
        abstract: "Add a note to a recorded session, at a time of the session.",
        discussion: """
            The note is appended to the closed session file (its records are not rewritten) and shows in \
            `show`, `play` and the exports like a note typed during the outing. Without --at it goes at \
            the end of the session. A session that was not closed must be recovered first \
            (`oarlog recover SESSION --in-place`).
            Examples:
              oarlog note last "bow side rushing the slide"
              oarlog note last "new rigging" --at 0
              oarlog note 2026-05-02T07 "seat 3 cramp" --at 12:30
            """
    )

    @Argument(help: SessionArgument.help)
    var session: String

    @Argument(help: "The note.")
    var text: String

    @Option(help: "Session time of the note: 12:30 (m:ss), 1:02:30 (h:mm:ss) or seconds (default: the end).")
    var at: String?

    func validate() throws {
        _ = try sessionTimeOption(at, name: "at")
        if StoredText.cleaned(text).isEmpty { throw ValidationError("the note is empty") }
    }

    func run() throws {
        let asked = try sessionTimeOption(at, name: "at")
        let done: (note: Note?, end: Seconds, path: String)
        do { done = try SessionStore.default.addNote(to: session, text: text, at: asked) } catch {
            throw CommandFailure("\(error)")
        }
        if let asked, asked > done.end + 1 {
            StandardStreams.error("note: \(RowingFormat.duration(asked)) is after the end of the session (\(RowingFormat.duration(done.end)))\n")
        }
        guard let note = done.note else { return }
        // As stored: control characters are not kept (StoredText).
        StandardStreams.write("added a note at \(RowingFormat.duration(note.time)) to \(SessionText.id(of: done.path)): \(note.text)\n")
    }
}
