#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// C error numbers in words.
enum SystemError {
    static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// An append-only file written with write(2) and made durable with fsync(2). Every failure is a
/// `SessionError.io` naming the file and the operation. A failed write is cut back to the last
/// complete frame (ftruncate), so what was written before stays readable.
final class AppendFile {
    let path: String
    private(set) var fd: Int32
    /// Bytes known to be completely written.
    private(set) var size: Int = 0

    /// Creates `path`, which must not exist, and syncs its directory so the new name survives a
    /// power cut.
    init(creating path: String) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd < 0 { throw SessionError.io(path: path, operation: "creating", errno: errno, detail: "") }
        try syncDirectory()
    }

    deinit {
        _ = Glibc.close(fd)
    }

    /// Writes all of `bytes` at the end; on failure cuts the file back to its previous size.
    func append(_ bytes: UnsafeRawBufferPointer, what: String) throws {
        guard fd >= 0 else { throw SessionError.writerClosed(path: path, detail: "writing \(what)") }
        var done = 0
        while done < bytes.count {
            let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                let code = errno
                if code == EINTR { continue }
                _ = ftruncate(fd, off_t(size))
                _ = lseek(fd, off_t(size), SEEK_SET)
                throw SessionError.io(path: path, operation: "writing \(what) to", errno: code,
                                      detail: "the \(size) bytes written before are kept: `oarlog recover \(path) --in-place` closes them as a session (it needs room for a copy)")
            }
            done += n
        }
        size += bytes.count
    }

    func sync() throws {
        guard fd >= 0 else { return }
        if fsync(fd) != 0 {
            throw SessionError.io(path: path, operation: "syncing", errno: errno, detail: "")
        }
    }

    func close() throws {
        guard fd >= 0 else { return }
        let result = Glibc.close(fd)
        fd = -1
        if result != 0 { throw SessionError.io(path: path, operation: "closing", errno: errno, detail: "") }
    }

    private func syncDirectory() throws {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let dfd = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dfd >= 0 else { return }  // best effort: some filesystems do not allow it
        _ = fsync(dfd)
        _ = Glibc.close(dfd)
    }
}

/// A file read at any offset: through a read-only memory map of the whole file when the system
/// allows one (no copy: frames are checked and decoded where the page cache holds them), else with
/// pread(2). Reads of a file that was cut short simply return fewer bytes; the size is the size
/// at opening, so a file still growing is read up to that point.
///
/// A map has one hazard pread does not: if another process cuts the file shorter while it is
/// mapped, touching a page past the new end raises SIGBUS. Oarlog never cuts a closed session
/// below a size a reader saw: `SessionAppend` writes its note over the old tail, so the file only
/// grows, and cuts back only a failed append, to the size it started from; readers open under a
/// shared `SessionFileLock` (no append is half-written while they read the footer, index and
/// summary) and after that touch only the bytes before the data end, which no change rewrites.
final class RandomAccessFile {
    let path: String
    private var fd: Int32
    let size: Int
    /// The whole file, `size` bytes, mapped read-only; nil when empty or when mmap failed.
    let mapping: UnsafeRawPointer?

    /// The shared lock held while a reader opens the file (`SessionFileLock`), until `unlock()`.
    private var openingLock: FileKey?

    /// Opens `path`; with `lockedForOpening`, first waits for any change to the file to finish
    /// and holds it off (a shared `SessionFileLock`) until `unlock()`, so the size and the tail a
    /// reader reads are those of a whole file, never of one being rewritten.
    init(path: String, lockedForOpening: Bool = false) throws {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw SessionError.io(path: path, operation: "opening", errno: errno, detail: "") }
        let lock = lockedForOpening ? SessionFileLock.shared(fd) : nil
        func closeAfterFailure() {
            if let lock { SessionFileLock.releaseShared(fd, lock) }
            _ = Glibc.close(fd)
        }
        var st = stat()
        if fstat(fd, &st) != 0 {
            let code = errno
            closeAfterFailure()
            throw SessionError.io(path: path, operation: "reading the size of", errno: code, detail: "")
        }
        if (st.st_mode & S_IFMT) == S_IFDIR {
            closeAfterFailure()
            throw SessionError.notASession(path: path, detail: "it is a directory")
        }
        self.fd = fd
        openingLock = lock
        size = Int(st.st_size)
        mapping = Self.map(fd, size: size, regularFile: (st.st_mode & S_IFMT) == S_IFREG)
    }

    /// Lets changes to the file go ahead (they never touch the bytes before the data end that
    /// this reader reads from now on).
    func unlock() {
        if let key = openingLock { SessionFileLock.releaseShared(fd, key) }
        openingLock = nil
    }

    private static func map(_ fd: Int32, size: Int, regularFile: Bool) -> UnsafeRawPointer? {
        guard regularFile, size > 0, let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else {
            return nil
        }
        _ = madvise(p, size, MADV_SEQUENTIAL)  // readers walk the file front to back
        return UnsafeRawPointer(p)
    }

    deinit {
        unlock()
        if let mapping { _ = munmap(UnsafeMutableRawPointer(mutating: mapping), size) }
        _ = Glibc.close(fd)
    }

    private static let pageSize = max(4096, sysconf(Int32(_SC_PAGESIZE)))

    /// Drops the mapped pages of [start, offset) (whole pages only) from this process's resident
    /// set; they stay in the page cache, and touching them again simply maps them back. Returns
    /// the page-aligned offset released up to (to pass as `start` next time).
    func releaseMappedPages(before offset: Int, from start: Int) -> Int {
        let end = min(offset, size) / Self.pageSize * Self.pageSize
        guard let mapping, end > start else { return end }
        _ = madvise(UnsafeMutableRawPointer(mutating: mapping + start), end - start, MADV_DONTNEED)
        return end
    }

    /// Reads up to `count` bytes at `offset` into `buffer`; returns how many were read.
    func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int) throws -> Int {
        var done = 0
        while done < count {
            let n = pread(fd, buffer + done, count - done, off_t(offset + done))
            if n < 0 {
                if errno == EINTR { continue }
                throw SessionError.io(path: path, operation: "reading", errno: errno, detail: "at byte \(offset + done)")
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// Reads `count` bytes at `offset` into a new array (short at the end of the file).
    func bytes(at offset: Int, count: Int) throws -> [UInt8] {
        guard count > 0, offset < size else { return [] }
        var out = [UInt8](repeating: 0, count: min(count, size - offset))
        let n = try out.withUnsafeMutableBytes { try read(into: $0.baseAddress!, count: $0.count, at: offset) }
        out.removeLast(out.count - n)
        return out
    }
}
