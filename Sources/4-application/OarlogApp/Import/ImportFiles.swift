#if canImport(Glibc)
import Glibc
#endif

/// The files an import reads, found before any is read (so the progress knows the total): each
/// path a person gives — a file, a folder walked recursively, a zip opened — becomes items. Hidden
/// files and folders are passed over; symbolic links to folders are not followed (no loops).
struct ImportFiles {
    /// One file to read.
    enum Item {
        /// A file on disk. `named`: the person named it (a file of no known format is refused,
        /// not passed over).
        case file(path: String, shownAs: String, named: Bool)
        /// An entry of an opened zip.
        case zipEntry(ZipArchive, ZipEntry, shownAs: String)
    }

    private(set) var items: [Item] = []
    /// Paths that could not be read at all (missing, a zip that is not one), with why.
    private(set) var refused: [ImportSummary.Refused] = []
    /// Hidden files passed over and zip entries that are folders do not count; these are files
    /// of other kinds found inside a zip that are left out before reading (nested zips).
    private(set) var otherFiles = 0

    /// The most files a walk collects: beyond it, the rest of the folder is refused as one.
    static let maximumFiles = 100_000
    static let maximumDepth = 32

    init(paths: [String], zipLimits: ZipLimits = ZipLimits()) {
        for path in paths { add(path, shownAs: path, named: true, depth: 0, zipLimits: zipLimits) }
    }

    /// A single file as a person hands it over (an upload), shown by `name`.
    init(file path: String, shownAs name: String, zipLimits: ZipLimits = ZipLimits()) {
        add(path, shownAs: name, named: true, depth: 0, zipLimits: zipLimits, isDirectoryAllowed: false)
    }

    private mutating func add(_ path: String, shownAs shown: String, named: Bool, depth: Int, zipLimits: ZipLimits,
                              isDirectoryAllowed: Bool = true) {
        var st = stat()
        guard stat(path, &st) == 0 else {
            refused.append(.init(file: shown, error: String(cString: strerror(errno))))
            return
        }
        let kind = st.st_mode & S_IFMT
        if kind == S_IFDIR && isDirectoryAllowed {
            walk(path, shownAs: shown, depth: depth, zipLimits: zipLimits)
        } else if kind == S_IFREG {
            guard items.count < Self.maximumFiles else {
                if refused.last?.error.hasPrefix("more than") != true {
                    refused.append(.init(file: shown, error: "more than \(Self.maximumFiles) files: the rest were not read"))
                }
                return
            }
            if ZipArchive.looksLikeZip(path) {
                addZip(path, shownAs: shown, limits: zipLimits)
            } else {
                items.append(.file(path: path, shownAs: shown, named: named))
            }
        } else if named {
            refused.append(.init(file: shown, error: "not a file or a folder"))
        }
    }

    /// A folder's files and folders, in name order, hidden ones left out.
    private mutating func walk(_ folder: String, shownAs shown: String, depth: Int, zipLimits: ZipLimits) {
        guard depth < Self.maximumDepth else {
            refused.append(.init(file: shown, error: "folders nested over \(Self.maximumDepth) deep: not read"))
            return
        }
        guard let dir = opendir(folder) else {
            refused.append(.init(file: shown, error: "cannot list: \(String(cString: strerror(errno)))"))
            return
        }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        closedir(dir)
        for name in names.sorted() {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var st = stat()
            // A link to a folder is not followed; a link to a file is read.
            guard lstat(path, &st) == 0 else { continue }
            if st.st_mode & S_IFMT == S_IFLNK {
                var target = stat()
                guard stat(path, &target) == 0, target.st_mode & S_IFMT == S_IFREG else { continue }
            }
            let shownPath = shown.hasSuffix("/") ? shown + name : shown + "/" + name
            add(path, shownAs: shownPath, named: false, depth: depth + 1, zipLimits: zipLimits)
        }
    }

    /// A zip's entries: folders, hidden files and nested zips left out; a name that climbs out of
    /// the archive refused (it is never used as a path, but such a zip is not a device's).
    private mutating func addZip(_ path: String, shownAs shown: String, limits: ZipLimits) {
        let zip: ZipArchive
        do { zip = try ZipArchive(path: path, limits: limits) } catch {
            refused.append(.init(file: shown, error: "\(error)"))
            return
        }
        for entry in zip.entries where !entry.isDirectory {
            let entryShown = shown + "/" + entry.name
            if entry.isHidden && !entry.isUnsafeName { continue }
            if entry.isUnsafeName {
                refused.append(.init(file: entryShown, error: "a name outside the archive (absolute or with ..): not read"))
            } else if entry.name.lowercased().hasSuffix(".zip") {
                otherFiles += 1
            } else {
                items.append(.zipEntry(zip, entry, shownAs: entryShown))
            }
        }
    }
}
