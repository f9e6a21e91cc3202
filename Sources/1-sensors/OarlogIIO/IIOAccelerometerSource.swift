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
///
/// The reconnect loop is OarlogLive's `LiveDeviceSource`; this type is its libiio device
/// (`IIOAccelerometerDevice`, `IIOAccelerometerConnection`) and its statistics.
public final class IIOAccelerometerSource: RecordSource, @unchecked Sendable {
    public let configuration: IIOAccelerometerConfiguration
    public var clock: SessionClock { reader.clock }
    private let device: IIOAccelerometerDevice
    private let reader: LiveDeviceSource<IIOAccelerometerDevice>

    /// - Parameters:
    ///   - clock: the session origin; samples are stamped in session time on it.
    ///   - log: one line per notable event (opened, lost, stalled, back); called on the reader thread.
    ///   - shouldStop: polled on the reader thread (after each refill); when true the source ends.
    public init(configuration: IIOAccelerometerConfiguration, clock: SessionClock = .start(),
                log: @escaping @Sendable (String) -> Void = { _ in },
                shouldStop: @escaping @Sendable () -> Bool = { false }) {
        self.configuration = configuration
        device = IIOAccelerometerDevice(configuration: configuration, clock: clock)
        reader = LiveDeviceSource(device: device, policy: configuration.readerPolicy, queueCapacity: configuration.queueCapacity,
                                  clock: clock, log: log, shouldStop: shouldStop)
    }

    deinit { stop() }

    /// Starts the reader thread (once). Also ignores SIGPIPE for the whole process: libiio 0.24's
    /// network backend writes to its socket without MSG_NOSIGNAL, so an iiod that goes away would
    /// otherwise kill the recorder instead of giving an error to retry on.
    public func start() {
        reader.start(beforeFirstStart: { _ = signal(SIGPIPE, SIG_IGN) })
    }

    /// Stops the reader thread (cancelling a blocked refill) and waits for it. Queued records are
    /// still delivered; then `next()` returns `nil`.
    public func stop() { reader.stop() }

    /// The next sample or gap, waiting as long as it takes; `nil` once stopped and drained.
    public func next() throws -> TraceRecord? { reader.next() }

    /// The next sample or gap, waiting at most `timeout`; `nil` on timeout or once finished.
    public func next(timeout: Seconds) -> TraceRecord? { reader.next(timeout: timeout) }

    public var isFinished: Bool { reader.isFinished }

    public var statistics: IIOAccelerometerStatistics {
        let live = reader.statistics
        let (setup, outOfOrder) = device.readerState
        var s = IIOAccelerometerStatistics()
        s.samples = live.records
        s.gaps = live.gaps
        s.timeouts = live.timedOutReads
        s.opens = live.opens
        s.failedOpens = live.failedOpens
        s.losses = live.losses
        s.outOfOrderScans = outOfOrder
        s.setup = setup
        s.isOpen = live.isOpen
        s.lastError = live.lastError
        return s
    }
}

// The recorder fans device readers in with `LiveSources`.
extension IIOAccelerometerSource: LiveRecordSource {}

extension IIOAccelerometerConfiguration {
    /// The shared reader loop's policy: a refill waits `refillTimeout` (libiio's timeout); the
    /// first one that times out opens an outage, `timeoutsBeforeReopen` in a row reopen the device.
    var readerPolicy: LiveReaderPolicy {
        let reopenAfter = max(1, timeoutsBeforeReopen)
        return LiveReaderPolicy(
            initialRetryDelay: initialRetryDelay, maximumRetryDelay: maximumRetryDelay,
            readTimeout: refillTimeout,
            // Sleeps check the stop flag every 50 ms; stop() also cancels a blocked refill.
            stopCheckInterval: 0.05,
            outageWhenSilent: SilenceRule(
                .timedOutReads(1),
                reason: "no data from the device for \(tenthsOfSecondText(refillTimeout)) s (buffer refill timed out)"),
            reopenWhenSilent: SilenceRule(.timedOutReads(reopenAfter), reason: "no data for \(reopenAfter) refills in a row"))
    }
}

/// An IIO accelerometer as a live device: each open sets the device up afresh
/// (`IIOAccelerometerReader`); a device that cannot be opened is "accelerometer unavailable".
final class IIOAccelerometerDevice: LiveDevice, @unchecked Sendable {
    typealias Record = TraceRecord
    let configuration: IIOAccelerometerConfiguration
    let clock: SessionClock
    let sensor = SensorKind.accelerometer
    let logName = "accelerometer"
    private let state = Mutex<(setup: IIOAccelerometerSetup?, outOfOrder: Int)>((nil, 0))

    init(configuration: IIOAccelerometerConfiguration, clock: SessionClock) {
        self.configuration = configuration
        self.clock = clock
    }

    /// The set-up in force (once opened) and the latest reader's out-of-order scans.
    var readerState: (setup: IIOAccelerometerSetup?, outOfOrder: Int) { state.withLock { $0 } }

    func open(_ context: LiveReadContext<TraceRecord>) throws -> IIOAccelerometerConnection {
        let reader = try IIOAccelerometerReader(configuration: configuration, clock: clock)
        state.withLock { $0.setup = reader.setup }
        return IIOAccelerometerConnection(reader: reader, device: self)
    }

    func noteOutOfOrder(_ n: Int) { state.withLock { $0.outOfOrder = n } }
}

/// One opened IIO device: each read is one refill (or polling tick).
final class IIOAccelerometerConnection: LiveDeviceConnection, @unchecked Sendable {
    let reader: IIOAccelerometerReader
    let device: IIOAccelerometerDevice

    init(reader: IIOAccelerometerReader, device: IIOAccelerometerDevice) {
        self.reader = reader
        self.device = device
    }

    var summary: String { "reading \(reader.setup)" }

    func lostLogText(_ reason: String) -> String { "lost \(reader.setup.device): \(reason); reopening" }

    /// Waits for one refill (libiio's own timeout, `refillTimeout`, applies).
    func read(timeout: Seconds, _ context: LiveReadContext<TraceRecord>) throws -> LiveReadOutcome {
        let outcome = try reader.read { sample, gapReason in
            context.deliver(.accel(sample), at: sample.time, gapBefore: gapReason)
        }
        device.noteOutOfOrder(reader.outOfOrderScans)
        switch outcome {
        case .samples(let n): return n > 0 ? .progressed : .idle
        case .timeout: return .timedOut
        }
    }

    /// Makes a refill blocked on another thread return at once.
    func cancel() { reader.cancel() }

    /// The reader releases the device when it goes.
    func close() {}
}
