import OarlogCore

/// What an import did, file by file: `oarlog import` prints it, `--json` and `POST /api/import`
/// give it as JSON. A file is named as the person gave it (a zip's entry as `ZIP/ENTRY`).
public struct ImportSummary: Sendable, Equatable {
    /// A file kept as a new session.
    public struct Imported: Sendable, Equatable {
        public var file: String
        /// The new session's id.
        public var session: String
        public var startUTC: Double
    }

    /// A file already in the archive (same device and start, or same content): not added again.
    public struct Duplicate: Sendable, Equatable {
        public var file: String
        /// The session it was imported as before.
        public var session: String
    }

    /// A file that could not be imported, and why.
    public struct Refused: Sendable, Equatable {
        public var file: String
        public var error: String
    }

    public internal(set) var imported: [Imported] = []
    public internal(set) var duplicates: [Duplicate] = []
    public internal(set) var refused: [Refused] = []
    /// Files found in a folder or a zip that are of no trace format (a photo, a PDF): passed over.
    public internal(set) var otherFiles = 0
    /// Files left unread because the person stopped the import (the one being read included).
    public internal(set) var notRead = 0

    public init() {}

    /// `{"imported": [{"file", "session", "start_utc"}], "duplicates": [{"file", "session"}],
    /// "refused": [{"file", "error"}], "other_files": N}`.
    public func json() -> String {
        var w = JSONWriter()
        w.beginObject()
        w.beginArray(key: "imported")
        for i in imported {
            w.beginObject()
            w.field("file", i.file)
            w.field("session", i.session)
            w.field("start_utc", UTCTime.iso8601(i.startUTC))
            w.endObject()
        }
        w.endArray()
        w.beginArray(key: "duplicates")
        for d in duplicates {
            w.beginObject()
            w.field("file", d.file)
            w.field("session", d.session)
            w.endObject()
        }
        w.endArray()
        w.beginArray(key: "refused")
        for r in refused {
            w.beginObject()
            w.field("file", r.file)
            w.field("error", r.error)
            w.endObject()
        }
        w.endArray()
        w.field("other_files", otherFiles)
        if notRead > 0 { w.field("not_read", notRead) }
        w.endObject()
        return w.take()
    }

    /// The lines a person reads at the end: the counts, then each refused file with why.
    public func text() -> String {
        var out = "imported \(imported.count), skipped as duplicates \(duplicates.count), refused \(refused.count)"
        if otherFiles > 0 { out += " (\(otherFiles) other file\(otherFiles == 1 ? "" : "s") passed over: not a trace)" }
        out += "\n"
        if notRead > 0 { out += "stopped: \(notRead) file\(notRead == 1 ? "" : "s") not read (import again to read them)\n" }
        for r in refused { out += "refused \(StoredText.escapedForTerminal(r.file)): \(StoredText.escapedForTerminal(r.error))\n" }
        return out
    }
}

/// Where an import is, for a progress bar: the file about to be read, and how many of how many.
public struct ImportProgress: Sendable {
    public var file: String
    /// Files done before this one.
    public var done: Int
    public var total: Int
}
