import OarlogCore

/// Where one chunk starts and the data time it covers.
public struct ChunkIndexEntry: Sendable, Equatable {
    /// Byte offset of the chunk's frame.
    public var offset: Int
    public var sequence: UInt32
    public var firstTime: Seconds
    public var lastTime: Seconds
}

/// A time → offset index with a fixed maximum size: one entry every `stride` chunks; when it is
/// full, every other entry is dropped and the stride doubles. So a recording of any length keeps
/// at most `capacity` entries in memory (4,096 × 32 bytes), and a seek reads at most `stride`
/// chunk headers past the entry it lands on.
struct SparseChunkIndex {
    private(set) var entries: [ChunkIndexEntry] = []
    private(set) var stride = 1
    let capacity: Int
    private var chunksSinceEntry = Int.max

    init(capacity: Int = 4096) {
        self.capacity = max(2, capacity)
        entries.reserveCapacity(self.capacity)
    }

    /// An index as read back from a finished file (to write it again unchanged after an append).
    init(stride: Int, entries: [ChunkIndexEntry]) {
        self.capacity = max(2, entries.count)
        self.stride = stride
        self.entries = entries
    }

    /// Offers a chunk that covers [first, last] (chunks without timed records are not indexed).
    mutating func add(offset: Int, sequence: UInt32, firstTime: Seconds, lastTime: Seconds) {
        guard !firstTime.isNaN, !lastTime.isNaN else { return }
        if chunksSinceEntry < stride {
            chunksSinceEntry += 1
            return
        }
        if entries.count == capacity {
            var kept = 0
            for i in Swift.stride(from: 0, to: entries.count, by: 2) {
                entries[kept] = entries[i]
                kept += 1
            }
            entries.removeLast(entries.count - kept)
            stride *= 2
        }
        entries.append(ChunkIndexEntry(offset: offset, sequence: sequence, firstTime: firstTime, lastTime: lastTime))
        chunksSinceEntry = 1
    }

    func encode(into w: inout ByteWriter) {
        w.u32(UInt32(stride))
        w.varint(UInt64(entries.count))
        for e in entries {
            w.u64(UInt64(e.offset))
            w.u32(e.sequence)
            w.f64(e.firstTime)
            w.f64(e.lastTime)
        }
    }

    static func decode(_ r: inout ByteReader) throws -> (stride: Int, entries: [ChunkIndexEntry]) {
        let stride = Int(try r.u32())
        let n = try r.length(limit: r.remaining / 28)
        var entries: [ChunkIndexEntry] = []
        entries.reserveCapacity(n)
        for _ in 0..<n {
            let offset = try r.u64()
            guard offset < UInt64(Int.max) else { throw DecodeError(description: "an index offset is out of range") }
            entries.append(ChunkIndexEntry(offset: Int(offset), sequence: try r.u32(), firstTime: try r.f64(), lastTime: try r.f64()))
        }
        return (stride, entries)
    }
}

/// The fixed header at the start of a chunk's payload.
struct ChunkHeader {
    static let size = 28
    var sequence: UInt32
    /// Earliest and latest time of a raw record or event in the chunk (NaN when none).
    var firstTime: Seconds
    var lastTime: Seconds
    /// Entries in the chunk, accelerometer samples counted one by one.
    var entryCount: UInt32
    var accelerometerSamples: UInt32

    static func decode(_ r: inout ByteReader) throws -> ChunkHeader {
        ChunkHeader(sequence: try r.u32(), firstTime: try r.f64(), lastTime: try r.f64(),
                    entryCount: try r.u32(), accelerometerSamples: try r.u32())
    }
}
