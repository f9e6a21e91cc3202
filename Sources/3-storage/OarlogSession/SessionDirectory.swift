#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import OarlogCore

/// The folder where sessions are kept: `$OARLOG_DATA_DIR/sessions` if that variable is set, else
/// `$XDG_DATA_HOME/oarlog/sessions`, else `~/.local/share/oarlog/sessions`.
///
/// Files are named `2026-05-02T07-00-00Z_morning-outing.oarlog` (start UTC, then the title made
/// safe for a file name), so a plain sort is a sort by date. A session is referred to by its path,
/// its id (the name without `.oarlog`), a unique prefix of the id, or `last`.
public struct SessionDirectory: Sendable, Equatable {
    public var path: String

    public init(path: String) {
        var p = path
        while p.count > 1 && p.hasSuffix("/") { p.removeLast() }
        self.path = p
    }

    /// The directory from the environment (see the type's comment).
    public static var `default`: SessionDirectory {
        if let dir = env("OARLOG_DATA_DIR") { return SessionDirectory(path: dir + "/sessions") }
        if let xdg = env("XDG_DATA_HOME") { return SessionDirectory(path: xdg + "/oarlog/sessions") }
        let home = env("HOME") ?? "."
        return SessionDirectory(path: home + "/.local/share/oarlog/sessions")
    }

    private static func env(_ name: String) -> String? {
        guard let v = getenv(name) else { return nil }
        var s = String(cString: v)
        while s.count > 1 && s.hasSuffix("/") { s.removeLast() }
        return s.isEmpty ? nil : s
    }

    /// `2026-05-02T07-00-00Z_title.oarlog` (`_2`, `_3`… before the extension when taken).
    public static func fileName(startUTC: Double, title: String, suffix: Int = 1) -> String {
        var name = UTCStamp.fileStamp(startUTC)
        let slug = slugified(title)
        if !slug.isEmpty { name += "_" + slug }
        if suffix > 1 { name += "_\(suffix)" }
        return name + "." + SessionFormat.fileExtension
    }

    /// Letters, digits and `-` only, at most 60 characters: safe on any filesystem and in a shell.
    static func slugified(_ title: String) -> String {
        var out = ""
        var pendingDash = false
        for scalar in title.unicodeScalars {
            let c = Character(scalar)
            if scalar.isASCII && (c.isLetter || c.isNumber) {
                if pendingDash && !out.isEmpty { out.append("-") }
                pendingDash = false
                out.append(Character(String(c).lowercased()))
            } else {
                pendingDash = true
            }
            if out.count >= 60 { break }
        }
        return out
    }

    func exists(_ name: String) -> Bool {
        access(path + "/" + name, F_OK) == 0
    }

    /// Creates the directory and its parents.
    public func createIfNeeded() throws {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(built, 0o755) != 0 && errno != EEXIST {
                throw SessionError.io(path: built, operation: "creating the session directory", errno: errno, detail: "")
            }
        }
        var st = stat()
        if stat(path, &st) != 0 || (st.st_mode & S_IFMT) != S_IFDIR {
            throw SessionError.io(path: path, operation: "using the session directory", errno: ENOTDIR, detail: "")
        }
    }

    /// Every `.oarlog` file in the directory, newest first. Reads only each file's metadata
    /// (at the start) and summary (through the footer at the end); a file that cannot be read is
    /// listed with its error.
    public func list() throws -> [SessionListing] {
        guard let dir = opendir(path) else {
            if errno == ENOENT { return [] }
            throw SessionError.io(path: path, operation: "listing", errno: errno, detail: "")
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name.hasSuffix("." + SessionFormat.fileExtension) && !name.hasPrefix(".") { names.append(name) }
        }
        var listings = names.map { SessionListing(path: path + "/" + $0) }
        listings.sort { a, b in
            let ta = a.metadata?.startUTC ?? -Double.infinity, tb = b.metadata?.startUTC ?? -Double.infinity
            return ta != tb ? ta > tb : a.id > b.id
        }
        return listings
    }

    /// The file of the session with exactly this id, found by its name alone (nothing is opened,
    /// so finding one session costs the same however many there are); nil when there is no such
    /// regular file or the id could name something else (a path, a hidden or temporary file).
    public func sessionFile(id: String) -> String? {
        guard !id.isEmpty, !id.hasPrefix("."), !id.contains("/"), !id.utf8.contains(0) else { return nil }
        let file = path + "/" + id + "." + SessionFormat.fileExtension
        var st = stat()
        guard lstat(file, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return file
    }

    /// The path of the session `reference` names: `last`, an id or unique id prefix in this
    /// directory, or a path to a file.
    public func resolve(_ reference: String) throws -> String {
        if reference == "last" {
            guard let newest = try list().first else {
                throw SessionError.notFound(reference: reference, detail: "there are no sessions in \(path)")
            }
            return newest.path
        }
        if reference.contains("/") || access(reference, F_OK) == 0 {
            guard access(reference, F_OK) == 0 else {
                throw SessionError.notFound(reference: reference, detail: "no such file")
            }
            return reference
        }
        let id = reference.hasSuffix("." + SessionFormat.fileExtension)
            ? String(reference.dropLast(SessionFormat.fileExtension.count + 1)) : reference
        if let file = sessionFile(id: id) { return file }
        let ids = try list().map(\.id)
        let matches = ids.filter { $0.hasPrefix(id) }
        if matches.count == 1 { return path + "/" + matches[0] + "." + SessionFormat.fileExtension }
        if matches.isEmpty {
            throw SessionError.notFound(reference: reference, detail: "no session id starts with it in \(path)")
        }
        throw SessionError.notFound(reference: reference,
                                    detail: "\(matches.count) sessions match (\(matches.prefix(3).joined(separator: ", "))…); give more of the id")
    }
}

/// One session as `SessionDirectory.list()` shows it.
public struct SessionListing: Sendable {
    public var path: String
    /// The file name without `.oarlog`.
    public var id: String
    public var metadata: SessionMetadata?
    public var summary: RecordedSummary?
    /// The file has its index and footer (it was closed normally).
    public var isComplete: Bool
    public var sizeBytes: Int
    /// Why the file could not be read, if it could not.
    public var error: String?

    init(path: String) {
        self.path = path
        let name = path.split(separator: "/").last.map(String.init) ?? path
        id = name.hasSuffix("." + SessionFormat.fileExtension) ? String(name.dropLast(SessionFormat.fileExtension.count + 1)) : name
        isComplete = false
        sizeBytes = 0
        do {
            let reader = try SessionReader(path: path)
            metadata = reader.metadata
            summary = reader.summary
            isComplete = reader.isComplete
            sizeBytes = reader.fileSize
        } catch {
            self.error = "\(error)"
        }
    }
}

/// UTC calendar formatting without Foundation (days-from-civil, proleptic Gregorian).
enum UTCStamp {
    static func fields(_ utc: Double) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let total = Int((utc.isFinite ? utc : 0).rounded(.down))
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondsOfDay = total - days * 86_400
        let (year, month, day) = UTCTime.civilDate(daysSince1970: days)
        return (year, month, day, secondsOfDay / 3600, secondsOfDay % 3600 / 60, secondsOfDay % 60)
    }

    private static func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }

    /// `2026-05-02T07-00-00Z` (colons are awkward in file names).
    static func fileStamp(_ utc: Double) -> String {
        let f = fields(utc)
        return "\(f.year)-\(two(f.month))-\(two(f.day))T\(two(f.hour))-\(two(f.minute))-\(two(f.second))Z"
    }

    /// `2026-05-02T07:00:00Z`.
    static func iso8601(_ utc: Double) -> String {
        let f = fields(utc)
        return "\(f.year)-\(two(f.month))-\(two(f.day))T\(two(f.hour)):\(two(f.minute)):\(two(f.second))Z"
    }
}
