import OarlogCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The native CSV trace parsed ahead on a second thread: a `NativeTraceReader` runs there and
/// fills a small ring of blocks (`ParsedBlockRing`) while this thread analyses the blocks
/// before, so a replay parses and analyses at once. What comes out is exactly what the reader
/// gives, in the same order and in the same batches: the same records, field for field, the
/// same batch boundaries for `nextAccelBatch`, the same error at the same place (file and line)
/// and, at every point, the same `statistics`.
///
/// Memory is fixed: `blockCount` blocks of `samplesPerBlock` samples and at most
/// `recordsPerBlock` other records, whatever the trace's length. When the reader goes away
/// before the end (a consumer that stops early), the parsing thread is stopped and joined.
/// The reader owns its thread; do not use two copies of one reader.
public struct ParseAheadTraceReader: RecordSource, TraceStatisticsReporting {
    /// Blocks in flight between the two threads.
    public static let defaultBlockCount = 4
    /// Accelerometer samples a block holds (24 bytes each).
    public static let defaultSamplesPerBlock = 8192
    /// Other records (fixes, notes, metadata…) a block holds.
    public static let defaultRecordsPerBlock = 512

    private let reading: ParsedBlockReading

    public var path: String { reading.path }

    /// The reader's counts as of the last record or sample delivered; final once `next()` has
    /// returned nil.
    public var statistics: TraceReadStatistics { reading.statistics }

    /// Opens `path` (throwing here, as `NativeTraceReader.init` does, if it cannot) and starts
    /// parsing it on a new thread.
    public init(path: String,
                blockCount: Int = ParseAheadTraceReader.defaultBlockCount,
                samplesPerBlock: Int = ParseAheadTraceReader.defaultSamplesPerBlock,
                recordsPerBlock: Int = ParseAheadTraceReader.defaultRecordsPerBlock,
                lookahead: (any AccelLookahead)? = nil) throws {
        try self.init(reader: NativeTraceReader(path: path), blockCount: blockCount,
                      samplesPerBlock: samplesPerBlock, recordsPerBlock: recordsPerBlock, lookahead: lookahead)
    }

    /// Parses `reader` (freshly opened, or partly read) ahead on a new thread. Throws
    /// `TraceError.io` if no thread can be started (the lookahead is then told `end()` at once).
    /// `lookahead`, when given and not yet attached to another trace, is handed every sample on
    /// the parsing thread (`AccelLookahead`).
    init(reader: NativeTraceReader,
         blockCount: Int = ParseAheadTraceReader.defaultBlockCount,
         samplesPerBlock: Int = ParseAheadTraceReader.defaultSamplesPerBlock,
         recordsPerBlock: Int = ParseAheadTraceReader.defaultRecordsPerBlock,
         lookahead: (any AccelLookahead)? = nil) throws {
        let ring = ParsedBlockRing(blockCount: max(blockCount, 2), samplesPerBlock: max(samplesPerBlock, 1),
                                   recordsPerBlock: max(recordsPerBlock, 1),
                                   lookahead: lookahead.flatMap { $0.attach() ? $0 : nil })
        reading = try ParsedBlockReading(ring: ring, reader: reader)
    }

    public mutating func next() throws -> TraceRecord? { try reading.next() }

    public mutating func nextAccelBatch(into buffer: UnsafeMutableBufferPointer<AccelSample>) throws -> Int {
        try reading.nextAccelBatch(into: buffer)
    }
}

/// The parsing thread's own state: the reader, moved there at the start and closed (with its
/// file) when the thread ends.
private final class ParsingThreadState: @unchecked Sendable {
    var reader: NativeTraceReader
    let ring: ParsedBlockRing
    init(reader: NativeTraceReader, ring: ParsedBlockRing) {
        self.reader = reader
        self.ring = ring
    }
}

/// The reading side of a `ParsedBlockRing`: walks the blocks in order and hands out their
/// samples and records; owns the parsing thread (stops and joins it in `deinit`).
final class ParsedBlockReading {
    let path: String
    private let ring: ParsedBlockRing
    private var thread: pthread_t
    /// The block being read (nil before the first), and the next sample and record in it.
    private var block: ParsedBlock?
    private var blockIndex = -1
    private var sampleIndex = 0
    private var recordIndex = 0
    /// Where reading ended, once the last block is read out.
    private var ending: ParsedBlock.Ending = .more
    /// The reader's counts at the last record delivered (or the block's start), and the plain
    /// accelerometer rows delivered since: each counts one row and one line.
    private var countsAtRecord: TraceReadStatistics
    private var samplesSinceRecord = 0

    init(ring: ParsedBlockRing, reader: NativeTraceReader) throws {
        path = reader.path
        self.ring = ring
        countsAtRecord = reader.statistics
        let state = ParsingThreadState(reader: reader, ring: ring)
        switch ThreadLauncher.start({ state.ring.parse(&state.reader) }) {
        case .success(let thread):
            self.thread = thread
        case .failure(let failure):
            ring.lookahead?.end()
            throw TraceError(.io, file: reader.path, "cannot start the parsing thread: \(failure)")
        }
    }

    deinit {
        // Stop the parsing thread at its next block (waking it if it waits for one) and wait
        // for it to end; it closes the file as it goes.
        ring.stopRequested.store(true, ordering: .releasing)
        ring.free.give()
        pthread_join(thread, nil)
    }

    var statistics: TraceReadStatistics {
        var counts = countsAtRecord
        counts.accelRows += samplesSinceRecord
        counts.linesRead += samplesSinceRecord
        return counts
    }

    /// The block holding the next sample or record, moving to the next block as one is read
    /// out; nil once the last block is read out (`ending` says how it ended).
    @inline(__always)
    private func currentBlock() -> ParsedBlock? {
        while true {
            if let block, sampleIndex < block.sampleCount || recordIndex < block.records.count { return block }
            if case .more = ending {} else { return nil }
            if let block {
                guard case .more = block.ending else {
                    ending = block.ending
                    countsAtRecord = block.endStatistics
                    samplesSinceRecord = 0
                    return nil
                }
                ring.free.give()
            }
            ring.filled.take()
            blockIndex = (blockIndex + 1) % ring.blocks.count
            let next = ring.blocks[blockIndex]
            block = next
            sampleIndex = 0
            recordIndex = 0
            countsAtRecord = next.startStatistics
            samplesSinceRecord = 0
        }
    }

    func next() throws -> TraceRecord? {
        guard let block = currentBlock() else {
            if case .failed(let error, _) = ending { throw error }
            return nil
        }
        if recordIndex < block.records.count && block.records[recordIndex].beforeSample == sampleIndex {
            let entry = block.records[recordIndex]
            recordIndex += 1
            countsAtRecord = entry.statistics
            samplesSinceRecord = 0
            return entry.record
        }
        let sample = block.samples[sampleIndex]
        sampleIndex += 1
        samplesSinceRecord += 1
        return .accel(sample)
    }

    /// As `NativeTraceReader.readAccel(into:)`: the plain accelerometer rows that come next, up
    /// to `buffer.count`, across blocks; it stops before a record, and throws where the
    /// reader's batch path threw (if that comes before `buffer` is full).
    func nextAccelBatch(into buffer: UnsafeMutableBufferPointer<AccelSample>) throws -> Int {
        guard let out = buffer.baseAddress else { return 0 }
        var n = 0
        while n < buffer.count, let block = currentBlock() {
            let runEnd = recordIndex < block.records.count ? block.records[recordIndex].beforeSample : block.sampleCount
            let count = min(runEnd - sampleIndex, buffer.count - n)
            if count == 0 { break }    // a record comes next
            (out + n).update(from: block.samples + sampleIndex, count: count)
            sampleIndex += count
            samplesSinceRecord += count
            n += count
        }
        if n < buffer.count, case .failed(let error, inBatch: true) = ending { throw error }
        return n
    }
}
