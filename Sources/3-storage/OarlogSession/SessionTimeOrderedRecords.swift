import OarlogCore

extension SessionReader {
    /// Every note in the session, in time order (notes typed live and notes added afterwards
    /// with `SessionAppend`), each as last edited (`SessionNoteEdit`). Only note records and
    /// events are decoded.
    public func notes(onDamage: DamagePolicy = .throwError) throws -> [Note] {
        var out: [Note] = []
        var edits: [SessionNoteEdit] = []
        var it = entries(onDamage: onDamage)
        try it.forEachChunkRecord { kind, r in
            if kind == RecordKind.note.rawValue { out.append(Note(time: try r.f64(), text: try r.string())) }
            if kind == RecordKind.event.rawValue, let edit = SessionNoteEdit(try RecordCoding.decodeEvent(&r)) { edits.append(edit) }
        }
        return stableSortedByTime(SessionNoteEdit.apply(edits, to: out))
    }

    /// The raw records for a replay, with every note placed at its time (a note added after the
    /// fact sits at the end of the file). From `time` on, if given.
    public func recordsInTimeOrder(from time: Seconds? = nil, onDamage: DamagePolicy = .throwError) throws -> NotesInTimeOrder {
        var notes = try self.notes(onDamage: onDamage)
        if let time { notes.removeAll { !($0.time >= time) } }
        return NotesInTimeOrder(records: records(from: time, onDamage: onDamage), notes: notes)
    }
}

/// Sorts by time, keeping the order of equal times.
func stableSortedByTime(_ notes: [Note]) -> [Note] {
    notes.enumerated().sorted { a, b in
        a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
    }.map(\.element)
}

/// A record source that takes the notes out of `records` and puts each one back just before the
/// first record that is later than it. Everything else passes in its recorded order.
public struct NotesInTimeOrder: RecordSource {
    public private(set) var records: SessionRecordSource
    private let notes: [Note]
    private var nextNote = 0
    private var held: TraceRecord?

    init(records: SessionRecordSource, notes: [Note]) {
        self.records = records
        self.notes = notes
    }

    public mutating func next() throws -> TraceRecord? {
        // Written with plain locals: Swift 6.3.1's optimizer (-O, CopyPropagation) crashed on an
        // earlier form of this loop that borrowed `held` across a `switch` on the record kind.
        var current = held
        held = nil
        while current == nil {
            guard let r = try records.next() else { break }
            if !r.isNote { current = r }
        }
        if nextNote < notes.count {
            let note = notes[nextNote]
            var noteFirst = true
            if let current, let t = current.time { noteFirst = note.time < t } else if current != nil { noteFirst = false }
            if noteFirst {
                nextNote += 1
                held = current
                return .note(note)
            }
        }
        return current
    }
}

extension TraceRecord {
    /// Whether this is a coxswain's note.
    var isNote: Bool {
        if case .note = self { return true }
        return false
    }
}
