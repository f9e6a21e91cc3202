import OarlogCore
import Synchronization

/// What a device and its connections see of the reader loop, on the reader thread: the session
/// time, the stop flag, a stop-aware sleep, and `deliver`, which puts each record in the queue
/// preceded by the gap it closes.
public final class LiveReadContext<Record: LiveDeviceRecord>: @unchecked Sendable {
    let thread: DeviceReaderThread<Record>
    let sensor: SensorKind
    let logName: String
    let logSink: @Sendable (String) -> Void
    let statistics = Mutex(LiveDeviceStatistics())
    // Reader-thread state.
    var outages: OutageTracker
    var backoff: ReconnectBackoff

    init(thread: DeviceReaderThread<Record>, sensor: SensorKind, logName: String, policy: LiveReaderPolicy,
         log: @escaping @Sendable (String) -> Void) {
        self.thread = thread
        self.sensor = sensor
        self.logName = logName
        self.logSink = log
        outages = OutageTracker(sensor: sensor)
        backoff = ReconnectBackoff(initialDelay: policy.initialRetryDelay, maximumDelay: policy.maximumRetryDelay)
    }

    /// The session time now (on the source's clock).
    public func now() -> Seconds { thread.now() }

    /// True once the source is stopping.
    public var isStopping: Bool { thread.isStopping }

    /// Sleeps until the session time `time` (a device waiting for its data); false when a stop
    /// cut the sleep short.
    @discardableResult
    public func sleep(untilSessionTime time: Seconds) -> Bool { thread.sleepUnlessStopping(untilSessionTime: time) }

    /// Hands a record to the pipeline, stamped `time` (session time): first the gap it closes,
    /// if an outage was open, or else, with `gapBefore`, a gap from the previous record to this
    /// one that the device itself noticed (a timestamp jump). Waits while the queue is full.
    public func deliver(_ record: Record, at time: Seconds, gapBefore reason: String? = nil) {
        let previous = outages.lastDataAt
        if let gap = outages.dataArrived(at: time) {
            log("\(logName): data back after \(tenthsOfSecondText(gap.duration)) s (\(gap.reason))")
            statistics.withLock { $0.gaps += 1 }
            thread.queue.push(.gap(gap))
        } else if let reason, let last = previous {
            statistics.withLock { $0.gaps += 1 }
            log("\(logName): gap of \(tenthsOfSecondText(time - last)) s: \(reason)")
            thread.queue.push(.gap(Gap(sensor: sensor, start: last, end: time, reason: reason)))
        }
        backoff.reset()
        statistics.withLock { $0.records += 1 }
        thread.queue.push(record)
    }

    /// Logs one line as it is.
    public func log(_ line: String) { logSink(line) }

    /// Counts an error the device reported (e.g. gpsd's ERROR) and keeps it as the latest.
    public func noteError(_ text: String) {
        statistics.withLock { $0.reportedErrors += 1; $0.lastError = text }
    }
}

/// A live source over any `LiveDevice`: one reader thread runs the reconnect loop — open (on
/// failure: outage, backoff 0.1 s doubling to the cap, a log line for the first failure and
/// every 30th), read until the connection is lost or silent too long, close, back off, open
/// again — and hands records and gaps to the pipeline through a bounded `RecordQueue`.
///
/// A gap runs from the last data before an outage to the first data after it, and is delivered
/// just before that data. `stop()` (or `shouldStop`) ends the loop promptly: sleeps are woken,
/// a blocked read is cancelled. `GPSDSource` and `IIOAccelerometerSource` are this loop over
/// libgps and libiio; tests run it over a scripted device on a `ManualClock`.
public final class LiveDeviceSource<Device: LiveDevice>: @unchecked Sendable {
    public typealias Record = Device.Record
    public let device: Device
    public let policy: LiveReaderPolicy
    private let thread: DeviceReaderThread<Record>
    private let context: LiveReadContext<Record>
    private let current = Mutex<Device.Connection?>(nil)

    /// - Parameters:
    ///   - clock: the session origin; records are stamped in session time on it.
    ///   - liveClock: what time is read and slept on (the monotonic clock; a `ManualClock` in tests).
    ///   - log: one line per notable event; called on the reader thread.
    ///   - shouldStop: polled on the reader thread (every `stopCheckInterval` while asleep).
    public init(device: Device, policy: LiveReaderPolicy, queueCapacity: Int, clock: SessionClock,
                liveClock: any LiveClock = MonotonicClock(),
                log: @escaping @Sendable (String) -> Void = { _ in },
                shouldStop: @escaping @Sendable () -> Bool = { false }) {
        self.device = device
        self.policy = policy
        thread = DeviceReaderThread(queueCapacity: queueCapacity, clock: clock, liveClock: liveClock,
                                    sleepStep: policy.stopCheckInterval, shouldStop: shouldStop)
        context = LiveReadContext(thread: thread, sensor: device.sensor, logName: device.logName, policy: policy, log: log)
    }

    deinit { stop() }

    public var clock: SessionClock { thread.clock }

    /// Starts the reader thread (once).
    public func start() { start(beforeFirstStart: {}) }

    /// Starts the reader thread (once); `beforeFirstStart` runs just before it, the first time.
    public func start(beforeFirstStart: () -> Void) {
        thread.start(beforeFirstStart: beforeFirstStart) { [self] in run() }
    }

    /// Stops the reader thread (waking its sleeps, cancelling a blocked read) and waits for it.
    /// Queued records are still delivered; then `next()` returns `nil`.
    public func stop() {
        thread.stop(interrupt: { current.withLock { $0?.cancel() } })
    }

    /// The next record or gap, waiting as long as it takes; `nil` once stopped and drained.
    public func next() -> Record? { thread.queue.pop() }

    /// The next record or gap, waiting at most `timeout` (real time); `nil` on timeout or once
    /// finished.
    public func next(timeout: Seconds) -> Record? { thread.queue.pop(timeout: timeout) }

    /// True once stopped and everything queued was taken.
    public var isFinished: Bool { thread.queue.isFinished }

    public var statistics: LiveDeviceStatistics { context.statistics.withLock { $0 } }

    // MARK: - The reader loop

    private func run() {
        let c = context
        let name = device.logName
        while !c.isStopping {
            let connection: Device.Connection
            do {
                connection = try device.open(c)
            } catch {
                let text = String(describing: error)
                let neverOpened = c.statistics.withLock { s -> Bool in
                    s.failedOpens += 1
                    s.lastError = text
                    return s.opens == 0
                }
                c.outages.begin(device.unavailableReason(text, neverOpened: neverOpened), now: c.now())
                if c.backoff.recordFailure() {
                    c.log("\(name): \(text); retrying every \(tenthsOfSecondText(policy.maximumRetryDelay)) s at most")
                }
                thread.backOff(&c.backoff)
                continue
            }
            c.backoff.recordOpen()
            current.withLock { $0 = connection }
            if c.isStopping {
                current.withLock { $0 = nil }
                connection.close()
                break
            }
            let openedAt = c.now()
            c.statistics.withLock { $0.opens += 1; $0.isOpen = true; $0.lastOpenedAt = openedAt }
            c.log("\(name): \(connection.summary)")

            let lostReason = readUntilLost(connection, openedAt: openedAt)
            connection.finish(c)
            current.withLock { $0 = nil }
            connection.close()
            c.statistics.withLock { $0.isOpen = false }
            if let lostReason, !c.isStopping {
                c.statistics.withLock { $0.losses += 1; $0.lastError = lostReason }
                c.log("\(name): \(connection.lostLogText(lostReason))")
                c.outages.begin(device.lostReason(lostReason), now: c.now())
                thread.backOff(&c.backoff)
            }
        }
    }

    /// Reads until the connection is lost (its reason) or the source stops (`nil`).
    private func readUntilLost(_ connection: Device.Connection, openedAt: Seconds) -> String? {
        let c = context
        var lastProgressAt = openedAt
        var timedOutInARow = 0
        var silenceReported = false
        while !c.isStopping {
            let outcome: LiveReadOutcome
            do {
                outcome = try connection.read(timeout: policy.readTimeout, c)
            } catch {
                return String(describing: error)
            }
            switch outcome {
            case .progressed:
                lastProgressAt = c.now()
                timedOutInARow = 0
                silenceReported = false
            case .idle:
                break
            case .timedOut:
                if c.isStopping { return nil }
                timedOutInARow += 1
                c.statistics.withLock { $0.timedOutReads += 1 }
                let silence = c.now() - lastProgressAt
                if let rule = policy.outageWhenSilent, !silenceReported,
                   rule.isReached(timedOutReads: timedOutInARow, silence: silence) {
                    silenceReported = true
                    c.outages.begin(rule.reason, now: c.now())
                    c.log("\(device.logName): \(rule.reason)")
                }
                if let rule = policy.reopenWhenSilent, rule.isReached(timedOutReads: timedOutInARow, silence: silence) {
                    return rule.reason
                }
            case .lost(let reason):
                return reason
            }
        }
        return nil
    }
}

// A source of pipeline records (`next()` above) fans in with `LiveSources`.
extension LiveDeviceSource: RecordSource, LiveRecordSource where Device.Record == TraceRecord {}
