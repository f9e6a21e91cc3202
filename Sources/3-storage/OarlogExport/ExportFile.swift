#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an export could not be written.
public struct ExportError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// An output file written through a fixed 64 KiB buffer: exports stream to disk as they go, and
/// memory stays bounded whatever the session length. Bytes already written can be patched in
/// place (the FIT header's data size and the file CRC are only known at the end).
public final class ExportFile {
    public let path: String
    private var fd: Int32
    private var buffer: [UInt8]
    private var used = 0
    /// Bytes written so far (flushed or buffered).
    public private(set) var offset: Int = 0
    private static let capacity = 1 << 16

    /// Creates (or truncates) `path` for writing.
    public init(path: String) throws {
        self.path = path
        fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 { throw ExportError("\(path): cannot create: \(String(cString: strerror(errno)))") }
        buffer = [UInt8](repeating: 0, count: Self.capacity)
    }

    deinit {
        if fd >= 0 { _ = Glibc.close(fd) }
    }

    public func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard fd >= 0 else { throw ExportError("\(path): written after close") }
        if used + bytes.count > buffer.count { try flush() }
        if bytes.count > buffer.count {
            try writeAll(bytes)
        } else {
            buffer.withUnsafeMutableBytes { dst in
                dst.baseAddress!.advanced(by: used).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
            }
            used += bytes.count
        }
        offset += bytes.count
    }

    /// Overwrites bytes at `position` (already written) with `bytes`.
    public func patch(at position: Int, _ bytes: [UInt8]) throws {
        precondition(position >= 0 && position + bytes.count <= offset, "patch outside the written bytes")
        try flush()
        try bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = pwrite(fd, raw.baseAddress! + done, raw.count - done, off_t(position + done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw ExportError("\(path): write failed: \(String(cString: strerror(errno)))")
                }
                done += n
            }
        }
    }

    /// Reads back `count` bytes from `position` (flushing first): for checksums over the file.
    public func read(at position: Int, count: Int, into target: inout [UInt8]) throws {
        try flush()
        target.removeAll(keepingCapacity: true)
        target.append(contentsOf: repeatElement(0, count: count))
        try target.withUnsafeMutableBytes { raw in
            var done = 0
            while done < count {
                let n = pread(fd, raw.baseAddress! + done, count - done, off_t(position + done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw ExportError("\(path): read failed: \(String(cString: strerror(errno)))")
                }
                if n == 0 { throw ExportError("\(path): file shorter than expected") }
                done += n
            }
        }
    }

    public func flush() throws {
        guard used > 0 else { return }
        let pending = used
        used = 0
        try buffer.withUnsafeBytes { try writeAll(UnsafeRawBufferPointer(rebasing: $0[0..<pending])) }
    }

    /// Flushes and closes the file (further writes throw).
    public func close() throws {
        guard fd >= 0 else { return }
        try flush()
        let result = closeDescriptor()
        if result != 0 { throw ExportError("\(path): close failed: \(String(cString: strerror(errno)))") }
    }

    private func closeDescriptor() -> Int32 {
        let descriptor = fd
        fd = -1
        return Glibc.close(descriptor)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw ExportError("\(path): write failed: \(String(cString: strerror(errno)))")
            }
            done += n
        }
    }
}
