#if canImport(Glibc)
import Glibc
#endif
import CZlib
import OarlogCore

/// A zip file as NK LiNK and Garmin hand out a club's history: its central directory read, and
/// each entry (stored or deflated) copied out to a file the import names — never to a path the
/// zip names. Everything is bounded (`ZipLimits`): the entry count, the directory's size, each
/// entry's and the whole's unpacked bytes, the ratio of unpacked to packed bytes, entries that
/// overlap (the trick of the smallest zip bombs); the entry's CRC-32 is checked. ZIP64, split
/// and encrypted archives are refused with a reason.
final class ZipArchive {
    let path: String
    let entries: [ZipEntry]
    private let fd: Int32
    private let fileSize: UInt64
    let limits: ZipLimits

    init(path: String, limits: ZipLimits = ZipLimits()) throws {
        self.path = path
        self.limits = limits
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ZipError("cannot open: \(String(cString: strerror(errno)))") }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            close(fd)
            throw ZipError("cannot read: \(String(cString: strerror(errno)))")
        }
        fileSize = UInt64(max(0, st.st_size))
        do {
            entries = try Self.readDirectory(fd: fd, fileSize: fileSize, limits: limits)
        } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    /// True when the file starts as a zip does (`PK\3\4`, or `PK\5\6` for an empty one).
    static func looksLikeZip(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var magic = [UInt8](repeating: 0, count: 4)
        guard magic.withUnsafeMutableBytes({ pread(fd, $0.baseAddress!, 4, 0) }) == 4 else { return false }
        return magic == [0x50, 0x4B, 0x03, 0x04] || magic == [0x50, 0x4B, 0x05, 0x06]
    }

    // MARK: The central directory

    private static func readDirectory(fd: Int32, fileSize: UInt64, limits: ZipLimits) throws -> [ZipEntry] {
        // The end record: 22 bytes and a comment of at most 65,535, at the very end.
        let tailLength = min(fileSize, 22 + 65_535)
        let tail = try readBytes(fd: fd, at: fileSize - tailLength, count: Int(tailLength))
        guard tail.count >= 22, let end = stride(from: tail.count - 22, through: 0, by: -1).first(where: { tail.u32($0) == 0x0605_4B50 })
        else { throw ZipError("not a zip file (no end of central directory)") }
        let disk = tail.u16(end + 4), directoryDisk = tail.u16(end + 6)
        let count = Int(tail.u16(end + 10))
        let directorySize = UInt64(tail.u32(end + 12)), directoryOffset = UInt64(tail.u32(end + 16))
        if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            throw ZipError("a ZIP64 archive (over 65,535 entries or 4 GiB): not read; unpack it and import the folder")
        }
        guard disk == 0, directoryDisk == 0 else { throw ZipError("a zip split over several files: not read") }
        guard count <= limits.maximumEntries else { throw ZipError("\(count) entries: more than the \(limits.maximumEntries) read") }
        guard directorySize <= UInt64(limits.maximumDirectoryBytes), directoryOffset + directorySize <= fileSize else {
            throw ZipError("the central directory lies outside the file or is too large")
        }
        let directory = try readBytes(fd: fd, at: directoryOffset, count: Int(directorySize))
        var entries: [ZipEntry] = []
        var at = 0
        for _ in 0..<count {
            guard at + 46 <= directory.count, directory.u32(at) == 0x0201_4B50 else { throw ZipError("the central directory is damaged") }
            let nameLength = Int(directory.u16(at + 28)), extraLength = Int(directory.u16(at + 30)), commentLength = Int(directory.u16(at + 32))
            let next = at + 46 + nameLength + extraLength + commentLength
            guard next <= directory.count, nameLength <= limits.maximumNameBytes else { throw ZipError("the central directory is damaged") }
            let entry = ZipEntry(index: entries.count, rawName: Array(directory[(at + 46)..<(at + 46 + nameLength)]),
                                 flags: directory.u16(at + 8), method: directory.u16(at + 10),
                                 dosTime: directory.u16(at + 12), dosDate: directory.u16(at + 14), crc32: directory.u32(at + 16),
                                 packedBytes: UInt64(directory.u32(at + 20)), bytes: UInt64(directory.u32(at + 24)),
                                 localHeaderOffset: UInt64(directory.u32(at + 42)))
            entries.append(entry)
            at = next
        }
        try checkNoOverlap(entries, directoryOffset: directoryOffset)
        return entries
    }

    /// Entries whose data overlap each other or the directory (a zip bomb's trick: one deflated
    /// block unpacked many times) are refused: the whole archive is suspect.
    private static func checkNoOverlap(_ entries: [ZipEntry], directoryOffset: UInt64) throws {
        var previousEnd: UInt64 = 0
        for e in entries.sorted(by: { $0.localHeaderOffset < $1.localHeaderOffset }) {
            // At least the 30-byte local header, its name and the packed data.
            let end = e.localHeaderOffset + 30 + UInt64(e.rawName.count) + e.packedBytes
            guard e.localHeaderOffset >= previousEnd, end <= directoryOffset else {
                throw ZipError("entries overlap each other or the directory (a zip bomb?): not read")
            }
            previousEnd = end
        }
    }

    // MARK: An entry's bytes

    /// Copies `entry`'s bytes into a new file at `destination` (created, 0600), checked against
    /// the limits and the entry's CRC-32; `budget` is the unpacked bytes still allowed in all.
    func extract(_ entry: ZipEntry, to destination: String, budget: inout UInt64) throws {
        if entry.flags & 1 != 0 { throw ZipError("encrypted: not read") }
        guard entry.method == 0 || entry.method == 8 else { throw ZipError("compression method \(entry.method): only stored and deflate are read") }
        guard entry.bytes <= limits.maximumEntryBytes else { throw ZipError("\(entry.bytes) bytes unpacked: over the \(limits.maximumEntryBytes) read per file") }
        guard entry.bytes <= budget else { throw ZipError("the archive unpacks to more than the \(limits.maximumTotalBytes) bytes read in all") }
        if entry.bytes > limits.ratioFreeBytes && entry.bytes > entry.packedBytes * limits.maximumRatio {
            throw ZipError("unpacks \(entry.packedBytes) bytes to \(entry.bytes) (over \(limits.maximumRatio):1, a zip bomb?): not read")
        }
        let header = try Self.readBytes(fd: fd, at: entry.localHeaderOffset, count: 30)
        guard header.count == 30, header.u32(0) == 0x0403_4B50 else { throw ZipError("the entry's local header is damaged") }
        let dataOffset = entry.localHeaderOffset + 30 + UInt64(header.u16(26)) + UInt64(header.u16(28))
        guard dataOffset + entry.packedBytes <= fileSize else { throw ZipError("the entry runs past the end of the file") }
        let out = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard out >= 0 else { throw ZipError("cannot create a temporary file: \(String(cString: strerror(errno)))") }
        defer { close(out) }
        var sink = ZipSink(fd: out, limit: entry.bytes)
        if entry.method == 0 {
            guard entry.packedBytes == entry.bytes else { throw ZipError("a stored entry whose sizes differ") }
            try forEachChunk(from: dataOffset, count: entry.packedBytes) { chunk throws in try sink.write(chunk) }
        } else {
            try inflate(from: dataOffset, count: entry.packedBytes, into: &sink)
        }
        guard sink.written == entry.bytes else { throw ZipError("unpacked \(sink.written) bytes where the directory says \(entry.bytes)") }
        guard sink.crc == entry.crc32 else { throw ZipError("CRC-32 mismatch: the entry is damaged") }
        budget -= entry.bytes
    }

    /// The packed bytes in chunks of 64 KiB.
    private func forEachChunk(from offset: UInt64, count: UInt64, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var done: UInt64 = 0
        while done < count {
            let want = Int(min(UInt64(buffer.count), count - done))
            let got = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, want, off_t(offset + done)) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw ZipError("read failed inside the entry") }
            try buffer.withUnsafeBytes { raw throws in try body(UnsafeRawBufferPointer(rebasing: raw[0..<got])) }
            done += UInt64(got)
        }
    }

    /// Raw deflate through zlib, chunk by chunk, into `sink` (which refuses more than it expects).
    private func inflate(from offset: UInt64, count: UInt64, into sink: inout ZipSink) throws {
        var stream = z_stream()
        guard oarlog_inflate_init_raw(&stream) == Z_OK else { throw ZipError("zlib could not start") }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: 256 << 10)
        var ended = false
        try forEachChunk(from: offset, count: count) { chunk throws in
            guard !ended else { return }
            stream.next_in = UnsafeMutablePointer(mutating: chunk.baseAddress!.assumingMemoryBound(to: UInt8.self))
            stream.avail_in = uInt(chunk.count)
            repeat {
                let status: Int32 = output.withUnsafeMutableBytes { out in
                    stream.next_out = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    stream.avail_out = uInt(out.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                    throw ZipError("the deflated data is damaged (zlib \(status))")
                }
                let produced = output.count - Int(stream.avail_out)
                try output.withUnsafeBytes { raw throws in try sink.write(UnsafeRawBufferPointer(rebasing: raw[0..<produced])) }
                if status == Z_STREAM_END { ended = true; break }
                if status == Z_BUF_ERROR && produced == 0 { break }
            } while stream.avail_in > 0 || stream.avail_out == 0
        }
        guard ended else { throw ZipError("the deflated data ends early: the entry is damaged") }
    }

    static func readBytes(fd: Int32, at offset: UInt64, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw ZipError("read failed: the file is shorter than its directory says") }
            done += got
        }
        return bytes
    }
}

/// Where an entry's bytes go: a file, with the CRC-32 kept and no byte past the expected count.
struct ZipSink {
    let fd: Int32
    let limit: UInt64
    var written: UInt64 = 0
    var crc: UInt32 = 0

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        guard written + UInt64(bytes.count) <= limit else { throw ZipError("unpacks to more bytes than the directory says (a zip bomb?)") }
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        crc = UInt32(crc32(uLong(crc), base, uInt(bytes.count)))
        var done = 0
        while done < bytes.count {
            let n = Glibc.write(fd, base + done, bytes.count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw ZipError("writing a temporary file failed: \(String(cString: strerror(errno)))") }
            done += n
        }
        written += UInt64(bytes.count)
    }
}

/// One file in a zip's central directory.
struct ZipEntry {
    var index: Int
    var rawName: [UInt8]
    var flags: UInt16
    var method: UInt16
    var dosTime: UInt16
    var dosDate: UInt16
    var crc32: UInt32
    var packedBytes: UInt64
    var bytes: UInt64
    var localHeaderOffset: UInt64

    /// The name as the zip gives it (`\` read as `/`; control characters dropped): for people.
    var name: String {
        String(decoding: rawName, as: UTF8.self).replacingBackslashes.filter { !$0.isASCII || $0.asciiValue! >= 0x20 }
    }

    var isDirectory: Bool { name.hasSuffix("/") }

    /// Hidden files and folders (`.DS_Store`, `__MACOSX/`) are not a person's files.
    var isHidden: Bool {
        name.split(separator: "/").contains { $0.hasPrefix(".") || $0 == "__MACOSX" }
    }

    /// A name that climbs out of the archive or starts at the root (`../x`, `/etc/x`, NUL).
    var isUnsafeName: Bool {
        rawName.contains(0) || name.hasPrefix("/") || name.split(separator: "/").contains("..")
    }

    /// The entry's modification time (MS-DOS local time, read as UTC: the zip does not say the
    /// zone), seconds since 1970; nil when not a valid date.
    var modifiedUTC: Double? {
        let year = 1980 + Int(dosDate >> 9), month = Int((dosDate >> 5) & 15), day = Int(dosDate & 31)
        let hour = Int(dosTime >> 11), minute = Int((dosTime >> 5) & 63), second = Int(dosTime & 31) * 2
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        return UTCTime.epochSeconds(year: year, month: month, day: day, hour: hour, minute: minute, second: Double(second))
    }
}

/// What a zip may hold before it is refused.
struct ZipLimits {
    var maximumEntries = 10_000
    var maximumDirectoryBytes = 16 << 20
    var maximumNameBytes = 1024
    var maximumEntryBytes: UInt64 = 512 << 20
    var maximumTotalBytes: UInt64 = 4 << 30
    /// Unpacked bytes per packed byte; entries up to `ratioFreeBytes` are not held to it.
    var maximumRatio: UInt64 = 200
    var ratioFreeBytes: UInt64 = 1 << 20
}

/// Why a zip or one of its entries was not read.
struct ZipError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

private extension Array where Element == UInt8 {
    func u16(_ at: Int) -> UInt16 { UInt16(self[at]) | UInt16(self[at + 1]) << 8 }
    func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }
}

private extension String {
    var replacingBackslashes: String { String(map { $0 == "\\" ? "/" : $0 }) }
}
