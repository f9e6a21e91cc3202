import OarlogCore

/// A record a live device source hands to the pipeline; the reader loop makes the `Gap`
/// records itself. `TraceRecord` and `GPSDSourceEvent` satisfy it with their `gap` case.
public protocol LiveDeviceRecord: Sendable {
    static func gap(_ gap: Gap) -> Self
}

extension TraceRecord: LiveDeviceRecord {}

/// The device side of a live source (gpsd, an IIO accelerometer, a scripted fake in tests):
/// it opens connections, and says in its own words why data is missing. Everything else —
/// retrying with backoff, outages and gaps, silence, log throttling, stopping — is the shared
/// reader loop of `LiveDeviceSource`.
///
/// `open` and everything a connection does run on the reader thread only.
public protocol LiveDevice: AnyObject, Sendable {
    associatedtype Record: LiveDeviceRecord
    associatedtype Connection: LiveDeviceConnection where Connection.Record == Record

    /// The sensor whose gaps this device reports.
    var sensor: SensorKind { get }
    /// The start of every log line: `gpsd`, `accelerometer`.
    var logName: String { get }

    /// Opens the device; throws when it is missing or unusable (the loop retries with backoff).
    func open(_ context: LiveReadContext<Record>) throws -> Connection

    /// The reason of the outage while the device cannot be opened; `neverOpened` before the
    /// first successful open. Default: "`logName` unavailable: `error`".
    func unavailableReason(_ error: String, neverOpened: Bool) -> String

    /// The reason of the outage after an open connection was lost (`reason` says how).
    /// Default: "device lost: `reason`".
    func lostReason(_ reason: String) -> String
}

extension LiveDevice {
    public func unavailableReason(_ error: String, neverOpened: Bool) -> String { "\(logName) unavailable: \(error)" }
    public func lostReason(_ reason: String) -> String { "device lost: \(reason)" }
}

/// What one read of an open device came to.
public enum LiveReadOutcome: Sendable, Equatable {
    /// The device sent data (the records it completed were delivered through the context).
    case progressed
    /// Something arrived that says nothing about the data (a partial line, a status report).
    case idle
    /// Nothing arrived within the read's wait.
    case timedOut
    /// The device is gone or unusable: the loop closes it and opens it again.
    case lost(String)
}

/// One open connection to a device: read (records, a timeout, or a failure), then close.
public protocol LiveDeviceConnection: AnyObject, Sendable {
    associatedtype Record: LiveDeviceRecord

    /// Logged after the device name when the connection opens: "watching localhost:2947".
    var summary: String { get }

    /// Waits at most about `timeout` for the device and hands each record it completes to
    /// `context.deliver`, in order. Throwing is `.lost` with the error's description.
    func read(timeout: Seconds, _ context: LiveReadContext<Record>) throws -> LiveReadOutcome

    /// Hands over records still held when the connection ends (an unfinished epoch). Default: none.
    func finish(_ context: LiveReadContext<Record>)

    /// Releases the device; called once, on the reader thread.
    func close()

    /// Makes a blocked `read` return soon; called from the thread that stops the source.
    /// Default: nothing (the read's own timeout bounds the stop).
    func cancel()

    /// Logged after the device name when the connection was lost for `reason`.
    /// Default: "`reason`; reopening".
    func lostLogText(_ reason: String) -> String
}

extension LiveDeviceConnection {
    public func finish(_ context: LiveReadContext<Record>) {}
    public func cancel() {}
    public func lostLogText(_ reason: String) -> String { "\(reason); reopening" }
}

/// When the shared loop treats a connected but silent device as missing data.
public struct SilenceRule: Sendable, Equatable {
    public enum Limit: Sendable, Equatable {
        /// This many reads in a row timed out.
        case timedOutReads(Int)
        /// Longer than this since the connection opened or last made progress.
        case longerThan(Seconds)
    }
    public var limit: Limit
    /// The outage's (or the loss's) reason, as logged.
    public var reason: String

    public init(_ limit: Limit, reason: String) {
        self.limit = limit
        self.reason = reason
    }

    func isReached(timedOutReads: Int, silence: Seconds) -> Bool {
        switch limit {
        case .timedOutReads(let n): return timedOutReads >= max(1, n)
        case .longerThan(let s): return silence > s
        }
    }
}

/// How the shared reader loop retries, reads and judges silence.
public struct LiveReaderPolicy: Sendable, Equatable {
    /// First wait before opening again; doubled per failed attempt up to `maximumRetryDelay`,
    /// back to this once data flows.
    public var initialRetryDelay: Seconds
    public var maximumRetryDelay: Seconds
    /// The longest wait of one read (a device may have its own, e.g. libiio's refill timeout).
    public var readTimeout: Seconds
    /// How often sleeps check the stop condition (`shouldStop`); `stop()` wakes them at once.
    public var stopCheckInterval: Seconds
    /// When a silent open device starts an outage (the gap later runs from its last data);
    /// `nil`: only when the connection is lost.
    public var outageWhenSilent: SilenceRule?
    /// When a silent open device is closed and opened again; `nil`: never for silence.
    public var reopenWhenSilent: SilenceRule?

    public init(initialRetryDelay: Seconds = 0.1, maximumRetryDelay: Seconds = 1, readTimeout: Seconds,
                stopCheckInterval: Seconds = 0.1, outageWhenSilent: SilenceRule? = nil, reopenWhenSilent: SilenceRule? = nil) {
        self.initialRetryDelay = initialRetryDelay
        self.maximumRetryDelay = maximumRetryDelay
        self.readTimeout = readTimeout
        self.stopCheckInterval = stopCheckInterval
        self.outageWhenSilent = outageWhenSilent
        self.reopenWhenSilent = reopenWhenSilent
    }
}

/// Counters and state of a running live source (a snapshot; safe to read from any thread).
public struct LiveDeviceStatistics: Sendable, Equatable {
    /// Successful opens, the first included.
    public var opens = 0
    /// Open attempts that failed.
    public var failedOpens = 0
    /// Open connections lost (failure, device gone, silence).
    public var losses = 0
    /// Gaps delivered.
    public var gaps = 0
    /// Records delivered (gaps not counted).
    public var records = 0
    /// Reads that timed out (not counting those ended by a stop).
    public var timedOutReads = 0
    /// Errors the device reported while connected (`LiveReadContext.noteError`).
    public var reportedErrors = 0
    public var isOpen = false
    /// Session time of the latest successful open.
    public var lastOpenedAt: Seconds?
    /// The latest problem, as logged.
    public var lastError: String?
    public init() {}
}
