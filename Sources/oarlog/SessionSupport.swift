#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import OarlogCore
import OarlogDSP
import OarlogReport
import OarlogSession
import OarlogSimulator

/// Shared by the session commands (record, sessions, show, play, export, note, delete).
enum SessionSupport {
    /// The file SESSION names (a path, an id or id prefix in the data directory, or `last`), or a
    /// ValidationError that says where it looked.
    static func resolve(_ reference: String) throws -> String {
        do {
            return try SessionDirectory.default.resolve(reference)
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    /// Opens a session for reading, with a message that names the file on failure.
    static func open(_ reference: String) throws -> SessionReader {
        let path = try resolve(reference)
        do {
            return try SessionReader(path: path)
        } catch {
            throw CommandFailure("\(error)")
        }
    }

    /// `12:30` (m:ss), `1:02:30` (h:mm:ss), `750` or `750s` → seconds; decimals allowed in the
    /// last field.
    static func parseTime(_ text: String) -> Seconds? {
        var t = text.filter { !$0.isWhitespace }
        if t.hasSuffix("s") { t.removeLast() }
        let parts = t.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), let last = Double(parts[parts.count - 1]), last >= 0, last.isFinite else { return nil }
        var total = last
        var scale = 60.0
        for part in parts.dropLast().reversed() {
            guard let v = Int(part), v >= 0 else { return nil }
            if parts.count > 1 && part != parts[0] && v >= 60 { return nil }
            total += Double(v) * scale
            scale *= 60
        }
        if parts.count > 1 && last >= 60 { return nil }
        return total
    }

    /// The analysis settings a session was recorded with, as `AnalysisOptions` (defaults for
    /// those it does not name), so replaying it gives the same figures.
    static func analysisOptions(for metadata: SessionMetadata) throws -> AnalysisOptions {
        var arguments: [String] = []
        for s in metadata.settings {
            switch s.key {
            case "axis": arguments += ["--axis", s.value]
            case "split_averaging": arguments += ["--split-averaging", s.value]
            case "strokes_from": arguments += ["--strokes-from", s.value]
            default: break
            }
        }
        return (try? AnalysisOptions.parse(arguments)) ?? AnalysisOptions.parseOrDefault()
    }

    /// The settings recorded in a session's metadata.
    static func settings(_ options: AnalysisOptions) -> [SessionMetadata.Setting] {
        [.init("axis", options.axis), .init("split_averaging", options.splitAveraging), .init("strokes_from", options.strokesFrom)]
    }

    /// `2026-05-02 07:00` (UTC).
    static func dateText(_ utc: Double) -> String {
        let iso = UTCTime.iso8601(utc)
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(5))
    }

    /// `2026-05-02T07:00:00Z`.
    static func isoText(_ utc: Double) -> String {
        String(UTCTime.iso8601(utc).prefix(19)) + "Z"
    }

    /// `1.2 MB`.
    static func sizeText(_ bytes: Int) -> String {
        if bytes >= 1 << 20 { return RowingFormat.fixed(Double(bytes) / Double(1 << 20), places: 1) + " MB" }
        if bytes >= 1 << 10 { return RowingFormat.fixed(Double(bytes) / Double(1 << 10), places: 1) + " KB" }
        return "\(bytes) bytes"
    }

    /// The oarlog version written into new sessions.
    static let softwareVersion = "oarlog 0.5"
}

extension AnalysisOptions {
    /// The defaults.
    static func parseOrDefault() -> AnalysisOptions {
        // Parsing no arguments cannot fail: every option has a default.
        (try? AnalysisOptions.parse([]))!
    }
}

extension SessionSupport {
    /// The session id of a path (its file name without `.oarlog`).
    static func id(of path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let suffix = "." + SessionFormat.fileExtension
        return name.hasSuffix(suffix) ? String(name.dropLast(suffix.count)) : name
    }
}

/// A source with a few records put in front (e.g. a session's `start_utc` before its records, so
/// exporters place it in UTC even without GPS time).
struct Prepended<Rest: RecordSource>: RecordSource {
    var first: [TraceRecord]
    var rest: Rest
    private var position = 0
    init(_ first: [TraceRecord], _ rest: Rest) {
        self.first = first
        self.rest = rest
    }
    mutating func next() throws -> TraceRecord? {
        if position < first.count {
            position += 1
            return first[position - 1]
        }
        return try rest.next()
    }
    /// The rest's batch path once `first` is all given (0 before, so `next()` gives it first).
    mutating func nextAccelBatch(into buffer: UnsafeMutableBufferPointer<AccelSample>) throws -> Int {
        guard position >= first.count else { return 0 }
        return try rest.nextAccelBatch(into: buffer)
    }
}

extension SessionSupport {
    /// A session's records for a replay (export, play): notes in time order, damage skipped,
    /// `start_utc` first.
    static func replaySource(_ reader: SessionReader) throws -> Prepended<NotesInTimeOrder> {
        Prepended([.metadata(key: "start_utc", value: UTCTime.iso8601(reader.metadata.startUTC))],
                  try reader.recordsInTimeOrder(onDamage: .skipDamagedChunks))
    }

    /// The session a command-line argument names, if it names one: an existing file that is a
    /// session, or (when no such file exists) `last`, an id or id prefix in the data directory.
    static func sessionIfAny(_ argument: String) -> SessionReader? {
        if access(argument, F_OK) == 0 { return try? SessionReader(path: argument) }
        guard let path = try? SessionDirectory.default.resolve(argument) else { return nil }
        return try? SessionReader(path: path)
    }
}

/// A command that could not do its work (no such session, a damaged file, a missing sensor):
/// printed as "Error: …" with exit status 1, without the usage text a mistyped option gets.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
