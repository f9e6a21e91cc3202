import OarlogCore

/// A note changed after the session (the web app's edit): kept as a `note.edit` event appended to
/// the closed file, so the note as it was typed stays in its chunk and the change is one more
/// record (nothing is rewritten). `SessionReader.notes()` gives every note as last edited.
public struct SessionNoteEdit: Sendable, Equatable {
    /// The note as it stands before this edit.
    public var before: Note
    /// The note after it.
    public var after: Note

    public init(before: Note, after: Note) {
        self.before = before
        self.after = after
    }

    static let eventName = "note.edit"

    /// The event that records the edit (times in Swift's shortest round-trip form: bit-exact).
    public var event: SessionEvent {
        typealias F = SessionMetadata.Setting
        return SessionEvent(time: after.time, name: Self.eventName, fields: [
            F("was_t_s", "\(before.time)"), F("was", before.text), F("t_s", "\(after.time)"), F("text", after.text),
        ])
    }

    /// The edit an event records, if it is one.
    init?(_ event: SessionEvent) {
        guard event.name == Self.eventName else { return nil }
        guard let wasTime = event.field("was_t_s").flatMap(Double.init), let was = event.field("was"),
              let time = event.field("t_s").flatMap(Double.init), time.isFinite, let text = event.field("text") else { return nil }
        self.init(before: Note(time: wasTime, text: was), after: Note(time: time, text: text))
    }

    /// `notes` with `edits` applied in order: each changes the first note equal to its `before`
    /// (an edit whose note is not there — damaged away — changes nothing).
    static func apply(_ edits: [SessionNoteEdit], to notes: [Note]) -> [Note] {
        var notes = notes
        for edit in edits {
            if let i = notes.firstIndex(where: { $0.time == edit.before.time && $0.text == edit.before.text }) {
                notes[i] = edit.after
            }
        }
        return notes
    }
}
