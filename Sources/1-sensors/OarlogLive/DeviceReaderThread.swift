#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import OarlogCore
import Synchronization

/// The thread side of a live device source (gpsd, IIO): one reader thread started once, the
/// bounded `RecordQueue` it fills, the stop flag it polls, and a stop-aware sleep for backoff.
/// Time (`now()`, sleeps) comes from a `LiveClock`: the monotonic clock, or a `ManualClock` in
/// tests.
///
/// The source passes its read loop to `start`; the thread holds the loop's closure (and so the
/// source) until the loop returns, then closes the queue so `pop()` ends with `nil` once drained.
/// `stop()` sets the flag, closes the queue (a blocked `push` returns), lets the source interrupt
/// a blocking read, and joins the thread.
public final class DeviceReaderThread<Element: Sendable>: @unchecked Sendable {
    /// Records handed from the reader thread to the pipeline.
    public let queue: RecordQueue<Element>
    /// The session origin; `now()` is session time on it.
    public let clock: SessionClock
    /// What `now()` reads and sleeps wait on (its readings are the session clock's monotonic ones).
    public let liveClock: any LiveClock
    /// The longest single sleep in `sleepUnlessStopping`, i.e. how late a stop may be noticed.
    public let sleepStep: Seconds
    private let shouldStop: @Sendable () -> Bool
    private let stopping = Atomic<Bool>(false)
    private let threadState = Mutex<(started: Bool, thread: pthread_t?)>((false, nil))

    /// - Parameters:
    ///   - queueCapacity: records buffered between the thread and the pipeline (at least 1).
    ///   - liveClock: the clock read and slept on (default the monotonic clock).
    ///   - shouldStop: polled through `isStopping`; when it turns true the source ends.
    public init(queueCapacity: Int, clock: SessionClock, liveClock: any LiveClock = MonotonicClock(), sleepStep: Seconds,
                shouldStop: @escaping @Sendable () -> Bool) {
        self.queue = RecordQueue(capacity: max(1, queueCapacity))
        self.clock = clock
        self.liveClock = liveClock
        self.sleepStep = sleepStep
        self.shouldStop = shouldStop
    }

    /// Runs `body` on a new thread, the first time only (`beforeFirstStart` too, just before it);
    /// the queue is closed when `body` returns, or at once if no thread could be created.
    public func start(beforeFirstStart: () -> Void = {}, _ body: @escaping @Sendable () -> Void) {
        threadState.withLock { state in
            guard !state.started else { return }
            state.started = true
            beforeFirstStart()
            let queue = self.queue
            if case .success(let thread) = ThreadLauncher.start({ body(); queue.close() }) {
                state.thread = thread
            } else {
                queue.close()
            }
        }
    }

    /// Asks the thread to end, closes the queue (records already queued are still delivered),
    /// calls `interrupt` (to cancel a blocking read), wakes its sleeps and waits for the thread
    /// unless called on it.
    public func stop(interrupt: () -> Void = {}) {
        stopping.store(true, ordering: .relaxed)
        queue.close()
        interrupt()
        liveClock.wakeSleepers()
        let thread: pthread_t? = threadState.withLock { state in
            defer { state.thread = nil }
            return state.thread
        }
        if let thread, pthread_equal(thread, pthread_self()) == 0 { pthread_join(thread, nil) }
    }

    /// True once `stop()` was called or `shouldStop` says so.
    public var isStopping: Bool { stopping.load(ordering: .relaxed) || shouldStop() }

    /// The session time now.
    public func now() -> Seconds { clock.sessionTime(ofMonotonic: liveClock.now()) }

    /// Sleeps `duration`, noticing a stop within `sleepStep` (at once after `stop()`).
    /// False when the sleep was cut short by a stop.
    @discardableResult
    public func sleepUnlessStopping(_ duration: Seconds) -> Bool {
        sleepUnlessStopping(untilSessionTime: now() + duration)
    }

    /// Sleeps until the session time `time`, noticing a stop within `sleepStep` (at once after
    /// `stop()`). False when the sleep was cut short by a stop.
    @discardableResult
    public func sleepUnlessStopping(untilSessionTime time: Seconds) -> Bool {
        liveClock.sleep(until: clock.monotonicOrigin + time, pollInterval: sleepStep, unless: { isStopping })
    }

    /// Sleeps the backoff's current delay (unless stopping) and doubles it for next time.
    public func backOff(_ backoff: inout ReconnectBackoff) {
        sleepUnlessStopping(backoff.delay)
        backoff.lengthen()
    }
}

/// Seconds with one decimal, for log lines ("1.0", "12.3").
public func tenthsOfSecondText(_ s: Seconds) -> String {
    let tenths = Int((s * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
}
