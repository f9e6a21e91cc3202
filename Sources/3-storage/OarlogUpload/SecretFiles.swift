#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Foundation

/// One account's secrets as files: `DIRECTORY/NAME` (the directory mode 0700, each file 0600,
/// written to a temporary file of mode 0600 and renamed over, so no reader ever sees a wider mode
/// or half a secret). Errors name the file, never its content.
public struct SecretFiles: SiteSecrets {
    public let directory: String
    /// Longest secret read (a token is some hundred bytes).
    public static let maximumBytes = 16 * 1024

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    public init(directory: String) {
        self.directory = directory
    }

    public func path(_ name: SecretName) -> String { directory + "/" + name.rawValue }

    public func secret(_ name: SecretName) throws -> String? {
        let path = path(name)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw Failure(description: "\(name.rawValue) cannot be read") }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: Self.maximumBytes + 1)) ?? Data()
        guard data.count <= Self.maximumBytes else { throw Failure(description: "\(name.rawValue) is over 16 KiB") }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    public func keep(_ name: SecretName, _ value: String) throws {
        try makeDirectory()
        let path = path(name)
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(description: "\(name.rawValue) cannot be written: \(String(cString: strerror(errno)))") }
        _ = fchmod(fd, 0o600)
        let bytes = Array((value + "\n").utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            written += n
        }
        let ok = written == bytes.count && fsync(fd) == 0
        close(fd)
        guard ok, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw Failure(description: "\(name.rawValue) cannot be written: \(String(cString: strerror(errno)))")
        }
    }

    /// Removes every secret and the directory.
    public func removeAll() {
        for name in SecretName.allCases { unlink(path(name)) }
        rmdir(directory)
    }

    private func makeDirectory() throws {
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
                throw Failure(description: "the accounts directory cannot be made: \(error.localizedDescription)")
            }
        }
        _ = chmod(directory, 0o700)
    }
}
