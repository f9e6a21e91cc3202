import Foundation
import XCTest
@testable import OarlogServer

/// The bounded pools of blocking work (session reads, exports): exactly `threads` running and
/// `waiting` waiting are taken in a burst — whether or not the threads have picked up their
/// jobs yet — and one more is refused at once.
final class WorkPoolTests: XCTestCase {
    func testABurstTakesTheThreadsAndTheQueueAndRefusesOneMore() async throws {
        let pool = WorkPool(name: "test-burst", threads: 2, waiting: 4)
        let gate = DispatchSemaphore(value: 0)
        let started = Counter()
        // Six jobs at once, held until the gate opens: 2 run, 4 wait, none refused.
        let jobs = (0..<6).map { k in
            Task { try await pool.run { started.add(); gate.wait(); return k } }
        }
        try await waitUntil { started.value == 2 }
        // Give the four a moment to be queued (they are, before `run` returns to its caller).
        try await Task.sleep(nanoseconds: 200_000_000)
        do {
            _ = try await pool.run { -1 }
            XCTFail("a seventh job was taken")
        } catch let busy as WorkPool.Busy {
            XCTAssertEqual(busy.running, 2)
            XCTAssertEqual(busy.waiting, 4)
        }
        for _ in 0..<6 { gate.signal() }
        var done: [Int] = []
        for job in jobs { done.append(try await job.value) }
        XCTAssertEqual(done, Array(0..<6))
        XCTAssertEqual(started.value, 6)
        // Free again: a new job runs.
        let again = try await pool.run { 7 }
        XCTAssertEqual(again, 7)
    }

    private func waitUntil(_ condition: @escaping @Sendable () -> Bool) async throws {
        for _ in 0..<200 where !condition() { try await Task.sleep(nanoseconds: 10_000_000) }
        XCTAssertTrue(condition())
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
