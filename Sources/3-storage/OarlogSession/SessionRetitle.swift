#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import OarlogCore

/// Gives a closed session a new title (the web app's rename). The title lives in the metadata
/// frame at the head of the file, so the session is copied: the preamble, a new metadata frame,
/// then every frame after the old one byte for byte; `SessionRecovery` then writes it back with a
/// fresh index (the chunks moved) through a temporary file renamed into place. The file name —
/// the session's id — does not change. A failure leaves the session as it was.
///
/// The rename holds the session's exclusive `SessionFileLock` throughout, so a note posted
/// meanwhile waits and then goes into the renamed file (never into the copy being replaced), and
/// a rename of a session deleted meanwhile fails with `SessionLockError.removed` instead of
/// bringing it back. The temporary files are hidden, named for this call only, and removed on
/// failure. The title is stored as `StoredText.cleaned` gives it.
public enum SessionRetitle {
    /// Renames the session at `path`; returns a reader of the renamed session (opened before
    /// anything else could change it).
    @discardableResult
    public static func retitle(_ path: String, to title: String, sync: Bool = true) throws -> SessionReader {
        try SessionFileLock.withExclusive(path) {
            let reader = try SessionReader(path: path, lockedForOpening: false)
            guard reader.isComplete else { throw SessionAppendError.notClosed(path: path) }
            var metadata = reader.metadata
            metadata.title = StoredText.cleaned(title)
            let copy = SessionFileLock.temporaryPath(for: path, purpose: "retitle")
            defer { unlink(copy) }
            try writeCopy(of: reader, with: metadata, to: copy)
            let report = try SessionRecovery.recover(copy, to: path, sync: sync)
            guard report.outcome != .unrecoverable else {
                throw SessionError.io(path: path, operation: "retitling", errno: EIO, detail: "the copy could not be read back; the session is unchanged")
            }
            return try SessionReader(path: path, lockedForOpening: false)
        }
    }

    /// The session `reader` reads with `metadata` instead of its own, written to `copy`.
    private static func writeCopy(of reader: SessionReader, with metadata: SessionMetadata, to copy: String) throws {
        let out = try AppendFile(creating: copy)
        try SessionHeader.bytes(for: metadata).withUnsafeBytes { try out.append($0, what: "the new title") }
        var offset = reader.dataStart
        while offset < reader.fileSize {
            let bytes = try reader.file.bytes(at: offset, count: min(1 << 20, reader.fileSize - offset))
            if bytes.isEmpty { break }
            try bytes.withUnsafeBytes { try out.append($0, what: "the session's data") }
            offset += bytes.count
        }
        try out.close()
    }
}
