#if canImport(Glibc)
import Glibc
#endif
import Foundation
import OarlogPipeline
import OarlogTrace

/// A club's history brought in (`ArchiveImport`): the command line's paths and the web app's
/// uploaded files go through the same import into the same archive and index.
extension SessionStore {
    /// The largest file the web app takes (`POST /api/import`): a zip of a season fits.
    public static let maximumImportBytes = 64 << 20

    /// `oarlog import PATH…`: files, folders (walked, hidden files left out) and zips, each trace
    /// kept as a session unless imported before. `progress` is told before each file;
    /// `fileSinks` make the sinks that show one file's replay; `shouldStop` ends it early (the
    /// file being read is not kept).
    public func importing(_ paths: [String], boat: String? = nil, options: TraceOpenOptions = TraceOpenOptions(),
                          settings: AnalysisSettings = .defaults, progress: @escaping (ImportProgress) -> Void = { _ in },
                          fileSinks: @escaping () -> [any PipelineSink] = { [] },
                          shouldStop: @escaping () -> Bool = { false }) throws -> ImportSummary {
        _ = try settings.analyzerConfiguration()
        var summary = ImportSummary()
        let work = ArchiveImport(directory: directory, boat: boat, options: options, settings: settings,
                                 progress: progress, fileSinks: fileSinks, shouldStop: shouldStop)
        try work.run(ImportFiles(paths: paths), into: &summary)
        return summary
    }

    /// `POST /api/import?name=FILE`: one uploaded file (a trace or a zip of them), named `name`
    /// (its last path component, cleaned), held in a private temporary file while it is read.
    public func importing(bytes: [UInt8], name: String, boat: String? = nil) throws(SessionStoreError) -> ImportSummary {
        guard bytes.count <= Self.maximumImportBytes else { throw .badRequest("over \(Self.maximumImportBytes >> 20) MiB") }
        let shown = Self.uploadName(name)
        guard !shown.isEmpty else { throw .badRequest("name: the file's name is needed (?name=FILE.csv)") }
        guard !bytes.isEmpty else { throw .badRequest("\(shown): the file is empty") }
        return try Self.unreadable {
            let scratch = try ScratchFolder()
            let path = scratch.path + "/upload"
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
                throw AppError("cannot keep the upload in \(scratch.path)")
            }
            var summary = ImportSummary()
            let work = ArchiveImport(directory: directory, boat: boat, options: TraceOpenOptions(), settings: .defaults,
                                     progress: { _ in }, fileSinks: { [] })
            try work.run(ImportFiles(file: path, shownAs: shown), into: &summary)
            return summary
        }
    }

    /// An uploaded file's name as it is shown and kept: its last path component, without control
    /// characters, at most 200 characters.
    static func uploadName(_ name: String) -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        return String(last.filter { !($0.isASCII && ($0.asciiValue! < 0x20 || $0.asciiValue! == 0x7F)) }.prefix(200))
            .trimmingCharacters(in: .whitespaces)
    }
}
