import OarlogCore
@testable import OarlogSession

/// Test support for "an older reader skips a record kind it does not know".
enum SessionRelabel {
    /// Rewrites every record of `kind` in the chunks of `bytes` as `newKind`, with fresh CRCs.
    static func relabel(_ bytes: inout [UInt8], reader: SessionReader, kind: RecordKind, as newKind: UInt8) throws -> Int {
        var count = 0
        var offset = reader.dataStart
        while offset < reader.dataEnd {
            let length = Int(bytes[offset + 5]) | Int(bytes[offset + 6]) << 8 | Int(bytes[offset + 7]) << 16 | Int(bytes[offset + 8]) << 24
            let payloadStart = offset + SessionFormat.frameHeaderSize
            if bytes[offset + 4] == FrameKind.chunk.rawValue {
                let positions = try bytes.withUnsafeBytes { raw -> [Int] in
                    var r = ByteReader(UnsafeRawBufferPointer(rebasing: raw[payloadStart..<(payloadStart + length)]))
                    _ = try ChunkHeader.decode(&r)
                    var positions: [Int] = []
                    while !r.isAtEnd {
                        if try r.u8() == kind.rawValue { positions.append(payloadStart + r.position - 1) }
                        r.position += try r.length(limit: r.remaining)
                    }
                    return positions
                }
                count += positions.count
                for p in positions { bytes[p] = newKind }
                let crc = CRC32C.checksum(Array(bytes[(offset + 4)..<(payloadStart + length)]))
                for k in 0..<4 { bytes[payloadStart + length + k] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(k))) }
            }
            offset = payloadStart + length + SessionFormat.frameTrailerSize
        }
        return count
    }
}
