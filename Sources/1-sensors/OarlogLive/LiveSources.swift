#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import OarlogCore
import Synchronization

/// A device reader that runs on its own thread once started (gpsd, IIO): a `RecordSource` whose
/// `next()` blocks until its next record and returns `nil` after `stop()`.
public protocol LiveRecordSource: RecordSource, AnyObject, Sendable {
    func start()
    func stop()
}

/// Several live sources as one: each source's records are forwarded, as they arrive, into one
/// bounded queue that the pipeline reads. Sensors deliver in real time, so arrival order is time
/// order to within a few milliseconds, and one sensor that goes silent (gpsd restarting, an
/// unplugged accelerometer) never holds the others back — unlike a strict time merge, which would
/// wait for it. Extra records (notes typed by the cox) go in with `inject`.
public final class LiveSources: RecordSource, @unchecked Sendable {
    private let sources: [any LiveRecordSource]
    private let queue: RecordQueue<TraceRecord>
    private let running = Mutex(0)

    public init(_ sources: [any LiveRecordSource], capacity: Int = 8192) {
        self.sources = sources
        queue = RecordQueue(capacity: capacity)
    }

    /// Starts every source and its forwarding thread.
    public func start() {
        running.withLock { $0 = sources.count }
        for source in sources {
            source.start()
            let forwarded = ForwardingThread.start { [queue, weak self] in
                var s = source
                while let record = try? s.next() {
                    if !queue.push(record) { break }
                }
                self?.sourceEnded()
            }
            if !forwarded { sourceEnded() }
        }
        if sources.isEmpty { queue.close() }
    }

    private func sourceEnded() {
        let last = running.withLock { running in
            running -= 1
            return running == 0
        }
        if last { queue.close() }
    }

    /// Adds a record from outside the sensors (a note typed on the keyboard).
    @discardableResult
    public func inject(_ record: TraceRecord) -> Bool { queue.push(record) }

    /// Stops every source; `next()` then drains what is queued and returns `nil`.
    public func stop() {
        for source in sources { source.stop() }
        queue.close()
    }

    public func next() throws -> TraceRecord? { queue.pop() }
}

/// A detached thread that forwards one source's records (LiveSources never waits for it: the
/// thread ends when its source does or the queue closes).
enum ForwardingThread {
    /// Runs `body` on a new detached thread; false if no thread could be made.
    static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
        guard case .success(let thread) = ThreadLauncher.start(body) else { return false }
        pthread_detach(thread)
        return true
    }
}
