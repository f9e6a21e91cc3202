import OarlogCore
import OarlogLive
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where and how `GPSDSource` reads gpsd.
public struct GPSDSourceConfiguration: Sendable, Equatable {
    public var host: String = "localhost"
    public var port: Int = 2947
    /// Watch only this device (e.g. `/dev/ttyACM0`); `nil` watches every device gpsd has.
    public var device: String?
    /// First wait before reconnecting; doubled per failed attempt up to `maximumRetryDelay`.
    /// With 1 s at most, the source is back within about 1 s of gpsd being back.
    public var initialRetryDelay: Seconds = 0.1
    public var maximumRetryDelay: Seconds = 1.0
    /// Connected but no position report for this long: the receiver is silent (unplugged,
    /// stream ended). The source re-WATCHes, which also makes gpsd reopen its device.
    public var stallTimeout: Seconds = 5
    /// How often the reader thread checks for stop while gpsd is silent.
    public var pollInterval: Seconds = 0.1
    /// Records buffered between the reader thread and the pipeline.
    public var queueCapacity: Int = 1024
    public init(host: String = "localhost", port: Int = 2947, device: String? = nil) {
        self.host = host
        self.port = port
        self.device = device
    }
}

/// What the source delivers: a fix (with gpsd's full report) or a gap in the GPS data.
public enum GPSDSourceEvent: Sendable, Equatable {
    case fix(GPSDReport)
    case gap(Gap)

    /// The pipeline's record for this event.
    public var record: TraceRecord {
        switch self {
        case .fix(let report): return .fix(report.gpsFix)
        case .gap(let gap): return .gap(gap)
        }
    }
}

/// Counters and state of a running source (a snapshot; safe to read from any thread).
public struct GPSDSourceStatistics: Sendable, Equatable {
    /// Successful connections (WATCH accepted), the first included.
    public var connections = 0
    /// Connection attempts that failed (gpsd not running, refused).
    public var failedConnections = 0
    /// Connections lost (gpsd killed, garbage on the wire, device closed, silence).
    public var disconnects = 0
    public var gaps = 0
    /// gpsd ERROR reports and unreadable input seen.
    public var errors = 0
    /// The reducer's counts, summed over the session.
    public var epochs = EpochReducer.Counts()
    public var isConnected = false
    /// Session time of the latest successful connection.
    public var lastConnectedAt: Seconds?
    /// The latest problem, as logged.
    public var lastError: String?
    public init() {}
}

/// A live GPS source: reads a running gpsd through libgps on its own thread, reduces its reports
/// to one fix per epoch (`EpochReducer`), stamps each fix with the monotonic session time, and
/// hands fixes and gaps to the pipeline through a bounded `RecordQueue`.
///
/// gpsd not running, killed or restarted: the thread retries with backoff (0.1 s doubling to 1 s),
/// re-WATCHes as soon as gpsd answers, and reports the outage as a `Gap` (from the last fix before
/// it, or from when the source found gpsd missing, to the first fix after it) just before that
/// fix. A silent connection (`stallTimeout`) or a closed device counts as an outage too. Nothing
/// here crashes on bad input: errors are logged and counted, and the source retries.
///
/// As a `RecordSource` it plugs into `Pipeline.run` unchanged: `next()` blocks until the next
/// record and returns `nil` after `stop()` (or once `shouldStop` turned true, polled every
/// `pollInterval`, e.g. on SIGINT).
public final class GPSDSource: RecordSource, @unchecked Sendable {
    public let configuration: GPSDSourceConfiguration
    public var clock: SessionClock { thread.clock }
    private let thread: DeviceReaderThread<GPSDSourceEvent>
    private var queue: RecordQueue<GPSDSourceEvent> { thread.queue }
    private let log: @Sendable (String) -> Void
    private let stats = Mutex(GPSDSourceStatistics())

    /// - Parameters:
    ///   - clock: the session origin; fixes are stamped in session time on it.
    ///   - log: receives one line per notable event (connected, lost, errors); called on the
    ///     reader thread.
    ///   - shouldStop: polled on the reader thread; when it turns true the source ends.
    public init(configuration: GPSDSourceConfiguration = .init(), clock: SessionClock = .start(),
                log: @escaping @Sendable (String) -> Void = { _ in },
                shouldStop: @escaping @Sendable () -> Bool = { false }) {
        self.configuration = configuration
        self.thread = DeviceReaderThread(queueCapacity: configuration.queueCapacity, clock: clock,
                                         sleepStep: configuration.pollInterval, shouldStop: shouldStop)
        self.log = log
    }

    deinit { stop() }

    /// Starts the reader thread (once).
    public func start() {
        thread.start { [self] in readerLoop() }
    }

    /// Stops the reader thread and waits for it (at most about `pollInterval`, or a connect to
    /// an unresponsive host). Queued records are still delivered; then `next()` returns `nil`.
    /// A partial epoch still held (a receiver without speed) is dropped.
    public func stop() { thread.stop() }

    /// The next fix or gap, waiting as long as it takes; `nil` once stopped and drained.
    public func nextEvent() -> GPSDSourceEvent? { queue.pop() }

    /// The next fix or gap, waiting at most `timeout`; `nil` on timeout or once finished.
    public func nextEvent(timeout: Seconds) -> GPSDSourceEvent? { queue.pop(timeout: timeout) }

    /// True once stopped and everything queued was taken.
    public var isFinished: Bool { queue.isFinished }

    /// The next record for the pipeline (blocking).
    public func next() throws -> TraceRecord? { queue.pop()?.record }

    public var statistics: GPSDSourceStatistics { stats.withLock { $0 } }

    // MARK: - Reader thread

    private var isStopping: Bool { thread.isStopping }

    private func now() -> Seconds { thread.now() }

    private func readerLoop() {
        var reducer = EpochReducer()
        var outages = OutageTracker(sensor: .gps)
        var backoff = ReconnectBackoff(initialDelay: configuration.initialRetryDelay,
                                       maximumDelay: configuration.maximumRetryDelay)

        // Delivers a fix, preceded by the gap it closes.
        func deliver(_ report: GPSDReport) {
            if let gap = outages.dataArrived(at: report.receivedAt) {
                stats.withLock { $0.gaps += 1 }
                log("gpsd: data back after \(tenthsOfSecondText(gap.duration)) s (\(gap.reason))")
                queue.push(.gap(gap))
            }
            backoff.reset()
            queue.push(.fix(report))
        }

        while !isStopping {
            let client: GPSDClient
            do {
                client = try GPSDClient(host: configuration.host, port: configuration.port, device: configuration.device)
            } catch {
                let text = String(describing: error)
                stats.withLock { $0.failedConnections += 1; $0.lastError = text }
                outages.begin(outages.lastDataAt == nil && statistics.connections == 0 ? "gpsd not reachable" : "gpsd unreachable",
                              now: now())
                if backoff.recordFailure() {
                    log("gpsd: \(text); retrying every \(tenthsOfSecondText(configuration.maximumRetryDelay)) s at most")
                }
                thread.backOff(&backoff)
                continue
            }
            backoff.recordOpen()
            let connectedAt = now()
            stats.withLock { $0.connections += 1; $0.isConnected = true; $0.lastConnectedAt = connectedAt }
            log("gpsd: watching \(configuration.host):\(configuration.port)\(configuration.device.map { " device \($0)" } ?? "")")

            var satellitesUsed: Int?
            var lastReportAt = connectedAt
            var lostReason: String?
            while !isStopping {
                if !client.waitForData(timeout: configuration.pollInterval) {
                    if now() - lastReportAt > configuration.stallTimeout {
                        lostReason = "no position report from gpsd for \(tenthsOfSecondText(configuration.stallTimeout)) s"
                        break
                    }
                    continue
                }
                let message: GPSDMessage?
                do {
                    message = try client.read()
                } catch {
                    lostReason = String(describing: error)
                    break
                }
                guard let message else { continue }
                switch message {
                case .tpv(var report):
                    report.receivedAt = now()
                    report.satellitesUsed = satellitesUsed
                    lastReportAt = report.receivedAt
                    let backwardBefore = reducer.counts.backward
                    reducer.add(report, emit: deliver)
                    if reducer.counts.backward > backwardBefore {
                        log("gpsd: receiver time went backward (\(reducer.counts.backward) so far); epoch dropped")
                    }
                    let counts = reducer.counts
                    stats.withLock { $0.epochs = counts }
                case .sky(let used):
                    satellitesUsed = used >= 0 ? used : nil
                case .device(let path, let active):
                    if !active {
                        lostReason = "device \(path) closed by gpsd (unplugged or its stream ended)"
                    }
                case .error(let text):
                    stats.withLock { $0.errors += 1; $0.lastError = text }
                    log("gpsd reports an error: \(text)")
                case .other:
                    break
                }
                if lostReason != nil { break }
            }
            reducer.flush(emit: deliver)
            let counts = reducer.counts
            client.close()
            stats.withLock { $0.isConnected = false; $0.epochs = counts }
            if let lostReason, !isStopping {
                stats.withLock { $0.disconnects += 1; $0.errors += 1; $0.lastError = lostReason }
                log("gpsd: \(lostReason); reconnecting")
                outages.begin(lostReason, now: now())
                thread.backOff(&backoff)
            }
        }
    }
}

// The recorder fans device readers in with `LiveSources`.
extension GPSDSource: LiveRecordSource {}
