#if canImport(Glibc)
import Glibc
#endif
import OarlogCore

/// A bounded, thread-safe FIFO between a device-reader thread (gpsd, IIO) and the pipeline.
///
/// The reader `push`es (blocking while the queue is full, so memory stays bounded and a slow
/// consumer applies back-pressure instead of growing a buffer); the pipeline pulls with `next()`,
/// which blocks until a record arrives. After `close()` no more records are accepted, the ones
/// already queued are still delivered, and then `next()` returns `nil` — so a closed queue ends
/// `Pipeline.run` cleanly. Storage is one `RingBuffer` allocated up front.
public final class RecordQueue<Element: Sendable>: @unchecked Sendable {
    public let capacity: Int
    /// The queued records, oldest first (a taken slot is cleared, so the queue holds no record
    /// it has handed on).
    private var ring: RingBuffer<Element?>
    private var closed = false
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let notEmpty: UnsafeMutablePointer<pthread_cond_t>
    private let notFull: UnsafeMutablePointer<pthread_cond_t>

    public init(capacity: Int) {
        precondition(capacity > 0, "a queue needs room for at least one record")
        self.capacity = capacity
        ring = RingBuffer(capacity: capacity, filler: nil)
        mutex = .allocate(capacity: 1)
        notEmpty = .allocate(capacity: 1)
        notFull = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        // Timed waits use the monotonic clock, so a stepped wall clock cannot stretch them.
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(notEmpty, &attributes)
        pthread_cond_init(notFull, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(notEmpty)
        pthread_cond_destroy(notFull)
        pthread_mutex_destroy(mutex)
        notEmpty.deallocate()
        notFull.deallocate()
        mutex.deallocate()
    }

    /// Appends a record, waiting while the queue is full. Returns `false` (and drops the record)
    /// once the queue is closed.
    @discardableResult
    public func push(_ element: Element) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while ring.isFull && !closed { pthread_cond_wait(notFull, mutex) }
        if closed { return false }
        ring.append(element)
        pthread_cond_signal(notEmpty)
        return true
    }

    /// The oldest record, waiting as long as it takes; `nil` once the queue is closed and empty.
    public func pop() -> Element? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while ring.isEmpty && !closed { pthread_cond_wait(notEmpty, mutex) }
        return takeLocked()
    }

    /// The oldest record, waiting at most `timeout` seconds; `nil` on timeout or once the queue is
    /// closed and empty (`isFinished` tells which).
    public func pop(timeout: Seconds) -> Element? {
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let wait = max(0, timeout)
        deadline.tv_sec += Int(wait)
        deadline.tv_nsec += Int((wait - Double(Int(wait))) * 1e9)
        if deadline.tv_nsec >= 1_000_000_000 { deadline.tv_sec += 1; deadline.tv_nsec -= 1_000_000_000 }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while ring.isEmpty && !closed {
            if pthread_cond_timedwait(notEmpty, mutex, &deadline) == ETIMEDOUT { break }
        }
        return takeLocked()
    }

    private func takeLocked() -> Element? {
        guard !ring.isEmpty else { return nil }
        let element = ring[0]
        ring[0] = nil
        ring.removeFirst()
        pthread_cond_signal(notFull)
        return element
    }

    /// Accepts no more records and wakes every waiter. Queued records are still delivered.
    public func close() {
        pthread_mutex_lock(mutex)
        closed = true
        pthread_cond_broadcast(notEmpty)
        pthread_cond_broadcast(notFull)
        pthread_mutex_unlock(mutex)
    }

    /// True once the queue is closed and everything queued has been taken.
    public var isFinished: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return closed && ring.isEmpty
    }
}

extension RecordQueue: RecordSource where Element == TraceRecord {
    /// The next record (blocking); `nil` after `close()` once the queue is drained.
    public func next() throws -> TraceRecord? { pop() }
}
