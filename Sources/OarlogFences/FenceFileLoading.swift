#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FenceFile {
    /// Reads and parses a GeoJSON fence file.
    public static func load(path: String) throws -> FenceFile {
        guard let handle = fopen(path, "rb") else {
            throw FenceFileError(file: path, feature: nil, "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, handle) }
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]) }
            if n < chunk.count { break }
            if bytes.count > 64 << 20 { throw FenceFileError(file: path, feature: nil, "larger than 64 MiB: not a fence file") }
        }
        if ferror(handle) != 0 { throw FenceFileError(file: path, feature: nil, "read error") }
        return try parse(String(decoding: bytes, as: UTF8.self), file: path)
    }
}
