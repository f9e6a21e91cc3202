#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Owns an open file descriptor and the reader's byte buffer; closes and frees them when the
/// last reader copy goes away. Everything that changes while reading lives in
/// `ChunkedLineBuffer` (a struct), so the hot loops touch no class state.
final class FileBufferStorage {
    let fd: Int32
    let base: UnsafeMutablePointer<UInt8>
    /// Bytes of data the buffer can hold; one more byte holds the `\n` sentinel.
    let capacity: Int

    init(fd: Int32, capacity: Int) {
        self.fd = fd
        self.capacity = capacity
        // One byte for the sentinel and 16 of padding: the digit scanner loads 8 bytes at a time.
        self.base = .allocate(capacity: capacity + 1 + 16)
        self.base.initialize(repeating: 0, count: capacity + 1 + 16)
    }

    deinit {
        close(fd)
        base.deallocate()
    }
}

/// Reads a file in fixed chunks into one reusable buffer and hands out whole lines, never
/// holding more than `chunkBytes + maxLineBytes` of it. A `\n` sentinel always follows the valid
/// bytes, so byte scanners stop at a line end without bounds checks: a scan reaching
/// `end` means "line incomplete so far" (refill) or, at end of file, "last line without newline".
///
/// Checks made here, before any parsing: a gzip header, a NUL byte (in any chunk, when it is
/// read) and invalid UTF-8 in the first 4 KiB are `TraceError.notText`; an empty file is
/// `TraceError.empty`; a line over `maxLineBytes` is `TraceError.lineTooLong`. A UTF-8 byte-order
/// mark at the start is skipped.
struct ChunkedLineBuffer {
    static let defaultChunkBytes = 256 * 1024
    static let defaultMaxLineBytes = 64 * 1024

    let path: String
    let storage: FileBufferStorage
    let maxLineBytes: Int
    /// For readers that hold a whole file: the most bytes the file may have (else `tooLarge`).
    let maxFileBytes: Int?
    /// Bytes read from the file so far.
    private(set) var bytesRead = 0
    /// Start of the first unconsumed line.
    var pos = 0
    /// End of valid data; `storage.base[end]` is the `\n` sentinel.
    var end = 0
    var atEOF = false
    /// 1-based number of the line starting at `pos`.
    var lineNumber = 1

    /// `storage.base`, kept here so the hot loops read no class state.
    let base: UnsafeMutablePointer<UInt8>

    /// `maxFileBytes`: refuse a larger file (`TraceError.tooLarge`) before reading it (and, for
    /// a pipe whose size is unknown, as soon as more has been read).
    init(path: String, chunkBytes: Int = defaultChunkBytes, maxLineBytes: Int = defaultMaxLineBytes,
         maxFileBytes: Int? = nil) throws {
        self.path = path
        self.maxLineBytes = maxLineBytes
        self.maxFileBytes = maxFileBytes
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            throw TraceError(.io, file: path, "cannot open: \(String(cString: strerror(errno)))")
        }
        var st = stat()
        if fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw TraceError(.io, file: path, "is a directory, not a trace file")
        }
        if let maxFileBytes, (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) > maxFileBytes {
            close(fd)
            throw Self.tooLarge(path, maxFileBytes)
        }
        storage = FileBufferStorage(fd: fd, capacity: chunkBytes + maxLineBytes + 1)
        base = storage.base
        storage.base[0] = ASCII.newline
        try refill(checkingForNUL: false)
        try checkStart()
    }

    /// The early checks on the first chunk.
    private mutating func checkStart() throws {
        let p = base
        if end == 0 {
            throw TraceError(.empty, file: path, "the file is empty")
        }
        if end >= 2 && p[0] == 0x1F && p[1] == 0x8B {
            throw TraceError(.notText, file: path, line: 1, column: 1,
                             "this is a gzip-compressed file, not a text trace: decompress it first")
        }
        try checkForNUL(from: 0, count: end)
        if end >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF { pos = 3 }
        let checked = min(end, 4096)
        if let bad = UTF8Check.firstInvalidByte(UnsafeBufferPointer(start: p, count: checked),
                                                allowTruncatedEnd: checked < end || !atEOF) {
            let (line, column) = position(of: bad)
            throw TraceError(.notText, file: path, line: line, column: column,
                             "not UTF-8 text (byte 0x\(String(p[bad], radix: 16, uppercase: true))): is this a binary file?")
        }
    }

    /// Line and column of byte `index` (at or after `pos`), by counting newlines from `pos`.
    func position(of index: Int) -> (line: Int, column: Int) {
        var line = lineNumber
        var lineStart = pos
        var k = pos
        while k < index {
            if base[k] == ASCII.newline { line += 1; lineStart = k + 1 }
            k += 1
        }
        return (line, index - lineStart + 1)
    }

    /// Index of the `\n` ending the line that contains `from` (may be the sentinel at `end`).
    @inline(__always)
    func newline(from i: Int) -> Int {
        let raw = memchr(base + i, Int32(ASCII.newline), end - i + 1)!
        return base.distance(to: raw.assumingMemoryBound(to: UInt8.self))
    }

    /// Whether a line ending at `nl` is complete: a real newline, or the end of the file.
    @inline(__always)
    func isComplete(_ nl: Int) -> Bool { nl < end || atEOF }

    /// Consumes the line ending at `nl`.
    @inline(__always)
    mutating func consumeLine(endingAt nl: Int) {
        pos = nl < end ? nl + 1 : end
        lineNumber += 1
    }

    /// Moves the unconsumed bytes to the front and reads the next chunk. Throws if the line at
    /// `pos` is already too long, or the new bytes hold a NUL.
    mutating func refill(checkingForNUL: Bool = true) throws {
        let keep = end - pos
        if keep > maxLineBytes {
            throw TraceError(.lineTooLong, file: path, line: lineNumber, column: maxLineBytes + 1,
                             "line is longer than \(maxLineBytes) bytes")
        }
        if atEOF { return }
        let p = base
        if pos > 0 && keep > 0 { memmove(p, p + pos, keep) }
        pos = 0
        end = keep
        var got: Int
        repeat {
            got = read(storage.fd, p + end, storage.capacity - end)
        } while got < 0 && errno == EINTR
        if got < 0 {
            p[end] = ASCII.newline
            throw TraceError(.io, file: path, line: lineNumber, "read failed: \(String(cString: strerror(errno)))")
        }
        if got == 0 { atEOF = true }
        bytesRead += got
        if let maxFileBytes, bytesRead > maxFileBytes {
            p[end] = ASCII.newline
            throw Self.tooLarge(path, maxFileBytes)
        }
        let fresh = end
        end += got
        p[end] = ASCII.newline
        if checkingForNUL { try checkForNUL(from: fresh, count: got) }
    }

    static func tooLarge(_ path: String, _ maxFileBytes: Int) -> TraceError {
        TraceError(.tooLarge, file: path,
                   "the file is larger than \(maxFileBytes / (1024 * 1024)) MiB, the most this reader holds (it reads the whole file): split it")
    }

    /// Throws `notText` if the bytes [from, from + count) hold a NUL.
    private func checkForNUL(from fresh: Int, count got: Int) throws {
        let p = base
        if got > 0, let nul = memchr(p + fresh, 0, got) {
            let index = p.distance(to: nul.assumingMemoryBound(to: UInt8.self))
            let (line, column) = position(of: index)
            throw TraceError(.notText, file: path, line: line, column: column,
                             "NUL byte: this is a binary file, not a text trace")
        }
    }

    /// The next line without its `\n` or `\r\n`, valid until the next call; nil at end of file.
    /// For the foreign formats, which go line by line.
    mutating func nextLine() throws -> UnsafeBufferPointer<UInt8>? {
        while true {
            if pos == end {
                if atEOF { return nil }
                try refill()
                continue
            }
            let nl = newline(from: pos)
            if !isComplete(nl) { try refill(); continue }
            if nl - pos > maxLineBytes {
                throw TraceError(.lineTooLong, file: path, line: lineNumber, column: maxLineBytes + 1,
                                 "line is longer than \(maxLineBytes) bytes")
            }
            var lineEnd = nl
            if lineEnd > pos && base[lineEnd - 1] == ASCII.carriageReturn { lineEnd -= 1 }
            let line = UnsafeBufferPointer(start: base + pos, count: lineEnd - pos)
            consumeLine(endingAt: nl)
            return line
        }
    }
}

/// UTF-8 validation over bytes, without building a String.
enum UTF8Check {
    /// Index of the first byte that is not part of a valid UTF-8 sequence, or nil. With
    /// `allowTruncatedEnd`, a sequence cut off by the end of the range is accepted (the range is
    /// a prefix of the file).
    static func firstInvalidByte(_ bytes: UnsafeBufferPointer<UInt8>, allowTruncatedEnd: Bool) -> Int? {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 { i += 1; continue }
            let length: Int
            var minSecond: UInt8 = 0x80, maxSecond: UInt8 = 0xBF
            switch b {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; minSecond = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; maxSecond = 0x9F
            case 0xF0: length = 4; minSecond = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; maxSecond = 0x8F
            default: return i
            }
            for k in 1..<length {
                if i + k >= n { return allowTruncatedEnd ? nil : i }
                let c = bytes[i + k]
                let lo: UInt8 = k == 1 ? minSecond : 0x80
                let hi: UInt8 = k == 1 ? maxSecond : 0xBF
                if c < lo || c > hi { return i }
            }
            i += length
        }
        return nil
    }

    /// A String from bytes that must be valid UTF-8, else nil.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard firstInvalidByte(bytes, allowTruncatedEnd: false) == nil else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
