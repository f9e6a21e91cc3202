#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FenceFile {
    /// Reads and parses a GeoJSON fence file. A file larger than `FenceLimits.maxFileBytes`
    /// (16 MiB) is refused before it is read (or, for a pipe, as soon as more has arrived).
    public static func load(path: String) throws -> FenceFile {
        let limit = FenceLimits.maxFileBytes
        func tooLarge() -> FenceFileError {
            FenceFileError(file: path, feature: nil, "larger than \(limit / (1024 * 1024)) MiB: not a fence file (the most is \(FenceLimits.maxPositionsPerFile) positions)")
        }
        guard let handle = fopen(path, "rb") else {
            throw FenceFileError(file: path, feature: nil, "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { fclose(handle) }
        var st = stat()
        if fstat(fileno(handle), &st) == 0 {
            if (st.st_mode & S_IFMT) == S_IFDIR { throw FenceFileError(file: path, feature: nil, "is a directory, not a fence file") }
            if (st.st_mode & S_IFMT) == S_IFREG && Int(st.st_size) > limit { throw tooLarge() }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((st.st_mode & S_IFMT) == S_IFREG ? Int(st.st_size) : 65_536)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, handle) }
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]) }
            if bytes.count > limit { throw tooLarge() }
            if n < chunk.count { break }
        }
        if ferror(handle) != 0 { throw FenceFileError(file: path, feature: nil, "read error") }
        return try parse(utf8: bytes, file: path)
    }
}
