#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the benchmark data lives: `$OARLOG_BENCH_DIR`, or `/tmp/oarlog-bench`. `scripts/bench.sh`
/// makes it once; `scripts/bench-peer.py generate` writes the surge file, `oarlog-bench make-trace`
/// the CSV trace.
public enum BenchFiles {
    public static var directory: String {
        if let dir = getenv("OARLOG_BENCH_DIR") { return String(cString: dir) }
        return "/tmp/oarlog-bench"
    }
    /// Raw little-endian float32 surge acceleration, m/s², 100 Hz (the scipy peer reads it too).
    public static var surgePath: String { directory + "/surge-100hz.f32" }
    /// The native CSV trace made from the surge file: accel rows at 100 Hz, GPS rows at 1 Hz.
    public static var tracePath: String { directory + "/trace-100hz.csv" }
    /// Sample rate of both files.
    public static let sampleRate: Double = 100
}

/// A benchmark input that is missing or unreadable; the message says how to make it.
public struct BenchDataError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Reads a raw little-endian float32 file into a contiguous array (the whole file: benchmark
/// inputs are made once and kept in memory so the measured loop touches no I/O).
public func readFloat32File(_ path: String) throws -> [Float] {
    guard let file = fopen(path, "rb") else {
        throw BenchDataError("no benchmark data at \(path): run scripts/bench.sh (or `python3 scripts/bench-peer.py generate \(path)`)")
    }
    defer { fclose(file) }
    fseek(file, 0, SEEK_END)
    let bytes = ftell(file)
    fseek(file, 0, SEEK_SET)
    guard bytes > 0, bytes % 4 == 0 else { throw BenchDataError("\(path): \(bytes) bytes is not a float32 array") }
    let count = bytes / 4
    let samples = [Float](unsafeUninitializedCapacity: count) { buffer, initialized in
        initialized = fread(buffer.baseAddress, 4, count, file)
    }
    guard samples.count == count else { throw BenchDataError("\(path): short read (\(samples.count) of \(count) samples)") }
    // The file is little-endian; so is every machine Oarlog runs on, but say so if not.
    precondition(1.littleEndian == 1, "big-endian host: the float32 benchmark file would need byte-swapping")
    return samples
}

/// Counts the data rows (lines that start with a digit) of a CSV trace, to turn seconds into rows/s.
public func countDataRows(_ path: String) throws -> Int {
    guard let file = fopen(path, "rb") else {
        throw BenchDataError("no benchmark trace at \(path): run scripts/bench.sh (or `oarlog-bench make-trace`)")
    }
    defer { fclose(file) }
    let size = 1 << 20
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
    defer { buffer.deallocate() }
    var rows = 0
    var atLineStart = true
    while true {
        let n = fread(buffer, 1, size, file)
        if n == 0 { break }
        var i = 0
        while i < n {
            if atLineStart, buffer[i] >= UInt8(ascii: "0"), buffer[i] <= UInt8(ascii: "9") { rows += 1 }
            // Jump to the next line end.
            guard let newline = memchr(buffer + i, Int32(UInt8(ascii: "\n")), n - i) else {
                atLineStart = false
                break
            }
            i = buffer.distance(to: newline.assumingMemoryBound(to: UInt8.self)) + 1
            atLineStart = true
        }
    }
    return rows
}
