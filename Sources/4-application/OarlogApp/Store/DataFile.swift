#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// A small data file beside the sessions that is read whole and replaced whole
/// (`workouts.json`, `courses.json`, `challenges.json`): a read is bounded and needs no lock (a
/// rename is atomic); a change holds `NAME.lock` (flock(2), exclusive) from its read to its
/// rename, so two changes at once (the server and a command) both land; the new text is written
/// to a temporary file beside it, synced, renamed over it, and the directory synced, so a power
/// cut leaves the old file or the new one, never half of one. Errors are sentences naming the file.
struct DataFile {
    let path: String
    let maximumBytes: Int
    /// The file's mode when it is written (`shares.json`, which holds tokens: 0600).
    var mode: mode_t = 0o644

    init(path: String, maximumBytes: Int, mode: mode_t = 0o644) {
        self.path = path
        self.maximumBytes = maximumBytes
        self.mode = mode
    }

    struct Failure: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    var fileName: String { (path as NSString).lastPathComponent }

    /// The file's bytes; nil when there is no file yet.
    func read() throws(Failure) -> [UInt8]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw Failure(description: "\(fileName) cannot be opened") }
        defer { try? handle.close() }
        let bytes: [UInt8]
        do { bytes = [UInt8](try handle.read(upToCount: maximumBytes + 1) ?? Data()) } catch {
            throw Failure(description: "\(fileName): \(error.localizedDescription)")
        }
        guard bytes.count <= maximumBytes else { throw Failure(description: "\(fileName) is over \(max(1, maximumBytes >> 20)) MiB") }
        return bytes
    }

    /// Runs `body` under the file's lock (made with the data directory if need be); `body` reads
    /// and replaces the file as it needs.
    func locked<T, E: Error>(_ body: () throws(E) -> T) throws -> T {
        let directory = (path as NSString).deletingLastPathComponent
        do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
            throw Failure(description: "the data directory cannot be made: \(error.localizedDescription)")
        }
        let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw Failure(description: "\(fileName).lock cannot be opened: \(String(cString: strerror(errno)))") }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            // A filesystem without flock(2): go on without it rather than refuse every change.
            if errno != EINTR { break }
        }
        defer { _ = flock(lock, LOCK_UN) }
        return try body()
    }

    /// Replaces the file with `text`: a temporary file written and synced, then renamed.
    func replace(with text: String) throws(Failure) {
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw Failure(description: "\(fileName) cannot be written: \(String(cString: strerror(errno)))") }
        var ok = true
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { ok = false; return }
                offset += n
            }
        }
        let error = ok ? (fsync(fd) == 0 ? 0 : errno) : errno
        close(fd)
        guard ok, error == 0, rename(temporary, path) == 0 else {
            let why = String(cString: strerror(error != 0 ? error : errno))
            unlink(temporary)
            throw Failure(description: "\(fileName) cannot be written: \(why)")
        }
        let directory = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }
}
