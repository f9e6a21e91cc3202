#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import OarlogCore

/// Why a session could not be changed: it went away while the change waited for its turn.
public enum SessionLockError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The session was deleted (by another request or `oarlog delete`) before this change got to it.
    case removed(path: String)

    public var description: String {
        switch self {
        case .removed(let path): return "\(path) was deleted: nothing was changed"
        }
    }
}

/// One change at a time per session file, across threads and processes (the server and the
/// command line), and no reader opening a file while a change is being written into it.
///
/// Each session file is locked as itself with flock(2) — exclusive for a change (a note, an
/// edit, a rename, a delete), shared while a `SessionReader` opens it (reads its footer, index
/// and summary) — and, inside one process, through a table of the files in use, so threads
/// exclude each other even where flock(2) would not (a network filesystem emulating it with
/// per-process locks).
///
/// A rename replaces the file (a new inode under the same name), so a change that waited on
/// the old file checks, once it holds the lock, that the name still leads to the file it
/// locked: if it was replaced, it locks the new one; if it was deleted, it fails with
/// `SessionLockError.removed` — a note can never land in a deleted or replaced copy.
public final class SessionFileLock {
    public let path: String
    /// Open read-only, only to hold the flock(2).
    private let fd: Int32
    private let key: FileKey

    private init(path: String, fd: Int32, key: FileKey) {
        self.path = path
        self.fd = fd
        self.key = key
    }

    deinit {
        _ = flock(fd, LOCK_UN)
        _ = close(fd)
        FileKey.table.release(key, exclusive: true)
    }

    /// Waits for the session at `path` to be free, then holds it for one change until released
    /// (the lock is dropped with the object). Throws `SessionLockError.removed` when there is
    /// no such file (any more).
    public static func exclusive(_ path: String) throws -> SessionFileLock {
        while true {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            if fd < 0 {
                if errno == ENOENT { throw SessionLockError.removed(path: path) }
                throw SessionError.io(path: path, operation: "opening to change", errno: errno, detail: "nothing was changed")
            }
            var held = stat()
            guard fstat(fd, &held) == 0 else {
                let code = errno
                _ = close(fd)
                throw SessionError.io(path: path, operation: "reading the size of", errno: code, detail: "nothing was changed")
            }
            let key = FileKey(held)
            FileKey.table.acquire(key, exclusive: true)
            if let code = flockRetrying(fd, LOCK_EX) {
                _ = close(fd)
                FileKey.table.release(key, exclusive: true)
                throw SessionError.io(path: path, operation: "locking", errno: code, detail: "nothing was changed")
            }
            var now = stat()
            let there = stat(path, &now) == 0
            if there && FileKey(now) == key { return SessionFileLock(path: path, fd: fd, key: key) }
            _ = flock(fd, LOCK_UN)
            _ = close(fd)
            FileKey.table.release(key, exclusive: true)
            if !there { throw SessionLockError.removed(path: path) }
            // Replaced by a rename while this waited: lock the file now under the name.
        }
    }

    /// Runs `change` holding the session at `path` for itself (see `exclusive`).
    public static func withExclusive<T>(_ path: String, _ change: () throws -> T) throws -> T {
        let lock = try exclusive(path)
        return try withExtendedLifetime(lock) { try change() }
    }

    /// Deletes the session at `path` once no change or opening is under way; a note or rename
    /// still waiting then finds it gone. Syncs the directory so the deletion survives a power cut.
    public static func remove(_ path: String) throws {
        try withExclusive(path) {
            if unlink(path) != 0 {
                if errno == ENOENT { throw SessionLockError.removed(path: path) }
                throw SessionError.io(path: path, operation: "deleting", errno: errno, detail: "")
            }
            syncDirectory(of: path)
        }
    }

    /// Takes the shared lock on `fd` (a reader opening `fd`'s file); returns what to release.
    static func shared(_ fd: Int32) -> FileKey? {
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        let key = FileKey(st)
        FileKey.table.acquire(key, exclusive: false)
        // A filesystem without flock(2) (EOPNOTSUPP, ENOLCK) still has the in-process lock.
        _ = flockRetrying(fd, LOCK_SH)
        return key
    }

    /// Drops the shared lock `shared(fd)` took.
    static func releaseShared(_ fd: Int32, _ key: FileKey) {
        _ = flock(fd, LOCK_UN)
        FileKey.table.release(key, exclusive: false)
    }

    private static func flockRetrying(_ fd: Int32, _ operation: Int32) -> Int32? {
        while flock(fd, operation) != 0 {
            if errno == EINTR { continue }
            return errno
        }
        return nil
    }

    /// fsync(2) on the directory holding `path` (best effort: some filesystems refuse it).
    static func syncDirectory(of path: String) {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let dfd = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dfd >= 0 else { return }
        _ = fsync(dfd)
        _ = close(dfd)
    }

    /// A new name for a temporary file beside `path`: hidden (a dot first), not ending in
    /// `.oarlog` (so no listing shows it), and unique to this process and call (pid, a counter,
    /// the clock) — two changes at once never share one, so a failing change removes only its own.
    public static func temporaryPath(for path: String, purpose: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let serial = FileKey.table.nextSerial()
        return directory + "." + name + "." + purpose + "-\(getpid())-\(serial)-\(String(Int(now.tv_nsec), radix: 36))"
    }
}

/// A file by device and inode (two names of one file are one key; a replaced file is a new one).
struct FileKey: Hashable {
    let device: UInt64
    let inode: UInt64

    init(_ st: stat) {
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }

    static let table = LockTable()
}

/// The files this process is reading (opening) or changing: many readers or one writer each.
final class LockTable: @unchecked Sendable {
    // Heap-allocated: a pthread mutex must not move, and a Swift stored property may.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// -1: a writer holds it; n > 0: n readers.
    private var holders: [FileKey: Int] = [:]
    private var serial = 0

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    func acquire(_ key: FileKey, exclusive: Bool) {
        pthread_mutex_lock(mutex)
        while let n = holders[key], exclusive || n < 0 {
            pthread_cond_wait(changed, mutex)
        }
        holders[key] = exclusive ? -1 : (holders[key] ?? 0) + 1
        pthread_mutex_unlock(mutex)
    }

    func release(_ key: FileKey, exclusive: Bool) {
        pthread_mutex_lock(mutex)
        let n = holders[key] ?? 0
        if exclusive || n <= 1 { holders[key] = nil } else { holders[key] = n - 1 }
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    func nextSerial() -> Int {
        pthread_mutex_lock(mutex)
        serial += 1
        let n = serial
        pthread_mutex_unlock(mutex)
        return n
    }
}
