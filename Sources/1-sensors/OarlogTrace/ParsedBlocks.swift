import OarlogCore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stretch of a native trace, parsed by `NativeTraceReader` on the parsing thread, in the
/// order the reader gave it: plain accelerometer rows (its batch path, `readAccel`) straight
/// into `samples`, and between them the records its `next()` returned (anything else, and the
/// first row after a line the batch path stops at). The reader's statistics travel with it, so
/// the reading thread can report exactly the counts the reader had at each point.
final class ParsedBlock {
    /// How a block ends: more blocks follow, the trace ended, or reading failed.
    enum Ending {
        case more
        case end
        /// The reader's error; `inBatch` when its batch path threw it (a failed refill), not
        /// `next()`.
        case failed(any Error, inBatch: Bool)
    }

    /// A record from the reader's `next()`: it comes before sample `beforeSample`; `statistics`
    /// are the reader's counts just after it.
    struct Record {
        var beforeSample: Int
        var record: TraceRecord
        var statistics: TraceReadStatistics
    }

    let sampleCapacity: Int
    let recordCapacity: Int
    let samples: UnsafeMutablePointer<AccelSample>
    private(set) var sampleCount = 0
    private(set) var records: [Record] = []
    /// The reader's counts when the block began, and when it ended.
    private(set) var startStatistics = TraceReadStatistics()
    private(set) var endStatistics = TraceReadStatistics()
    private(set) var ending = Ending.more

    init(sampleCapacity: Int, recordCapacity: Int) {
        self.sampleCapacity = sampleCapacity
        self.recordCapacity = recordCapacity
        samples = .allocate(capacity: sampleCapacity)
        records.reserveCapacity(recordCapacity)
    }

    deinit { samples.deallocate() }

    /// Parses the next stretch of `reader` into the block (reusing its storage): until the
    /// samples or the records are full, the trace ends, or the reader throws.
    func fill(from reader: inout NativeTraceReader) {
        sampleCount = 0
        records.removeAll(keepingCapacity: true)
        startStatistics = reader.statistics
        ending = .more
        while sampleCount < sampleCapacity && records.count < recordCapacity {
            let room = UnsafeMutableBufferPointer(start: samples + sampleCount, count: sampleCapacity - sampleCount)
            do {
                sampleCount += try reader.readAccel(into: room)
            } catch {
                ending = .failed(error, inBatch: true)
                break
            }
            if sampleCount == sampleCapacity { break }
            // The batch path stopped before a line that is not a plain accelerometer row (or at
            // the end): `next()` decides, as the pipeline would call it.
            do {
                guard let record = try reader.next() else {
                    ending = .end
                    break
                }
                records.append(Record(beforeSample: sampleCount, record: record, statistics: reader.statistics))
            } catch {
                ending = .failed(error, inBatch: false)
                break
            }
        }
        endStatistics = reader.statistics
    }

    /// Hands the block's accelerometer samples to `lookahead` in the trace's order: the runs of
    /// plain rows, and between them the samples among the records.
    func feed(_ lookahead: any AccelLookahead) {
        var start = 0
        for entry in records {
            if entry.beforeSample > start {
                lookahead.take(UnsafeBufferPointer(start: samples + start, count: entry.beforeSample - start))
                start = entry.beforeSample
            }
            if case .accel(var sample) = entry.record {
                withUnsafePointer(to: &sample) { lookahead.take(UnsafeBufferPointer(start: $0, count: 1)) }
            }
        }
        if sampleCount > start {
            lookahead.take(UnsafeBufferPointer(start: samples + start, count: sampleCount - start))
        }
    }
}

/// A counting semaphore on a pthread mutex and condition: how many blocks wait for a thread.
final class BlockCount: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Guarded by `mutex`.
    private var count: Int

    init(_ count: Int) {
        self.count = count
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    /// Waits until the count is above 0 and takes one.
    func take() {
        pthread_mutex_lock(mutex)
        while count == 0 { pthread_cond_wait(condition, mutex) }
        count -= 1
        pthread_mutex_unlock(mutex)
    }

    /// Adds one and wakes a waiting thread.
    func give() {
        pthread_mutex_lock(mutex)
        count += 1
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }
}

/// The ring of parsed blocks between the parsing thread and the reading one. Block `k` (mod the
/// ring's size) belongs to the parsing thread after it took a `free` count, and to the reading
/// thread after it took a `filled` count; the counts' mutex orders the block's contents between
/// the two threads. Memory is fixed: the blocks are made once and reused.
final class ParsedBlockRing: @unchecked Sendable {
    let blocks: [ParsedBlock]
    /// Blocks the parsing thread may fill.
    let free: BlockCount
    /// Blocks parsed and not yet taken by the reading thread.
    let filled = BlockCount(0)
    /// Set when the reading side goes away: the parsing thread stops at its next block.
    let stopRequested = Atomic<Bool>(false)
    /// Work on every sample on the parsing thread (`AccelLookahead`): each block's samples go to
    /// it before the block is handed over.
    let lookahead: (any AccelLookahead)?

    init(blockCount: Int, samplesPerBlock: Int, recordsPerBlock: Int, lookahead: (any AccelLookahead)? = nil) {
        blocks = (0..<blockCount).map { _ in ParsedBlock(sampleCapacity: samplesPerBlock, recordCapacity: recordsPerBlock) }
        free = BlockCount(blockCount)
        self.lookahead = lookahead
    }

    /// The parsing thread's loop: fills blocks in turn until the trace ends, the reader throws,
    /// or the reading side asks it to stop.
    func parse(_ reader: inout NativeTraceReader) {
        defer { lookahead?.end() }
        var k = 0
        while true {
            free.take()
            if stopRequested.load(ordering: .acquiring) { return }
            let block = blocks[k]
            block.fill(from: &reader)
            if let lookahead { block.feed(lookahead) }
            filled.give()
            if case .more = block.ending {
                k = (k + 1) % blocks.count
            } else {
                return
            }
        }
    }
}
