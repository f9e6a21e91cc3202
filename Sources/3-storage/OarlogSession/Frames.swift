/// Building one frame in a byte buffer: `sync kind length payload crc`.
struct FrameBuilder {
    var w: ByteWriter

    init(capacity: Int = 4096) { w = ByteWriter(capacity: capacity) }

    /// Starts a frame of `kind`; the payload follows with `w`.
    mutating func begin(_ kind: FrameKind) {
        w.removeAll()
        w.raw(SessionFormat.frameSync)
        w.u8(kind.rawValue)
        w.u32(0)  // length, patched in `end`
    }

    var payloadCount: Int { w.count - SessionFormat.frameHeaderSize }

    /// Patches the length and appends the CRC (over kind, length and payload).
    mutating func end() {
        w.patchU32(UInt32(payloadCount), at: 5)
        let crc = w.bytes.withUnsafeBytes { CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[4...])) }
        w.u32(crc)
    }
}

/// What `FrameScanner.frame(at:)` found at an offset.
enum FrameRead {
    /// A frame whose CRC checked. `payload` stays valid until the scanner's next read.
    case frame(kind: UInt8, payload: UnsafeRawBufferPointer, next: Int)
    /// Exactly at the end of the file.
    case endOfFile
    /// The trailing magic of a finished file, ending exactly at the end of the file.
    case trailingMagic
    /// No valid frame here. `torn` when the file ends inside what looks like a frame.
    case damaged(reason: String, torn: Bool)
}

/// Reads frames from a file: straight from the file's memory map when it has one, else through
/// one reusable window buffer (bounded memory: the buffer grows only to the largest frame met, at
/// most `SessionFormat.maximumFramePayload`). With a map, the pages already passed are handed
/// back every `mappedPagesKept` bytes, so resident memory stays bounded on a long session too.
final class FrameScanner {
    let file: RandomAccessFile
    /// Mapped bytes before the read position that may stay resident.
    static let mappedPagesKept = 1 << 20
    /// Mapped pages before this offset have been handed back.
    private var releasedUpTo = 0
    private var buffer: UnsafeMutableRawPointer
    private var capacity: Int
    private var windowStart = 0
    private var windowCount = 0
    /// File size seen by this scanner.
    let fileSize: Int

    init(file: RandomAccessFile, readAhead: Int = 1 << 18) {
        self.file = file
        self.fileSize = file.size
        capacity = file.mapping == nil ? readAhead : 16  // a mapped file needs no window
        buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// Makes [offset, offset + count) available in the window if the file has it; returns a
    /// pointer to `offset` and how many of the `count` bytes are there.
    @inline(__always)
    private func ensure(_ offset: Int, _ count: Int) throws -> (UnsafeRawPointer, Int) {
        if let mapping = file.mapping {
            if offset &- releasedUpTo > Self.mappedPagesKept || offset < releasedUpTo {
                releasedUpTo = file.releaseMappedPages(before: offset, from: releasedUpTo)
            }
            return (mapping + min(offset, fileSize), max(0, min(count, fileSize - offset)))
        }
        if offset >= windowStart && offset + count <= windowStart + windowCount {
            return (UnsafeRawPointer(buffer + (offset - windowStart)), count)
        }
        if count > capacity {
            buffer.deallocate()
            capacity = max(count, capacity * 2)
            buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        }
        let n = try file.read(into: buffer, count: min(capacity, max(0, fileSize - offset)), at: offset)
        windowStart = offset
        windowCount = n
        return (UnsafeRawPointer(buffer), min(n, count))
    }

    /// Bytes at `offset` (up to `count`) as a buffer valid until the next read.
    func peek(_ offset: Int, _ count: Int) throws -> UnsafeRawBufferPointer {
        let (p, n) = try ensure(offset, count)
        return UnsafeRawBufferPointer(start: p, count: n)
    }

    func frame(at offset: Int) throws -> FrameRead {
        if offset >= fileSize { return .endOfFile }
        if offset + 8 == fileSize, try peek(offset, 8).elementsEqual(SessionFormat.magic) { return .trailingMagic }
        let header = try peek(offset, SessionFormat.frameHeaderSize)
        if header.count < SessionFormat.frameHeaderSize {
            if header.elementsEqual(SessionFormat.frameSync.prefix(header.count)) {
                return .damaged(reason: "the file ends inside a frame header", torn: true)
            }
            return .damaged(reason: "stray bytes at the end of the file", torn: false)
        }
        if header.loadUnaligned(as: UInt32.self) != SessionFormat.frameSyncWord.littleEndian {
            return .damaged(reason: "no frame starts here", torn: false)
        }
        let kind = header[4]
        let length = Int(UInt32(littleEndian: header.loadUnaligned(fromByteOffset: 5, as: UInt32.self)))
        guard length <= SessionFormat.maximumFramePayload else {
            return .damaged(reason: "a frame claims \(length) bytes", torn: false)
        }
        let total = SessionFormat.frameHeaderSize + length + SessionFormat.frameTrailerSize
        let whole = try peek(offset, total)
        if whole.count < total {
            return .damaged(reason: "the file ends inside a frame (\(whole.count) of \(total) bytes)", torn: true)
        }
        let stored = UInt32(littleEndian: whole.loadUnaligned(fromByteOffset: total - 4, as: UInt32.self))
        let computed = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: whole[4..<(total - 4)]))
        guard stored == computed else { return .damaged(reason: "a frame fails its CRC check", torn: false) }
        return .frame(kind: kind,
                      payload: UnsafeRawBufferPointer(rebasing: whole[SessionFormat.frameHeaderSize..<(total - 4)]),
                      next: offset + total)
    }

    /// The offset of the next frame sync at or after `offset`, if any.
    func nextSync(from offset: Int) throws -> Int? {
        var position = offset
        let chunk = 1 << 16
        while position + 4 <= fileSize {
            let window = try peek(position, chunk + 3)
            if window.count < 4 { return nil }
            var i = 0
            let limit = window.count - 3
            while i < limit {
                if window[i] == 0xF0 && window.loadUnaligned(fromByteOffset: i, as: UInt32.self) == SessionFormat.frameSyncWord.littleEndian {
                    return position + i
                }
                i += 1
            }
            position += limit
        }
        return nil
    }
}
