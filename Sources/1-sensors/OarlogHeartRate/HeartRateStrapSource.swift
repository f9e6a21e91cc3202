#if canImport(Glibc)
import Glibc
#endif
import OarlogCore
import OarlogLive
import Synchronization

/// The crew's heart-rate straps, live: one reader thread talks to bluetoothd over D-Bus
/// (`StrapSession`), and hands each assigned strap's heart rate to the pipeline as
/// `.heartRate(HeartRateSample(time:bpm:sensor: SEAT))`, stamped on the session clock, through
/// a bounded `RecordQueue`. A strap that drops (disconnected, removed, silent for 5 s) is
/// reconnected with backoff, and the gap, from its last heart rate to its next, goes in just
/// before that next one, its reason naming the seat — as gpsd's and IIO's readers do.
/// bluetoothd missing or restarting: the bus is reopened with backoff (0.5 s doubling to 8 s).
public final class HeartRateStrapSource: LiveRecordSource, @unchecked Sendable {
    public let configuration: HeartRateStrapConfiguration
    private let thread: DeviceReaderThread<TraceRecord>
    private let log: @Sendable (String) -> Void
    private let published: Mutex<[StrapStatistics]>
    private let busState = Mutex<(opens: Int, failures: Int, lastError: String?)>((0, 0, nil))
    private let readerCPU = Mutex<Seconds>(0)

    /// - Parameters:
    ///   - clock: the session origin; heart rates are stamped in session time on it.
    ///   - log: one line per notable event; called on the reader thread.
    ///   - shouldStop: polled on the reader thread; when it turns true the source ends.
    public init(configuration: HeartRateStrapConfiguration, clock: SessionClock = .start(),
                log: @escaping @Sendable (String) -> Void = { _ in },
                shouldStop: @escaping @Sendable () -> Bool = { false }) {
        self.configuration = configuration
        self.log = log
        thread = DeviceReaderThread(queueCapacity: configuration.queueCapacity, clock: clock,
                                    sleepStep: configuration.pollInterval, shouldStop: shouldStop)
        published = Mutex(configuration.straps.map { StrapStatistics(seat: $0.seat, address: $0.address) })
    }

    deinit { stop() }

    public var clock: SessionClock { thread.clock }

    /// Starts the reader thread (once).
    public func start() { thread.start { [self] in run() } }

    /// Stops the reader thread (within `pollInterval`) and waits for it. Queued records are
    /// still delivered; then `next()` returns `nil`.
    public func stop() { thread.stop() }

    /// The next heart rate or gap, waiting as long as it takes; `nil` once stopped and drained.
    public func next() throws -> TraceRecord? { thread.queue.pop() }

    /// The next heart rate or gap, waiting at most `timeout`; `nil` on timeout or once finished.
    public func next(timeout: Seconds) -> TraceRecord? { thread.queue.pop(timeout: timeout) }

    /// Each strap's counts (a snapshot, updated after every read of the bus).
    public var statistics: [StrapStatistics] { published.withLock { $0 } }

    /// The CPU time the reader thread has used so far (parsing, D-Bus, queueing).
    public var readerCPUSeconds: Seconds { readerCPU.withLock { $0 } }

    /// Bus connections made, attempts failed, and the latest failure.
    public var busStatistics: (opens: Int, failures: Int, lastError: String?) { busState.withLock { $0 } }

    // MARK: - The reader loop

    private func run() {
        let queue = thread.queue
        let session = StrapSession(configuration: configuration, emit: { _ = queue.push($0) }, log: log)
        var backoff = ReconnectBackoff(initialDelay: configuration.initialRetryDelay, maximumDelay: configuration.maximumRetryDelay)
        while !thread.isStopping {
            let bus: BlueZBus
            do {
                bus = try BlueZBus(address: configuration.busAddress)
                try session.attach(bus, now: thread.now())
            } catch {
                session.detach(reason: "bluetoothd unreachable", now: thread.now())
                let text = String(describing: error)
                busState.withLock { $0.failures += 1; $0.lastError = text }
                if backoff.recordFailure() { log("heart rate: \(text); retrying") }
                publish(session)
                thread.backOff(&backoff)
                continue
            }
            backoff.recordOpen()
            backoff.reset()
            busState.withLock { $0.opens += 1 }
            let lost = read(bus, session)
            if let lost { session.detach(reason: lost, now: thread.now()) }
            publish(session)
            if let lost, !thread.isStopping {
                busState.withLock { $0.lastError = lost }
                log("heart rate: \(lost); reopening the bus")
                thread.backOff(&backoff)
            }
        }
    }

    /// Reads the bus until it is lost (the reason) or the source stops (`nil`).
    private func read(_ bus: BlueZBus, _ session: StrapSession) -> String? {
        while !thread.isStopping {
            guard bus.pump(timeout_s: configuration.pollInterval) else { return "the D-Bus connection was lost" }
            var handled = 0
            while let message = bus.receive() {
                do {
                    try session.handle(message, now: thread.now())
                } catch {
                    return String(describing: error)
                }
                handled += 1
                if handled % 256 == 0 { session.tick(now: thread.now()) }
            }
            session.tick(now: thread.now())
            publish(session)
        }
        return nil
    }

    private func publish(_ session: StrapSession) {
        let snapshot = session.statistics
        published.withLock { $0 = snapshot }
        var t = timespec()
        if clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) == 0 {
            let cpu = Seconds(t.tv_sec) + Seconds(t.tv_nsec) / 1e9
            readerCPU.withLock { $0 = cpu }
        }
    }
}
