#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import OarlogArchive
import OarlogCore
import OarlogSession

/// The session directory with its index beside the files (`.oarlog-index.sqlite` in the
/// directory): opening it brings the index up to date with the files — a file added, changed
/// (a note appended, a recording still going), renamed or removed behind its back is read again
/// or dropped, by its size and modification time — so a save, a note, a rename and a delete are
/// all in the next answer, whoever made them. The files stay the source of truth: a missing,
/// damaged or outdated index is rebuilt from them, and a directory where the index cannot be
/// written is indexed in memory.
public struct SessionArchive {
    public static let indexFileName = ".oarlog-index.sqlite"

    public let directory: SessionDirectory
    public let index: SessionIndex
    /// What the last `sync` did.
    public private(set) var lastSync = SyncReport()

    public struct SyncReport: Sendable, Equatable {
        public var read = 0
        public var removed = 0
        public var unchanged = 0
    }

    /// Opens the directory's index (creating or rebuilding it as needed) and syncs it.
    public init(_ directory: SessionDirectory = .default) throws {
        self.directory = directory
        index = try Self.openIndex(directory)
        try sync()
    }

    static func openIndex(_ directory: SessionDirectory) throws -> SessionIndex {
        guard access(directory.path, W_OK) == 0 else { return try SessionIndex(path: nil) }
        let path = directory.path + "/" + indexFileName
        if let index = try? SessionIndex(path: path) { return index }
        // Not an index we can use (damaged, or not a database at all): start it again.
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        if let index = try? SessionIndex(path: path) { return index }
        return try SessionIndex(path: nil)
    }

    /// Reads the files that are new or changed since the index last saw them and forgets the
    /// ones that are gone. Files are read one at a time and written in batches, so memory stays
    /// flat however many there are.
    @discardableResult
    public mutating func sync() throws -> SyncReport {
        var report = SyncReport()
        var known = try index.fileIdentities()
        var batch: [ArchivedSession] = []
        for file in try Self.sessionFiles(directory) {
            let old = known.removeValue(forKey: file.id)
            if let old, old.sizeBytes == file.sizeBytes, old.modifiedNanoseconds == file.modifiedNanoseconds {
                report.unchanged += 1
                continue
            }
            batch.append(ArchivedSession(reading: file))
            report.read += 1
            if batch.count == 64 {
                try index.update(batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        try index.update(batch, removing: Array(known.keys))
        report.removed = known.count
        lastSync = report
        return report
    }

    /// A session file's name and identity (size, modification time).
    struct SessionFile {
        var id: String
        var path: String
        var sizeBytes: Int
        var modifiedNanoseconds: Int64
    }

    static func sessionFiles(_ directory: SessionDirectory) throws -> [SessionFile] {
        guard let dir = opendir(directory.path) else {
            if errno == ENOENT { return [] }
            throw AppError("cannot list \(directory.path): \(String(cString: strerror(errno)))")
        }
        defer { closedir(dir) }
        let suffix = "." + SessionFormat.fileExtension
        var files: [SessionFile] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            guard name.hasSuffix(suffix), !name.hasPrefix(".") else { continue }
            let path = directory.path + "/" + name
            var st = stat()
            guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { continue }
            files.append(SessionFile(id: String(name.dropLast(suffix.count)), path: path, sizeBytes: Int(st.st_size),
                                     modifiedNanoseconds: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)))
        }
        return files
    }

    /// How many session files the directory holds (without reading them).
    public static func sessionFileCount(_ directory: SessionDirectory) throws -> Int {
        try sessionFiles(directory).count
    }

    // MARK: Questions

    public func sessions(_ query: SessionQuery = SessionQuery()) throws -> [ArchivedSession] {
        try index.sessions(query)
    }
}
