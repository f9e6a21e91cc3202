import OarlogCore
import OarlogLive
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Counters and state of a running accelerometer source (a snapshot; safe from any thread).
public struct IIOAccelerometerStatistics: Sendable, Equatable {
    public var samples = 0
    public var gaps = 0
    /// Refills that waited `refillTimeout` in vain.
    public var timeouts = 0
    /// Successful opens of the device (the first included).
    public var opens = 0
    public var failedOpens = 0
    /// Times the device was lost while reading (I/O error, iiod gone, repeated stalls).
    public var losses = 0
    public var outOfOrderScans = 0
    /// The set-up in force, once opened.
    public var setup: IIOAccelerometerSetup?
    public var isOpen = false
    public var lastError: String?
    public init() {}
}

/// A live accelerometer: reads a Linux IIO device through libiio on its own thread and hands
/// `.accel` samples (m/s², session time) and `.gap`s to the pipeline through a bounded
/// `RecordQueue`. As a `RecordSource` it plugs into `Pipeline.run` and merges with `GPSDSource`.
///
/// Missing data is never bridged: a jump in the device's timestamps (FIFO overflow), a refill
/// timeout (stalled buffer) or a lost device (I2C error, iiod connection gone) becomes a `Gap`
/// from the last sample before it to the first one after, delivered just before that sample.
/// A lost or unopenable device is retried with backoff (0.1 s doubling to 2 s), with a log line
/// for the first failure and every 30th; nothing here crashes the process, so the GPS side of
/// the pipeline keeps running.
public final class IIOAccelerometerSource: RecordSource, @unchecked Sendable {
    public let configuration: IIOAccelerometerConfiguration
    public var clock: SessionClock { thread.clock }
    private let thread: DeviceReaderThread<TraceRecord>
    private var queue: RecordQueue<TraceRecord> { thread.queue }
    private let log: @Sendable (String) -> Void
    private let stats = Mutex(IIOAccelerometerStatistics())
    private let current = Mutex<IIOAccelerometerReader?>(nil)

    /// - Parameters:
    ///   - clock: the session origin; samples are stamped in session time on it.
    ///   - log: one line per notable event (opened, lost, stalled, back); called on the reader thread.
    ///   - shouldStop: polled on the reader thread (after each refill); when true the source ends.
    public init(configuration: IIOAccelerometerConfiguration, clock: SessionClock = .start(),
                log: @escaping @Sendable (String) -> Void = { _ in },
                shouldStop: @escaping @Sendable () -> Bool = { false }) {
        self.configuration = configuration
        // Backoff sleeps in 50 ms steps so a stop is noticed promptly.
        self.thread = DeviceReaderThread(queueCapacity: configuration.queueCapacity, clock: clock,
                                         sleepStep: 0.05, shouldStop: shouldStop)
        self.log = log
    }

    deinit { stop() }

    /// Starts the reader thread (once). Also ignores SIGPIPE for the whole process: libiio 0.24's
    /// network backend writes to its socket without MSG_NOSIGNAL, so an iiod that goes away would
    /// otherwise kill the recorder instead of giving an error to retry on.
    public func start() {
        thread.start(beforeFirstStart: { _ = signal(SIGPIPE, SIG_IGN) }) { [self] in readerLoop() }
    }

    /// Stops the reader thread (cancelling a blocked refill) and waits for it. Queued records are
    /// still delivered; then `next()` returns `nil`.
    public func stop() {
        thread.stop(interrupt: { current.withLock { $0?.cancel() } })
    }

    /// The next sample or gap, waiting as long as it takes; `nil` once stopped and drained.
    public func next() throws -> TraceRecord? { queue.pop() }

    /// The next sample or gap, waiting at most `timeout`; `nil` on timeout or once finished.
    public func next(timeout: Seconds) -> TraceRecord? { queue.pop(timeout: timeout) }

    public var isFinished: Bool { queue.isFinished }

    public var statistics: IIOAccelerometerStatistics { stats.withLock { $0 } }

    // MARK: - Reader thread

    private var isStopping: Bool { thread.isStopping }

    private func now() -> Seconds { thread.now() }

    private func readerLoop() {
        var outages = OutageTracker(sensor: .accelerometer)
        var backoff = ReconnectBackoff(initialDelay: configuration.initialRetryDelay,
                                       maximumDelay: configuration.maximumRetryDelay)

        while !isStopping {
            let reader: IIOAccelerometerReader
            do {
                reader = try IIOAccelerometerReader(configuration: configuration, clock: clock)
            } catch {
                let text = String(describing: error)
                stats.withLock { $0.failedOpens += 1; $0.lastError = text }
                outages.begin("accelerometer unavailable: \(text)", now: now())
                if backoff.recordFailure() {
                    log("accelerometer: \(text); retrying every \(tenthsOfSecondText(configuration.maximumRetryDelay)) s at most")
                }
                thread.backOff(&backoff)
                continue
            }
            backoff.recordOpen()
            current.withLock { $0 = reader }
            if isStopping { current.withLock { $0 = nil }; break }
            stats.withLock { $0.opens += 1; $0.isOpen = true; $0.setup = reader.setup }
            log("accelerometer: reading \(reader.setup)")

            var timeoutsInARow = 0
            var lostReason: String? = nil
            while !isStopping {
                let outcome: IIOAccelerometerReader.Outcome
                do {
                    outcome = try reader.read { sample, gapReason in
                        let previous = outages.lastDataAt
                        if let gap = outages.dataArrived(at: sample.time) {
                            log("accelerometer: data back after \(tenthsOfSecondText(gap.duration)) s (\(gap.reason))")
                            stats.withLock { $0.gaps += 1 }
                            queue.push(.gap(gap))
                        } else if let gapReason, let last = previous {
                            stats.withLock { $0.gaps += 1 }
                            log("accelerometer: gap of \(tenthsOfSecondText(sample.time - last)) s: \(gapReason)")
                            queue.push(.gap(Gap(sensor: .accelerometer, start: last, end: sample.time, reason: gapReason)))
                        }
                        queue.push(.accel(sample))
                    }
                } catch {
                    lostReason = String(describing: error)
                    break
                }
                switch outcome {
                case .samples(let n):
                    if n > 0 { timeoutsInARow = 0; backoff.reset() }
                    let dropped = reader.outOfOrderScans
                    stats.withLock { $0.samples += n; $0.outOfOrderScans = dropped }
                case .timeout:
                    if isStopping { break }
                    timeoutsInARow += 1
                    stats.withLock { $0.timeouts += 1 }
                    if timeoutsInARow == 1 {
                        let reason = "no data from the device for \(tenthsOfSecondText(configuration.refillTimeout)) s (buffer refill timed out)"
                        outages.begin(reason, now: now())
                        log("accelerometer: \(reason)")
                    }
                    if timeoutsInARow >= configuration.timeoutsBeforeReopen {
                        lostReason = "no data for \(timeoutsInARow) refills in a row"
                    }
                }
                if lostReason != nil { break }
            }
            current.withLock { $0 = nil }
            stats.withLock { $0.isOpen = false }
            if let lostReason, !isStopping {
                stats.withLock { $0.losses += 1; $0.lastError = lostReason }
                outages.begin("device lost: \(lostReason)", now: now())
                log("accelerometer: lost \(reader.setup.device): \(lostReason); reopening")
                thread.backOff(&backoff)
            }
        }
        current.withLock { $0 = nil }
    }
}

// The recorder fans device readers in with `LiveSources`.
extension IIOAccelerometerSource: LiveRecordSource {}
