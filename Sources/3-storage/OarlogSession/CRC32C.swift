import COarlogCRC

/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum of every frame. Check
/// value: `checksum("123456789") == 0xE3069283`.
///
/// On x86-64 with SSE4.2 and PCLMULQDQ (checked once at run time) the CPU's `crc32` instruction
/// does it, three streams interleaved (`COarlogCRC`, tens of GB/s); elsewhere slicing-by-8 in
/// plain Swift (eight table lookups per 8 bytes, about 1–2 GB/s).
public enum CRC32C {
    /// The hardware path is usable on this CPU.
    static let hardwareAvailable = oarlog_crc32c_hw_available() != 0

    /// Eight 256-entry tables, table k at [k * 256 ..< (k + 1) * 256].
    private static let tables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for i in 0..<256 {
            var c = UInt32(i)
            for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0x82F6_3B78 : c >> 1 }
            t[i] = c
        }
        for k in 1..<8 {
            for i in 0..<256 {
                let previous = t[(k - 1) * 256 + i]
                t[k * 256 + i] = (previous >> 8) ^ t[Int(previous & 0xFF)]
            }
        }
        return t
    }()

    /// The CRC of `bytes`, continuing from `crc` (the CRC of the bytes before; 0 to start).
    @inline(__always)
    public static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        if hardwareAvailable { return hardwareChecksum(bytes, continuing: crc) }
        return softwareChecksum(bytes, continuing: crc)
    }

    /// The CPU's CRC instruction; only when `hardwareAvailable`.
    static func hardwareChecksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        oarlog_crc32c_hw(crc, bytes.baseAddress, bytes.count)
    }

    /// Slicing-by-8 in plain Swift (any CPU).
    static func softwareChecksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        guard var p = bytes.baseAddress, bytes.count > 0 else { return crc }
        var n = bytes.count
        var c = ~crc
        tables.withUnsafeBufferPointer { table in
            let t = table.baseAddress!
            while n >= 8 {
                let w = p.loadUnaligned(as: UInt64.self).littleEndian ^ UInt64(c)
                c = t[7 * 256 + Int(w & 0xFF)] ^ t[6 * 256 + Int((w >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((w >> 16) & 0xFF)] ^ t[4 * 256 + Int((w >> 24) & 0xFF)]
                    ^ t[3 * 256 + Int((w >> 32) & 0xFF)] ^ t[2 * 256 + Int((w >> 40) & 0xFF)]
                    ^ t[1 * 256 + Int((w >> 48) & 0xFF)] ^ t[Int(w >> 56)]
                p += 8
                n -= 8
            }
            while n > 0 {
                c = t[Int((c ^ UInt32(p.load(as: UInt8.self))) & 0xFF)] ^ (c >> 8)
                p += 1
                n -= 1
            }
        }
        return ~c
    }

    /// The CRC of an array of bytes.
    public static func checksum(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, continuing: crc) }
    }
}
