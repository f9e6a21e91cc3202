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
/// The reconnect loop is OarlogLive's `LiveDeviceSource`; this type is its libgps device
/// (`GPSDDevice`, `GPSDConnection`) and its gpsd statistics.
///
/// As a `RecordSource` it plugs into `Pipeline.run` unchanged: `next()` blocks until the next
/// record and returns `nil` after `stop()` (or once `shouldStop` turned true, polled every
/// `pollInterval`, e.g. on SIGINT).
public final class GPSDSource: RecordSource, @unchecked Sendable {
    public let configuration: GPSDSourceConfiguration
    public var clock: SessionClock { reader.clock }
    private let device: GPSDDevice
    private let reader: LiveDeviceSource<GPSDDevice>

    /// - Parameters:
    ///   - clock: the session origin; fixes are stamped in session time on it.
    ///   - log: receives one line per notable event (connected, lost, errors); called on the
    ///     reader thread.
    ///   - shouldStop: polled on the reader thread; when it turns true the source ends.
    public init(configuration: GPSDSourceConfiguration = .init(), clock: SessionClock = .start(),
                log: @escaping @Sendable (String) -> Void = { _ in },
                shouldStop: @escaping @Sendable () -> Bool = { false }) {
        self.configuration = configuration
        device = GPSDDevice(configuration: configuration)
        reader = LiveDeviceSource(device: device, policy: configuration.readerPolicy, queueCapacity: configuration.queueCapacity,
                                  clock: clock, log: log, shouldStop: shouldStop)
    }

    deinit { stop() }

    /// Starts the reader thread (once).
    public func start() { reader.start() }

    /// Stops the reader thread and waits for it (at most about `pollInterval`, or a connect to
    /// an unresponsive host). Queued records are still delivered; then `next()` returns `nil`.
    /// A partial epoch still held (a receiver without speed) is dropped.
    public func stop() { reader.stop() }

    /// The next fix or gap, waiting as long as it takes; `nil` once stopped and drained.
    public func nextEvent() -> GPSDSourceEvent? { reader.next() }

    /// The next fix or gap, waiting at most `timeout`; `nil` on timeout or once finished.
    public func nextEvent(timeout: Seconds) -> GPSDSourceEvent? { reader.next(timeout: timeout) }

    /// True once stopped and everything queued was taken.
    public var isFinished: Bool { reader.isFinished }

    /// The next record for the pipeline (blocking).
    public func next() throws -> TraceRecord? { reader.next()?.record }

    public var statistics: GPSDSourceStatistics {
        let live = reader.statistics
        var s = GPSDSourceStatistics()
        s.connections = live.opens
        s.failedConnections = live.failedOpens
        s.disconnects = live.losses
        s.gaps = live.gaps
        s.errors = live.reportedErrors + live.losses
        s.epochs = device.epochCounts
        s.isConnected = live.isOpen
        s.lastConnectedAt = live.lastOpenedAt
        s.lastError = live.lastError
        return s
    }
}

// The recorder fans device readers in with `LiveSources`.
extension GPSDSource: LiveRecordSource {}

extension GPSDSourceEvent: LiveDeviceRecord {}

extension GPSDSourceConfiguration {
    /// The shared reader loop's policy: reads wait `pollInterval`; no position report for
    /// longer than `stallTimeout` drops the connection (and opens the outage).
    var readerPolicy: LiveReaderPolicy {
        LiveReaderPolicy(
            initialRetryDelay: initialRetryDelay, maximumRetryDelay: maximumRetryDelay,
            readTimeout: pollInterval, stopCheckInterval: pollInterval,
            reopenWhenSilent: SilenceRule(.longerThan(stallTimeout),
                                          reason: "no position report from gpsd for \(tenthsOfSecondText(stallTimeout)) s"))
    }
}

/// gpsd as a live device: each open is a new libgps connection with a WATCH. The epoch reducer
/// lives across connections, so an epoch seen before a reconnect is never delivered twice.
final class GPSDDevice: LiveDevice, @unchecked Sendable {
    typealias Record = GPSDSourceEvent
    let configuration: GPSDSourceConfiguration
    let sensor = SensorKind.gps
    let logName = "gpsd"
    /// Reader thread only.
    var reducer = EpochReducer()
    private let counts = Mutex(EpochReducer.Counts())

    init(configuration: GPSDSourceConfiguration) { self.configuration = configuration }

    var epochCounts: EpochReducer.Counts { counts.withLock { $0 } }

    func publishCounts() {
        let current = reducer.counts
        counts.withLock { $0 = current }
    }

    func open(_ context: LiveReadContext<GPSDSourceEvent>) throws -> GPSDConnection {
        let client = try GPSDClient(host: configuration.host, port: configuration.port, device: configuration.device)
        return GPSDConnection(client: client, device: self)
    }

    func unavailableReason(_ error: String, neverOpened: Bool) -> String {
        neverOpened ? "gpsd not reachable" : "gpsd unreachable"
    }

    func lostReason(_ reason: String) -> String { reason }
}

/// One WATCH on gpsd: TPVs become fixes (through the device's reducer), SKY gives the
/// satellites used, a DEVICE closed by gpsd and an unreadable stream end the connection.
final class GPSDConnection: LiveDeviceConnection, @unchecked Sendable {
    let client: GPSDClient
    let device: GPSDDevice
    private var satellitesUsed: Int?

    init(client: GPSDClient, device: GPSDDevice) {
        self.client = client
        self.device = device
    }

    var summary: String {
        let c = device.configuration
        return "watching \(c.host):\(c.port)\(c.device.map { " device \($0)" } ?? "")"
    }

    func lostLogText(_ reason: String) -> String { "\(reason); reconnecting" }

    func read(timeout: Seconds, _ context: LiveReadContext<GPSDSourceEvent>) throws -> LiveReadOutcome {
        guard client.waitForData(timeout: timeout) else { return .timedOut }
        guard let message = try client.read() else { return .idle }
        switch message {
        case .tpv(var report):
            report.receivedAt = context.now()
            report.satellitesUsed = satellitesUsed
            let backwardBefore = device.reducer.counts.backward
            device.reducer.add(report) { context.deliver(.fix($0), at: $0.receivedAt) }
            let backward = device.reducer.counts.backward
            if backward > backwardBefore {
                context.log("gpsd: receiver time went backward (\(backward) so far); epoch dropped")
            }
            device.publishCounts()
            return .progressed
        case .sky(let used):
            satellitesUsed = used >= 0 ? used : nil
            return .idle
        case .device(let path, let active):
            return active ? .idle : .lost("device \(path) closed by gpsd (unplugged or its stream ended)")
        case .error(let text):
            context.noteError(text)
            context.log("gpsd reports an error: \(text)")
            return .idle
        case .other:
            return .idle
        }
    }

    /// An epoch still held (no speed yet) comes out when the connection ends.
    func finish(_ context: LiveReadContext<GPSDSourceEvent>) {
        device.reducer.flush { context.deliver(.fix($0), at: $0.receivedAt) }
        device.publishCounts()
    }

    func close() { client.close() }
}
