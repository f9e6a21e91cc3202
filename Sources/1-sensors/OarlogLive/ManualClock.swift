#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import OarlogCore

/// A clock for tests whose time moves only when the test says so (as swift-nio's
/// `EmbeddedEventLoop` does for event loops). A reader thread that sleeps on it stays asleep
/// until the test advances the time to its deadline (or a stop wakes it); the test can wait for
/// the thread to be asleep, see the deadline it sleeps until, and move on exactly that far.
///
/// Time is kept in whole nanoseconds, so sums of decimal delays land on the decimal values
/// (0.1 + 0.2 sleeps until exactly `0.3`), and tests can assert exact times.
///
/// The only real time it uses is the bounded wait of `waitForSleepers` (a guard against a thread
/// that never goes to sleep) and a sleeper's `pollInterval` re-check of its stop condition;
/// neither changes what happens at which manual time.
public final class ManualClock: LiveClock, @unchecked Sendable {
    private var nanoseconds: Int64
    /// Sleeps in progress: id → deadline (ns).
    private var sleepers: [UInt64: Int64] = [:]
    private var nextSleeperID: UInt64 = 0
    /// Bumped by `wakeSleepers`, so a sleeper that was checking its condition does not miss it.
    private var wakeGeneration: UInt64 = 0
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let changed: UnsafeMutablePointer<pthread_cond_t>

    public init(now: Seconds = 0) {
        nanoseconds = Self.nanoseconds(now)
        mutex = .allocate(capacity: 1)
        changed = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(changed, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    // MARK: LiveClock

    public func now() -> Seconds {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return Self.seconds(nanoseconds)
    }

    @discardableResult
    public func sleep(until deadline: Seconds, pollInterval: Seconds, unless: () -> Bool) -> Bool {
        let target = Self.nanoseconds(deadline)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if nanoseconds >= target { return true }
        let id = nextSleeperID
        nextSleeperID += 1
        sleepers[id] = target
        pthread_cond_broadcast(changed)
        defer {
            sleepers[id] = nil
            pthread_cond_broadcast(changed)
        }
        while true {
            if nanoseconds >= target { return true }
            let generation = wakeGeneration
            pthread_mutex_unlock(mutex)
            let cutShort = unless()
            pthread_mutex_lock(mutex)
            if cutShort { return false }
            if nanoseconds >= target { return true }
            if wakeGeneration != generation { continue }
            var until = Self.realDeadline(after: max(pollInterval, 0.001))
            pthread_cond_timedwait(changed, mutex, &until)
        }
    }

    public func wakeSleepers() {
        pthread_mutex_lock(mutex)
        wakeGeneration &+= 1
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    // MARK: Driving the clock

    /// Moves the time forward by `duration` (≥ 0), waking the sleepers whose deadline it reaches.
    public func advance(by duration: Seconds) {
        pthread_mutex_lock(mutex)
        let target = nanoseconds + Self.nanoseconds(duration)
        pthread_mutex_unlock(mutex)
        advance(toNanoseconds: target)
    }

    /// Moves the time forward to `time` (never back), waking the sleepers whose deadline it
    /// reaches. They are no longer counted as sleeping when this returns.
    public func advance(to time: Seconds) { advance(toNanoseconds: Self.nanoseconds(time)) }

    private func advance(toNanoseconds target: Int64) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        precondition(target >= nanoseconds, "a ManualClock never goes back")
        nanoseconds = target
        sleepers = sleepers.filter { $0.value > target }
        pthread_cond_broadcast(changed)
    }

    /// Deadlines of the sleeps in progress, earliest first.
    public var sleepingUntil: [Seconds] {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return sleepers.values.sorted().map(Self.seconds)
    }

    /// Waits (at most `timeout` seconds of real time) until at least `count` threads sleep on
    /// this clock; their deadlines, earliest first, or `nil` if they did not go to sleep in time.
    public func waitForSleepers(count: Int = 1, timeout: Double = 10) -> [Seconds]? {
        var until = Self.realDeadline(after: timeout)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while sleepers.count < count {
            if pthread_cond_timedwait(changed, mutex, &until) == ETIMEDOUT && sleepers.count < count { return nil }
        }
        return sleepers.values.sorted().map(Self.seconds)
    }

    /// Runs the sleepers up to `time`: waits for a thread to sleep, advances to its deadline if
    /// that is not after `time`, and again, until the earliest sleeper's deadline is after
    /// `time`; then sets the clock to `time`. On return (true) every thread driven by this clock
    /// has done all it does up to `time` and sleeps. False if no thread went to sleep within
    /// `timeout` seconds of real time (one is blocked elsewhere, or ended).
    @discardableResult
    public func run(until time: Seconds, timeout: Double = 10) -> Bool {
        let target = Self.nanoseconds(time)
        while true {
            guard let next = waitForSleepers(count: 1, timeout: timeout)?.first else { return false }
            let deadline = Self.nanoseconds(next)
            if deadline > target {
                advance(toNanoseconds: max(target, currentNanoseconds))
                return true
            }
            advance(toNanoseconds: deadline)
        }
    }

    /// Waits for a sleeper and advances to its deadline; that deadline, or `nil` if no thread
    /// went to sleep within `timeout` seconds of real time.
    @discardableResult
    public func advanceToNextDeadline(timeout: Double = 10) -> Seconds? {
        guard let next = waitForSleepers(count: 1, timeout: timeout)?.first else { return nil }
        advance(to: next)
        return next
    }

    private var currentNanoseconds: Int64 {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return nanoseconds
    }

    // MARK: Helpers

    static func nanoseconds(_ s: Seconds) -> Int64 { Int64((s * 1e9).rounded()) }
    static func seconds(_ ns: Int64) -> Seconds { Seconds(ns) / 1e9 }

    /// CLOCK_MONOTONIC now plus `seconds`, for a timed condition wait.
    private static func realDeadline(after seconds: Double) -> timespec {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let wait = max(0, seconds)
        ts.tv_sec += Int(wait)
        ts.tv_nsec += Int((wait - Double(Int(wait))) * 1e9)
        if ts.tv_nsec >= 1_000_000_000 { ts.tv_sec += 1; ts.tv_nsec -= 1_000_000_000 }
        return ts
    }
}
