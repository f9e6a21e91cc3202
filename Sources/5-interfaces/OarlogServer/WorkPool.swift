#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Hummingbird
import Synchronization

/// A fixed set of threads for the server's blocking work (reading a session, making an export),
/// so that neither the event loops nor Swift's cooperative pool wait on a disk or a replay. At
/// most `threads` jobs run at once and at most `waiting` wait for a turn; one more is refused
/// at once (`WorkPool.Busy`: the API answers 503 with Retry-After) rather than queued without
/// end. Exports run on a pool of their own at a lower priority (`nice`), so that a phone's
/// exports cannot slow another's session page (docs/API.md, "Streams and exports").
final class WorkPool: Sendable {
    let name: String
    let threads: Int
    let waiting: Int
    /// The threads' nice value (Linux keeps one per thread): 0 as the server, 10 for exports.
    let nice: Int32

    struct Busy: Error, CustomStringConvertible {
        let pool: String
        let running: Int
        let waiting: Int
        var description: String { "the server is busy: \(running) \(pool) running and \(waiting) waiting; try again in a few seconds" }
    }

    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var started = 0
        /// Jobs taken by a thread and not finished yet.
        var running = 0
    }
    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)

    init(name: String, threads: Int, waiting: Int, nice: Int32 = 0) {
        self.name = name
        self.threads = threads
        self.waiting = waiting
        self.nice = nice
    }

    /// The process's pools: session reads (four threads: the session page asks for several
    /// things at once), exports (two, niced) and changes (one).
    static let reads = WorkPool(name: "reads", threads: 4, waiting: 256)
    static let exports = WorkPool(name: "exports", threads: 2, waiting: 4, nice: 10)
    /// Changes to stored sessions (SessionWrites): one at a time, 512 in all (the one being made
    /// and 511 waiting), each ending with an fsync.
    static let writes = WorkPool(name: "writes", threads: 1, waiting: 511)

    /// Runs `work` on one of the pool's threads; throws `Busy` at once when `waiting` jobs
    /// already wait.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
            let job: @Sendable () -> Void = { continuation.resume(with: Result { try work() }) }
            let outcome = state.withLock { s -> (refused: Busy?, startThread: Bool) in
                let idle = s.started - s.running - s.jobs.count
                // Jobs that wait for a turn: those queued beyond the threads free to take one (a
                // thread woken but not yet holding its job is free, so a burst is not refused
                // just because the threads have not dequeued yet).
                let waitingNow = s.jobs.count - (s.started - s.running)
                if s.started == threads && waitingNow >= waiting {
                    return (Busy(pool: name, running: s.running, waiting: waitingNow), false)
                }
                s.jobs.append(job)
                guard idle <= 0 && s.started < threads else { return (nil, false) }
                s.started += 1
                return (nil, true)
            }
            if let refused = outcome.refused {
                continuation.resume(throwing: refused)
                return
            }
            if outcome.startThread { startThread() }
            ready.signal()
        }
    }

    private func startThread() {
        let thread = Thread { [self] in
            // Named so that `ps -L` and the tests can count them (the thread names itself).
            try? Data("oarlog-\(name)".utf8).write(to: URL(fileURLWithPath: "/proc/thread-self/comm"))
            // Linux keeps the nice value per thread; 0 is the calling thread.
            if nice != 0 { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) }
            while true {
                ready.wait()
                let job = state.withLock { s -> (@Sendable () -> Void)? in
                    guard !s.jobs.isEmpty else { return nil }
                    s.running += 1
                    return s.jobs.removeFirst()
                }
                guard let job else { continue }
                job()
                state.withLock { $0.running -= 1 }
            }
        }
        thread.start()
    }
}
