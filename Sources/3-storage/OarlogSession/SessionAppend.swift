#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import OarlogCore

/// Why notes could not be added.
public enum SessionAppendError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file has no index and summary (cut short): it must be recovered first.
    case notClosed(path: String)
    public var description: String {
        switch self {
        case .notClosed(let path):
            return "\(path) was not closed normally (no index or summary): recover it first with `oarlog recover \(path) --in-place`"
        }
    }
}

/// What one append adds: notes and events (a note's edit: `SessionNoteEdit`), in one chunk.
public struct SessionAddition: Sendable, Equatable {
    public var notes: [Note]
    public var events: [SessionEvent]

    public init(notes: [Note] = [], events: [SessionEvent] = []) {
        self.notes = notes
        self.events = events
    }
}

/// Adds notes to a session after it was closed (`oarlog note SESSION "text" --at 12:30`).
///
/// A closed file ends with index, summary, footer and magic. Appending writes, from the end of
/// the data on, one new chunk holding the notes, then a fresh index (the same entries: the note
/// chunk is not indexed, so seeking stays ordered by time), a summary with the note counted and
/// the analyzer's totals kept, a footer and the magic — all in one write over the old tail, then
/// fsync. The new tail is longer than the old one (it holds the new chunk), so the file only
/// grows: a reader that mapped it keeps every page it mapped.
///
/// One change at a time: the append holds the session's exclusive `SessionFileLock` from reading
/// the tail to the fsync, so concurrent notes, edits, renames and deletes (from the server or the
/// command line) each see the file as the one before left it, readers never open it half-written,
/// and a note for a session deleted meanwhile fails with `SessionLockError.removed`.
///
/// Crash safety: the original chunks are never rewritten. A cut during the append leaves either
/// the old file, or the original chunks (plus perhaps the note chunk) without a tail — a file
/// that readers scan linearly and `oarlog recover` restores (keeping the summary frame if it
/// reached the disk). A failed write puts the old tail back and cuts what it added.
///
/// A note lands after the session's last chunk, so readers meet it out of time order; replay
/// through `SessionReader.recordsInTimeOrder(from:)`, which places every note at its time.
/// Note texts are stored as `StoredText.cleaned` gives them (no control characters).
public enum SessionAppend {
    /// Appends `notes` to the closed session at `path`; returns the new summary.
    @discardableResult
    public static func append(notes: [Note], to path: String, sync: Bool = true) throws -> RecordedSummary {
        try append(notes: notes, events: [], to: path, sync: sync)
    }

    /// Appends `notes` and `events` (a note's edit: `SessionNoteEdit`) to the closed session at
    /// `path` in one chunk; returns the new summary.
    @discardableResult
    public static func append(notes: [Note], events: [SessionEvent], to path: String, sync: Bool = true) throws -> RecordedSummary {
        try append(to: path, sync: sync) { _ in SessionAddition(notes: notes, events: events) }.summary
    }

    /// Locks the closed session at `path`, asks `make` — which sees the session as it stands,
    /// after every change before this one — what to add, and appends it. Returns what was added
    /// (the notes as stored) and the new summary. An error `make` throws is passed on, with the
    /// session unchanged.
    public static func append(to path: String, sync: Bool = true,
                              _ make: (SessionReader) throws -> SessionAddition) throws -> (added: SessionAddition, summary: RecordedSummary) {
        try SessionFileLock.withExclusive(path) {
            let reader = try SessionReader(path: path, lockedForOpening: false)
            guard reader.isComplete, let summary = reader.summary else {
                throw SessionAppendError.notClosed(path: path)
            }
            var addition = try make(reader)
            addition.notes = addition.notes.map { Note(time: $0.time, text: StoredText.cleaned($0.text)) }
            guard !addition.notes.isEmpty || !addition.events.isEmpty else { return (addition, summary) }
            return (addition, try write(addition, to: reader, summary: summary, sync: sync))
        }
    }

    /// Writes `addition` over the tail of the locked, closed session `reader` reads.
    private static func write(_ addition: SessionAddition, to reader: SessionReader, summary: RecordedSummary,
                              sync: Bool) throws -> RecordedSummary {
        let path = reader.path
        var summary = summary
        let scanner = FrameScanner(file: reader.file)
        let (stride, entries) = try readIndex(scanner, reader: reader)
        let sequence = try nextSequence(scanner, reader: reader, from: entries.last?.offset ?? reader.dataStart)
        let (chunk, added) = noteChunk(addition, sequence: sequence)
        summary.statistics.add(added)

        // The new tail after the chunk.
        let dataEnd = reader.dataEnd
        let newDataEnd = dataEnd + chunk.count
        var bytes = ByteWriter(capacity: chunk.count + 64 << 10)
        bytes.raw(chunk)
        // The index as it was (the note chunk is not indexed), the updated summary, the footer.
        SessionTail.encode(index: SparseChunkIndex(stride: stride, entries: entries), summary: summary,
                           dataEnd: newDataEnd, into: &bytes)

        let oldTail = try reader.file.bytes(at: dataEnd, count: reader.fileSize - dataEnd)
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        if fd < 0 { throw SessionError.io(path: path, operation: "opening for a note", errno: errno, detail: "the session is unchanged") }
        defer { _ = close(fd) }
        func fail(_ operation: String, _ code: Int32) -> SessionError {
            // Put the old tail back so the file stays the closed session it was, at its old size.
            _ = oldTail.withUnsafeBytes { writeAll(fd, $0, at: dataEnd) }
            _ = ftruncate(fd, off_t(reader.fileSize))
            _ = fsync(fd)
            return SessionError.io(path: path, operation: operation, errno: code, detail: "the session is unchanged")
        }
        if let code = bytes.bytes.withUnsafeBytes({ writeAll(fd, $0, at: dataEnd) }) { throw fail("appending a note to", code) }
        let newSize = dataEnd + bytes.count
        // Never taken (a new tail holds a whole chunk more than the old), but a file must end at its magic.
        if newSize < reader.fileSize && ftruncate(fd, off_t(newSize)) != 0 { throw fail("cutting the old tail of", errno) }
        if sync && fsync(fd) != 0 { throw fail("syncing", errno) }
        return summary
    }

    /// The chunk that holds `addition` (notes in time order, then the events), and what it adds
    /// to the session's statistics.
    private static func noteChunk(_ addition: SessionAddition, sequence: UInt32) -> (ByteWriter, SessionStatistics) {
        let ordered = addition.notes.sorted { $0.time < $1.time }
        let events = addition.events
        let times = ordered.map(\.time) + events.map(\.time)
        var chunk = FrameBuilder(capacity: 256)
        chunk.begin(.chunk)
        chunk.w.u32(sequence)
        chunk.w.f64(times.min() ?? .nan)
        chunk.w.f64(times.max() ?? .nan)
        chunk.w.u32(UInt32(ordered.count + events.count))
        chunk.w.u32(0)
        var payload = ByteWriter(capacity: 128)
        for note in ordered {
            payload.removeAll()
            payload.f64(note.time)
            payload.string(note.text)
            chunk.w.u8(RecordKind.note.rawValue)
            chunk.w.varint(UInt64(payload.count))
            chunk.w.raw(payload)
        }
        for event in events {
            payload.removeAll()
            RecordCoding.encodeEvent(event, into: &payload)
            chunk.w.u8(RecordKind.event.rawValue)
            chunk.w.varint(UInt64(payload.count))
            chunk.w.raw(payload)
        }
        chunk.end()

        var added = SessionStatistics()
        added.chunks = 1
        added.notes = ordered.count
        added.events = events.count
        for t in times { added.see(t) }
        return (chunk.w, added)
    }

    /// Writes all of `buffer` at `offset`; the errno on failure.
    private static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, at offset: Int) -> Int32? {
        var done = 0
        while done < buffer.count {
            let n = pwrite(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            done += n
        }
        return nil
    }

    /// The index's stride and entries, from the footer.
    private static func readIndex(_ scanner: FrameScanner, reader: SessionReader) throws -> (Int, [ChunkIndexEntry]) {
        let footerOffset = reader.fileSize - SessionFormat.tailSize
        guard case .frame(let kind, let payload, _) = try scanner.frame(at: footerOffset), kind == FrameKind.footer.rawValue else {
            throw SessionError.damaged(path: reader.path, offset: footerOffset, detail: "the footer changed while it was read")
        }
        var r = ByteReader(payload)
        let footer = try Footer.decode(&r)
        guard case .frame(let ik, let ip, _) = try scanner.frame(at: Int(footer.indexOffset)), ik == FrameKind.index.rawValue else {
            throw SessionError.damaged(path: reader.path, offset: Int(footer.indexOffset), detail: "the index cannot be read")
        }
        var ir = ByteReader(ip)
        return try SparseChunkIndex.decode(&ir)
    }

    /// One more than the highest chunk sequence number (the index is sparse: the chunks after
    /// its last entry are read).
    private static func nextSequence(_ scanner: FrameScanner, reader: SessionReader, from start: Int) throws -> UInt32 {
        var offset = start
        var next: UInt32 = 0
        while offset < reader.dataEnd {
            guard case .frame(let kind, let payload, let after) = try scanner.frame(at: offset) else {
                throw SessionError.damaged(path: reader.path, offset: offset, detail: "a chunk cannot be read")
            }
            if kind == FrameKind.chunk.rawValue {
                var r = ByteReader(payload)
                let header = try ChunkHeader.decode(&r)
                next = max(next, header.sequence &+ 1)
            }
            offset = after
        }
        return next
    }
}
