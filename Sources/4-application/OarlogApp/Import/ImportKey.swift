#if canImport(Glibc)
import Glibc
#endif
import OarlogCore

/// What says two files are the same outing, so an import run twice adds nothing: the device
/// that recorded it (its serial number, else its name and model) and the start the file gives
/// (`start_utc`, else `start_local`), as `device:NK SpeedCoach GPS Pro#12345@1478340120`; for a
/// file that names no device or no start, its content: `content:SIZE:FNV1A64`. Kept in the
/// session's metadata (the `import_key` setting) and in the archive's index beside it.
enum ImportKey {
    /// The key of a trace with these leading metadata and this start from the file itself (nil
    /// when the file does not say when it started); `path` is hashed when they do not suffice.
    static func make(metadata: (String) -> String?, traceStart: Double?, path: String) throws -> String {
        let device = [metadata("device") ?? metadata("device_model"), metadata("device_serial").map { "#" + $0 }]
            .compactMap { $0 }.joined()
        if !device.isEmpty, let start = traceStart, start.isFinite, abs(start) < 1e11 {
            return "device:\(StoredText.cleaned(device))@\(Int64(start.rounded()))"
        }
        return try contentKey(path)
    }

    /// `content:SIZE:HASH`, the file's bytes through 64-bit FNV-1a (not a defence against a
    /// forger, a way to know a file seen before).
    static func contentKey(_ path: String) throws -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw AppError("\(path): cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var size: UInt64 = 0
        var buffer = [UInt8](repeating: 0, count: 256 << 10)
        while true {
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw AppError("\(path): read failed: \(String(cString: strerror(errno)))") }
            if got == 0 { break }
            for byte in buffer[0..<got] {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
            size += UInt64(got)
        }
        let hex = String(hash, radix: 16)
        return "content:\(size):" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
