/// Little-endian byte encoding into a growable buffer (reused between chunks, so a recording
/// allocates nothing once the buffer has reached its working size).
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    var count: Int { bytes.count }
    mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func f64(_ v: Double) { u64(v.bitPattern) }
    mutating func f32(_ v: Float) { u32(v.bitPattern) }

    /// Unsigned LEB128.
    mutating func varint(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// Signed values zig-zag mapped, then LEB128 (small magnitudes of either sign are short).
    mutating func zigzag(_ v: Int64) { varint(UInt64(bitPattern: (v << 1) ^ (v >> 63))) }

    mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func raw(_ buffer: UnsafeRawBufferPointer) { bytes.append(contentsOf: buffer) }
    mutating func raw(_ other: ByteWriter) { bytes.append(contentsOf: other.bytes) }
    mutating func raw(_ other: [UInt8]) { bytes.append(contentsOf: other) }

    /// Overwrites 4 bytes at `offset` (a length or count patched in after the fact).
    mutating func patchU32(_ v: UInt32, at offset: Int) {
        withUnsafeBytes(of: v.littleEndian) { b in
            for i in 0..<4 { bytes[offset + i] = b[i] }
        }
    }
}

/// Thrown by `ByteReader` when a payload ends early or holds a value that cannot be right.
struct DecodeError: Error, CustomStringConvertible {
    var description: String
}

/// A bounds-checked little-endian cursor over bytes that may be damaged: every read checks the
/// remaining length and throws instead of trapping.
struct ByteReader {
    let base: UnsafeRawPointer
    let end: Int
    var position: Int

    init(_ buffer: UnsafeRawBufferPointer, from start: Int = 0) {
        base = buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
        end = buffer.count
        position = start
    }

    init(base: UnsafeRawPointer, start: Int, end: Int) {
        self.base = base
        self.position = start
        self.end = end
    }

    var remaining: Int { end - position }
    var isAtEnd: Bool { position >= end }

    @inline(__always)
    mutating func need(_ n: Int) throws {
        if n < 0 || n > end - position { throw DecodeError(description: "a record ends early") }
    }

    mutating func u8() throws -> UInt8 {
        try need(1)
        defer { position += 1 }
        return base.load(fromByteOffset: position, as: UInt8.self)
    }

    mutating func u16() throws -> UInt16 {
        try need(2)
        defer { position += 2 }
        return UInt16(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt16.self))
    }

    mutating func u32() throws -> UInt32 {
        try need(4)
        defer { position += 4 }
        return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt32.self))
    }

    mutating func u64() throws -> UInt64 {
        try need(8)
        defer { position += 8 }
        return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt64.self))
    }

    mutating func f64() throws -> Double { Double(bitPattern: try u64()) }
    mutating func f32() throws -> Float { Float(bitPattern: try u32()) }

    /// Unsigned LEB128; one-byte values (counts, lengths, steady intervals) take the short path.
    @inline(__always)
    mutating func varint() throws -> UInt64 {
        if position < end {
            let byte = base.load(fromByteOffset: position, as: UInt8.self)
            if byte < 0x80 {
                position += 1
                return UInt64(byte)
            }
        }
        return try longVarint()
    }

    private mutating func longVarint() throws -> UInt64 {
        if end - position >= 10 {
            // All ten bytes a varint may have are there: no length check per byte.
            var result: UInt64 = 0
            var shift: UInt64 = 0
            var p = position
            while true {
                let byte = base.load(fromByteOffset: p, as: UInt8.self)
                p += 1
                if shift == 63 && byte > 1 { throw DecodeError(description: "a number is too long") }
                result |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 {
                    position = p
                    return result
                }
                shift += 7
                if shift > 63 { throw DecodeError(description: "a number is too long") }
            }
        }
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try u8()
            if shift == 63 && byte > 1 { throw DecodeError(description: "a number is too long") }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
            if shift > 63 { throw DecodeError(description: "a number is too long") }
        }
    }

    @inline(__always)
    mutating func zigzag() throws -> Int64 {
        let u = try varint()
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    /// A varint that must fit in `limit` (a length or count).
    @inline(__always)
    mutating func length(limit: Int) throws -> Int {
        let v = try varint()
        guard v <= UInt64(limit) else { throw DecodeError(description: "a length (\(v)) exceeds the record") }
        return Int(v)
    }

    mutating func string() throws -> String {
        let n = try length(limit: remaining)
        defer { position += n }
        return String(decoding: UnsafeRawBufferPointer(start: base + position, count: n), as: UTF8.self)
    }

    mutating func skip(_ n: Int) throws {
        try need(n)
        position += n
    }

    /// A pointer to the next `n` bytes, after checking they are there.
    mutating func take(_ n: Int) throws -> UnsafeRawPointer {
        try need(n)
        defer { position += n }
        return base + position
    }
}
