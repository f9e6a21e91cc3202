#if canImport(Glibc)
import Glibc
#endif
import Foundation
import OarlogArchive
import OarlogCore
import OarlogPipeline
import OarlogSession
import OarlogTrace

/// A club's history brought into the archive (`oarlog import`, `POST /api/import`): each trace
/// file, in any format the trace readers know, replayed through the pipeline and kept as a
/// session — placed at the start the file gives (`start_utc`, else `start_local`, else the
/// file's or zip entry's modification time), titled by its `session_name` or its file name,
/// with the boat given — and put in the archive's index at once, so `oarlog bests`, the race list
/// and comparisons see it. A file already imported (its `ImportKey` in the index) is a duplicate
/// and adds nothing; a file that cannot be read is refused with why, and the others go on.
struct ArchiveImport {
    /// The setting a session keeps its import key in (`setting.import_key` in its metadata).
    static let keySetting = "import_key"

    let directory: SessionDirectory
    var boat: String?
    var options: TraceOpenOptions
    var settings: AnalysisSettings
    /// Called before each file (and once at the end with `done == total`).
    var progress: (ImportProgress) -> Void
    /// Pipeline sinks to show one file's replay (a progress bar), made afresh per file.
    var fileSinks: () -> [any PipelineSink]
    /// True once the person has asked to stop (Ctrl-C): the file being read is dropped (no
    /// half session is kept) and the rest are not read.
    var shouldStop: () -> Bool = { false }

    /// Imports `files`, adding to `summary`.
    func run(_ files: ImportFiles, into summary: inout ImportSummary) throws {
        summary.refused += files.refused
        summary.otherFiles += files.otherFiles
        guard !files.items.isEmpty else { return }
        try directory.createIfNeeded()
        let archive = try SessionArchive(directory)
        let scratch = try ScratchFolder()
        var budget = ZipLimits().maximumTotalBytes
        for (n, item) in files.items.enumerated() {
            if shouldStop() {
                summary.notRead += files.items.count - n
                break
            }
            switch item {
            case .file(let path, let shown, let named):
                progress(ImportProgress(file: shown, done: n, total: files.items.count))
                importFile(path, shownAs: shown, named: named, fallbackStart: nil, archive: archive, into: &summary)
            case .zipEntry(let zip, let entry, let shown):
                progress(ImportProgress(file: shown, done: n, total: files.items.count))
                let path = scratch.path + "/entry-\(n)"
                defer { unlink(path) }
                do { try zip.extract(entry, to: path, budget: &budget) } catch {
                    summary.refused.append(.init(file: shown, error: "\(error)"))
                    continue
                }
                importFile(path, shownAs: shown, named: false, fallbackStart: entry.modifiedUTC, archive: archive, into: &summary)
            }
        }
        progress(ImportProgress(file: "", done: files.items.count, total: files.items.count))
    }

    /// One trace: refused with why, passed over (not a trace, found in a folder or zip), a
    /// duplicate, or imported and indexed.
    private func importFile(_ path: String, shownAs shown: String, named: Bool, fallbackStart: Double?,
                            archive: SessionArchive, into summary: inout ImportSummary) {
        /// The error in words, the file named as the person gave it (not a temporary copy's path).
        func reason(_ error: any Error) -> String {
            if let e = error as? TraceError, e.file == path {
                return (e.line.map { "line \($0)" + (e.column.map { ", column \($0)" } ?? "") + ": " } ?? "") + e.message
            }
            return "\(error)".replacingOccurrences(of: path, with: shown)
        }
        if !named, Self.isNotATrace(path, shownAs: shown) {
            summary.otherFiles += 1
            return
        }
        do {
            var replay = try TraceReplay(path: path, options: options, settings: settings)
            let input = replay.input
            let traceStart = input.startUTC ?? input.metadata("start_local").flatMap(UTCTime.parseTypedUTC)
            let key = try ImportKey.make(metadata: { input.metadata($0) }, traceStart: traceStart, path: path)
            if let session = try archive.index.session(importKey: key) {
                summary.duplicates.append(.init(file: shown, session: session))
                return
            }
            let start = traceStart ?? fallbackStart ?? TraceInput.modificationTime(path) ?? 0
            let writer = try writer(for: input, shownAs: shown, start: start, key: key)
            do {
                _ = try replay.run(sinks: fileSinks(), saveTo: writer, shouldStop: shouldStop)
            } catch {
                unlink(writer.path)
                throw error
            }
            if shouldStop() {  // cut short: not kept, and read again by the next run
                unlink(writer.path)
                summary.notRead += 1
                return
            }
            try index(writer.path, in: archive)
            summary.imported.append(.init(file: shown, session: SessionText.id(of: writer.path), startUTC: start))
        } catch {
            summary.refused.append(.init(file: shown, error: reason(error)))
        }
    }

    /// The new session's writer: titled by the trace's `session_name` or the file's name, at
    /// `start`, with the boat, the analysis settings, where it came from and its import key.
    private func writer(for input: TraceInput, shownAs shown: String, start: Double, key: String) throws -> SessionWriter {
        let fileName = shown.split(separator: "/").last.map(String.init) ?? shown
        var devices = ["import of \(shown)" + (input.format.map { " (\($0.rawValue))" } ?? "")]
        if let device = input.metadata("device") ?? input.metadata("device_model") {
            devices.append("device: " + device + (input.metadata("device_serial").map { " #" + $0 } ?? ""))
        }
        var metadata = SessionMetadata(
            title: StoredText.cleaned(input.metadata("session_name") ?? fileName), startUTC: start, devices: devices,
            softwareVersion: SessionSaving.softwareVersion,
            settings: settings.sessionSettings + [.init("imported_from", shown), .init(Self.keySetting, key)])
        metadata.boat = boat?.trimmingWhitespace() ?? ""
        return try SessionWriter.create(in: directory, metadata: metadata, options: SessionWriter.Options(durability: .syncAtClose))
    }

    /// The new session in the index at once, so the next file's duplicate check (and `bests`) sees it.
    private func index(_ path: String, in archive: SessionArchive) throws {
        var st = stat()
        guard stat(path, &st) == 0 else { throw AppError("\(path): \(String(cString: strerror(errno)))") }
        let file = SessionArchive.SessionFile(id: SessionText.id(of: path), path: path, sizeBytes: Int(st.st_size),
                                              modifiedNanoseconds: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec))
        try archive.index.update([ArchivedSession(reading: file)])
    }

    /// What a folder of a club's exports holds besides traces, passed over by name: notes,
    /// documents, pictures, Oarlog's own sessions and courses.
    static let otherExtensions: Set<String> = ["md", "pdf", "doc", "docx", "xls", "xlsx", "odt", "ods", "rtf", "html", "htm",
                                               "jpg", "jpeg", "png", "gif", "heic", "webp", "svg", "mov", "mp4", "json", "geojson",
                                               "oarlog", "sqlite", "gz", "zip"]

    /// A file found in a folder or a zip that no trace reader takes: by its name (a note, a
    /// picture), or empty, binary, or of no format detected. A trace of a known kind that is refused (a
    /// summary-only export, a damaged one) is not this: its refusal is reported.
    static func isNotATrace(_ path: String, shownAs shown: String) -> Bool {
        let name = shown.split(separator: "/").last.map { $0.lowercased() } ?? ""
        if let dot = name.lastIndex(of: "."), otherExtensions.contains(String(name[name.index(after: dot)...])) { return true }
        do {
            _ = try TraceOpener.detectFormat(path: path)
            return false
        } catch let error as TraceError {
            switch error.kind {
            case .empty, .notText: return true
            case .unsupportedFormat: return error.message.hasPrefix("unrecognised trace format")
            default: return false
            }
        } catch {
            return false
        }
    }
}

/// A private folder (0700) for a zip's entries and an upload, removed with what is in it.
final class ScratchFolder {
    let path: String

    init() throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/oarlog-import-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw AppError("cannot make a temporary folder in \(base): \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
