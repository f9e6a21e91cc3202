import Foundation
import OarlogCore

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
    private var threads: [Thread] = []
    private let lock = NSLock()
    private var running = 0

    public init(_ sources: [any LiveRecordSource], capacity: Int = 8192) {
        self.sources = sources
        queue = RecordQueue(capacity: capacity)
    }

    /// Starts every source and its forwarding thread.
    public func start() {
        running = sources.count
        for source in sources {
            source.start()
            let thread = Thread { [queue, weak self] in
                var s = source
                while let record = try? s.next() {
                    if !queue.push(record) { break }
                }
                self?.sourceEnded()
            }
            thread.name = "oarlog-live-\(type(of: source))"
            threads.append(thread)
            thread.start()
        }
        if sources.isEmpty { queue.close() }
    }

    private func sourceEnded() {
        lock.lock()
        running -= 1
        let last = running == 0
        lock.unlock()
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
