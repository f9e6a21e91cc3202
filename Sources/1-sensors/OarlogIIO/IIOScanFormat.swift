import OarlogCore

/// How one channel's value sits in a buffer scan: the kernel's `scan_elements/*_type` string,
/// `[be|le]:[s|u]BITS/STORAGE[XREPEAT]>>SHIFT` (for example `le:s16/16>>0`, `be:s12/16>>4`).
///
/// A pure value: parse it, print it back, and decode raw scan bytes into the integer the driver
/// meant (byte order applied, shifted right, masked to `bits`, sign-extended).
public struct IIOScanFormat: Sendable, Equatable, CustomStringConvertible {
    public var bigEndian: Bool
    public var signed: Bool
    /// Bits that carry the value ("realbits").
    public var bits: Int
    /// Bits the value occupies in the scan (8, 16, 32 or 64).
    public var storageBits: Int
    /// Right shift before masking to `bits`.
    public var shift: Int
    /// How many values of this layout follow each other (1 for accelerometers).
    public var repeatCount: Int

    /// Checks the fields; throws when a driver's type could not be used.
    public init(bigEndian: Bool, signed: Bool, bits: Int, storageBits: Int, shift: Int, repeatCount: Int = 1) throws {
        guard [8, 16, 32, 64].contains(storageBits) else {
            throw IIOError.unreadableScanType(channel: nil, text: "storage of \(storageBits) bits (expected 8, 16, 32 or 64)")
        }
        guard bits >= 1, shift >= 0, bits + shift <= storageBits else {
            throw IIOError.unreadableScanType(channel: nil, text: "\(bits) bits shifted by \(shift) do not fit in \(storageBits)")
        }
        guard repeatCount >= 1 else {
            throw IIOError.unreadableScanType(channel: nil, text: "repeat count \(repeatCount)")
        }
        self.bigEndian = bigEndian
        self.signed = signed
        self.bits = bits
        self.storageBits = storageBits
        self.shift = shift
        self.repeatCount = repeatCount
    }

    /// Parses a kernel type string such as `le:s16/16>>0` (letters in either case).
    public init(parsing text: String) throws {
        let trimmed = text.trimmingWhitespace()
        let bad = IIOError.unreadableScanType(channel: nil, text: trimmed.isEmpty ? "(empty)" : trimmed)
        let lower = Array(trimmed.lowercased().utf8)
        var i = 0
        func expect(_ c: UInt8) throws { guard i < lower.count, lower[i] == c else { throw bad }; i += 1 }
        func number() throws -> Int {
            var value = 0, digits = 0
            while i < lower.count, lower[i] >= 48, lower[i] <= 57, digits < 4 {
                value = value * 10 + Int(lower[i] - 48); i += 1; digits += 1
            }
            guard digits > 0 else { throw bad }
            return value
        }
        guard lower.count >= 3 else { throw bad }
        let endian = String(decoding: lower[0..<2], as: UTF8.self)
        guard endian == "le" || endian == "be" else { throw bad }
        i = 2
        try expect(UInt8(ascii: ":"))
        guard i < lower.count, lower[i] == UInt8(ascii: "s") || lower[i] == UInt8(ascii: "u") else { throw bad }
        let isSigned = lower[i] == UInt8(ascii: "s")
        i += 1
        let bits = try number()
        try expect(UInt8(ascii: "/"))
        let storage = try number()
        var repeatCount = 1
        if i < lower.count, lower[i] == UInt8(ascii: "x") { i += 1; repeatCount = try number() }
        try expect(UInt8(ascii: ">")); try expect(UInt8(ascii: ">"))
        let shift = try number()
        guard i == lower.count else { throw bad }
        do {
            try self.init(bigEndian: endian == "be", signed: isSigned, bits: bits, storageBits: storage,
                          shift: shift, repeatCount: repeatCount)
        } catch { throw bad }
    }

    /// Bytes the value occupies in a scan.
    public var storageBytes: Int { storageBits / 8 }

    /// The kernel's spelling of this type.
    public var description: String {
        "\(bigEndian ? "be" : "le"):\(signed ? "s" : "u")\(bits)/\(storageBits)"
            + (repeatCount > 1 ? "X\(repeatCount)" : "") + ">>\(shift)"
    }

    /// The integer value stored at `bytes` (which must hold `storageBytes`). An unsigned 64-bit
    /// value above `Int64.max` wraps (no accelerometer has one).
    @inlinable
    public func decode(_ bytes: UnsafeRawPointer) -> Int64 {
        var word: UInt64 = 0
        let n = storageBits >> 3
        if bigEndian {
            for k in 0..<n { word = (word << 8) | UInt64(bytes.load(fromByteOffset: k, as: UInt8.self)) }
        } else {
            var k = n - 1
            while k >= 0 { word = (word << 8) | UInt64(bytes.load(fromByteOffset: k, as: UInt8.self)); k -= 1 }
        }
        word >>= UInt64(shift)
        if bits < 64 {
            word &= (UInt64(1) << UInt64(bits)) &- 1
            if signed && (word >> UInt64(bits - 1)) & 1 == 1 {
                word |= ~((UInt64(1) << UInt64(bits)) &- 1)
            }
        }
        return Int64(bitPattern: word)
    }

    /// The raw bytes for `value` in this format (the inverse of `decode`, for writing test data).
    public func encode(_ value: Int64) -> [UInt8] {
        var word = UInt64(bitPattern: value)
        if bits < 64 { word &= (UInt64(1) << UInt64(bits)) &- 1 }
        word <<= UInt64(shift)
        let n = storageBytes
        var out = [UInt8](repeating: 0, count: n)
        for k in 0..<n {
            let byte = UInt8(truncatingIfNeeded: word >> UInt64(8 * k))
            out[bigEndian ? n - 1 - k : k] = byte
        }
        return out
    }
}
