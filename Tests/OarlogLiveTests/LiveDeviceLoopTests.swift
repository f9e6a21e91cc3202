import Foundation
import OarlogCore
import OarlogLive
import Synchronization
import XCTest

/// The shared reader loop (`LiveDeviceSource`) over a scripted device on a `ManualClock`: no
/// gpsd, no root, no sleeping in the test. Time moves only when the test runs the clock, so
/// every retry, timeout and gap lands at an exact time.
final class LiveDeviceLoopTests: XCTestCase {
    /// Backoff 0.1 s doubling to 1 s; reads wait 1 s; no silence rules unless a test sets them.
    let plain = LiveReaderPolicy(initialRetryDelay: 0.1, maximumRetryDelay: 1.0, readTimeout: 1.0)

    private func gap(_ start: Seconds, _ end: Seconds, _ reason: String) -> FakeRecord {
        .gap(Gap(sensor: .gps, start: start, end: end, reason: reason))
    }

    /// Milliseconds between successive times (exact for times on whole milliseconds).
    private func intervalsInMilliseconds(_ times: [Seconds]) -> [Int] {
        zip(times.dropFirst(), times).map { Int((($0 - $1) * 1000).rounded()) }
    }

    func testMissingDeviceIsRetriedAtDoublingIntervalsUpToTheCapUntilItAppears() {
        let h = LoopHarness(Array(repeating: .fail("no such device"), count: 7)
                            + [.open([.records([0, 1, 2], at: 4.5), .records([3], at: 5.0)])],
                            policy: plain)
        h.source.start()
        XCTAssertTrue(h.clock.run(until: 6.0))

        XCTAssertEqual(h.device.attempts, [0, 0.1, 0.3, 0.7, 1.5, 2.5, 3.5, 4.5])
        XCTAssertEqual(intervalsInMilliseconds(h.device.attempts), [100, 200, 400, 800, 1000, 1000, 1000])
        XCTAssertEqual(h.drain(), [
            gap(0, 4.5, "fake unavailable: no such device"),
            .data(0, at: 4.5), .data(1, at: 4.5), .data(2, at: 4.5), .data(3, at: 5.0),
        ])
        XCTAssertEqual(h.log, [
            "fake: no such device; retrying every 1.0 s at most",
            "fake: reading script 1",
            "fake: data back after 4.5 s (fake unavailable: no such device)",
        ])
        let s = h.source.statistics
        XCTAssertEqual(s.failedOpens, 7)
        XCTAssertEqual(s.opens, 1)
        XCTAssertEqual(s.lastOpenedAt, 4.5)
        XCTAssertEqual(s.gaps, 1)
        XCTAssertEqual(s.records, 4)
        XCTAssertEqual(s.losses, 0)
        XCTAssertTrue(s.isOpen)
        // After the last record the connection is silent: one read timed out at 6.0, the next
        // waits until 7.0.
        XCTAssertEqual(s.timedOutReads, 1)
        XCTAssertEqual(h.clock.sleepingUntil, [7.0])

        h.source.stop()
        XCTAssertEqual(h.device.closed, 1)
        XCTAssertFalse(h.source.statistics.isOpen)
        XCTAssertNil(h.source.next())
    }

    func testASilentDeviceTimesOutIntoExactlyOneGap() {
        var policy = plain
        policy.outageWhenSilent = SilenceRule(.timedOutReads(1), reason: "no data for 1.0 s")
        policy.reopenWhenSilent = SilenceRule(.timedOutReads(5), reason: "no data for 5 reads")
        let h = LoopHarness([.open([
            .records([0], at: 0.0), .records([1], at: 0.5), .records([2], at: 1.0),
            .records([3], at: 3.5), .records([4], at: 4.0),
        ])], policy: policy)
        h.source.start()
        XCTAssertTrue(h.clock.run(until: 4.5))

        // Reads time out at 2.0 (the outage starts, from the last data at 1.0) and at 3.0; the
        // data at 3.5 closes it.
        XCTAssertEqual(h.drain(), [
            .data(0, at: 0.0), .data(1, at: 0.5), .data(2, at: 1.0),
            gap(1.0, 3.5, "no data for 1.0 s"),
            .data(3, at: 3.5), .data(4, at: 4.0),
        ])
        XCTAssertEqual(h.log, [
            "fake: reading script 1",
            "fake: no data for 1.0 s",
            "fake: data back after 2.5 s (no data for 1.0 s)",
        ])
        let s = h.source.statistics
        XCTAssertEqual(s.timedOutReads, 2)
        XCTAssertEqual(s.gaps, 1)
        XCTAssertEqual(s.opens, 1)
        XCTAssertEqual(s.losses, 0)
        XCTAssertEqual(h.device.attempts, [0])
    }

    func testSilenceUpToTheReopenLimitReopensAndTheFirstReasonStands() {
        var policy = plain
        policy.outageWhenSilent = SilenceRule(.timedOutReads(1), reason: "no data for 1.0 s")
        policy.reopenWhenSilent = SilenceRule(.timedOutReads(3), reason: "no data for 3 reads")
        let h = LoopHarness([
            .open([.records([0], at: 0.5)]),
            .open([.records([1], at: 4.0)]),
        ], policy: policy)
        h.source.start()
        XCTAssertTrue(h.clock.run(until: 4.5))

        // Timeouts at 1.5, 2.5, 3.5: closed at 3.5, opened again 0.1 s later.
        XCTAssertEqual(h.device.attempts, [0, 3.6])
        XCTAssertEqual(h.device.closed, 1)
        XCTAssertEqual(h.drain(), [.data(0, at: 0.5), gap(0.5, 4.0, "no data for 1.0 s"), .data(1, at: 4.0)])
        XCTAssertEqual(h.log, [
            "fake: reading script 1",
            "fake: no data for 1.0 s",
            "fake: no data for 3 reads; reopening",
            "fake: reading script 2",
            "fake: data back after 3.5 s (no data for 1.0 s)",
        ])
        let s = h.source.statistics
        XCTAssertEqual(s.timedOutReads, 3)
        XCTAssertEqual(s.opens, 2)
        XCTAssertEqual(s.losses, 1)
        XCTAssertEqual(s.lastError, "no data for 3 reads")
    }

    func testAStallLongerThanTheLimitDropsTheConnectionAndAShorterOneIsNoGap() {
        // gpsd's rule: no outage while merely quiet; silent for longer than 0.5 s: reconnect.
        // (Times on eighths of a second, so every sum is exact.)
        let policy = LiveReaderPolicy(initialRetryDelay: 0.125, maximumRetryDelay: 1.0, readTimeout: 0.125,
                                      reopenWhenSilent: SilenceRule(.longerThan(0.5), reason: "stalled"))
        let h = LoopHarness([
            .open([.records([0], at: 0.25), .records([1], at: 0.625)]),
            .open([.records([2], at: 1.5)]),
        ], policy: policy)
        h.source.start()
        XCTAssertTrue(h.clock.run(until: 1.5))

        // 0.375 s between 0 and 1: no gap. After 1 (at 0.625), silent 0.5 s at 1.125 (not
        // longer), 0.625 s at 1.25: dropped; reopened at 1.375; data at 1.5.
        XCTAssertEqual(h.drain(), [.data(0, at: 0.25), .data(1, at: 0.625), gap(0.625, 1.5, "device lost: stalled"), .data(2, at: 1.5)])
        XCTAssertEqual(h.device.attempts, [0, 1.375])
        XCTAssertEqual(h.log, [
            "fake: reading script 1",
            "fake: stalled; reopening",
            "fake: reading script 2",
            "fake: data back after 0.9 s (device lost: stalled)",
        ])
        // Timeouts: 0.125 (before 0), 0.375 and 0.5 (before 1), 0.75 … 1.25 (five).
        XCTAssertEqual(h.source.statistics.timedOutReads, 8)
    }

    func testADeviceVanishingMidStreamAndComingBackGivesOneGapPerOutage() {
        let h = LoopHarness([
            .open([.records([0], at: 0.0), .records([1], at: 0.25), .records([2], at: 0.5), .records([3], at: 0.75),
                   .records([4], at: 1.0), .fail("I/O error", at: 1.2)]),
            .fail("no such device"),
            .fail("no such device"),
            .open([.records([5], at: 2.0), .noise(at: 2.1), .records([6], at: 2.25), .lost("unplugged", at: 2.5)]),
            .open([.records([7], at: 3.0)]),
        ], policy: plain)
        h.source.start()
        XCTAssertTrue(h.clock.run(until: 3.5))

        // Lost at 1.2: retries 0.1, 0.2, 0.4 s later; data again at 2.0. Lost at 2.5: the backoff
        // started again from 0.1 s, since data had flowed.
        XCTAssertEqual(h.device.attempts, [0, 1.3, 1.5, 1.9, 2.6])
        XCTAssertEqual(h.drain(), [
            .data(0, at: 0.0), .data(1, at: 0.25), .data(2, at: 0.5), .data(3, at: 0.75), .data(4, at: 1.0),
            gap(1.0, 2.0, "device lost: I/O error"),
            .data(5, at: 2.0), .data(6, at: 2.25),
            gap(2.25, 3.0, "device lost: unplugged"),
            .data(7, at: 3.0),
        ])
        XCTAssertEqual(h.log, [
            "fake: reading script 1",
            "fake: I/O error; reopening",
            "fake: no such device; retrying every 1.0 s at most",
            "fake: reading script 2",
            "fake: data back after 1.0 s (device lost: I/O error)",
            "fake: unplugged; reopening",
            "fake: reading script 3",
            "fake: data back after 0.8 s (device lost: unplugged)",
        ])
        let s = h.source.statistics
        XCTAssertEqual(s.opens, 3)
        XCTAssertEqual(s.failedOpens, 2)
        XCTAssertEqual(s.losses, 2)
        XCTAssertEqual(s.gaps, 2)
        XCTAssertEqual(s.records, 8)
        XCTAssertEqual(h.device.closed, 2)
    }

    func testADeviceThatOpensButFailsAtOnceKeepsBackingOff() {
        // Opening is not enough to reset the backoff: only data does.
        let h = LoopHarness(Array(repeating: .open([.fail("I/O error", at: 0)]), count: 4)
                            + [.open([.records([0], at: 1.5)])], policy: plain)
        h.source.start()
        XCTAssertTrue(h.clock.run(until: 2.0))
        XCTAssertEqual(h.device.attempts, [0, 0.1, 0.3, 0.7, 1.5])
        XCTAssertEqual(h.drain(), [gap(0, 1.5, "device lost: I/O error"), .data(0, at: 1.5)])
        XCTAssertEqual(h.source.statistics.losses, 4)
        XCTAssertEqual(h.device.closed, 4)
    }

    func testStopDuringABackoffSleepEndsAtOnce() {
        let h = LoopHarness([], policy: plain)
        h.source.start()
        XCTAssertTrue(h.clock.run(until: 1.0))
        XCTAssertEqual(h.device.attempts, [0, 0.1, 0.3, 0.7])
        XCTAssertEqual(h.clock.sleepingUntil, [1.5], "asleep in the backoff before the next attempt")

        h.source.stop()  // returns once the reader thread has ended
        XCTAssertEqual(h.clock.now(), 1.0, "no clock time had to pass")
        XCTAssertEqual(h.clock.sleepingUntil, [])
        XCTAssertTrue(h.source.isFinished)
        XCTAssertNil(h.source.next())
        h.clock.advance(to: 10)
        XCTAssertEqual(h.device.attempts, [0, 0.1, 0.3, 0.7], "no attempt after the stop")
        XCTAssertEqual(h.source.statistics.failedOpens, 4)
    }

    func testStopDuringASilentReadEndsAtOnceAndClosesTheDevice() {
        let h = LoopHarness([.open([.records([0], at: 0.2)])], policy: plain)
        h.source.start()
        XCTAssertTrue(h.clock.run(until: 0.5))
        XCTAssertEqual(h.clock.sleepingUntil, [1.2], "waiting in a read")
        h.source.stop()
        XCTAssertEqual(h.clock.now(), 0.5)
        XCTAssertEqual(h.device.closed, 1)
        XCTAssertFalse(h.source.statistics.isOpen)
        XCTAssertEqual(h.source.statistics.timedOutReads, 0, "a read ended by the stop is no timeout")
        // What was queued before the stop is still delivered, then the end.
        XCTAssertEqual(h.source.next(), .data(0, at: 0.2))
        XCTAssertNil(h.source.next())
    }

    func testShouldStopEndsTheSourceWhileItSleeps() {
        // The SIGINT path: a flag polled by the sleeping reader (every stopCheckInterval of real
        // time), not stop(); the clock does not move.
        let flag = Atomic<Bool>(false)
        var policy = plain
        policy.stopCheckInterval = 0.01
        let h = LoopHarness([], policy: policy, shouldStop: { flag.load(ordering: .relaxed) })
        h.source.start()
        XCTAssertTrue(h.clock.run(until: 0.5))
        XCTAssertEqual(h.clock.sleepingUntil, [0.7])
        flag.store(true, ordering: .relaxed)
        XCTAssertNil(h.source.next(), "the stream ends once the flag is seen")
        XCTAssertEqual(h.clock.now(), 0.5)
        XCTAssertEqual(h.device.attempts, [0, 0.1, 0.3])
    }

    func testFailuresAreLoggedTheFirstAndEveryThirtiethTimeAndTheCountRestartsAfterAnOpen() {
        // 65 failed attempts (at 0, 0.1, 0.3, 0.7, then every second from 1.5), the 66th opens at
        // 62.5; the device is lost at 63.0 and fails twice more before opening again.
        let failures: [Attempt] = (1...65).map { .fail("no such device (attempt \($0))") }
        let h = LoopHarness(failures + [
            .open([.records([0], at: 62.5), .fail("I/O error", at: 63.0)]),
            .fail("no such device (attempt 67)"),
            .fail("no such device (attempt 68)"),
            .open([.records([1], at: 64.0)]),
        ], policy: plain)
        h.source.start()
        XCTAssertTrue(h.clock.run(until: 64.5))

        XCTAssertEqual(h.device.attempts.count, 69)
        XCTAssertEqual(h.device.attempts[64], 61.5)
        XCTAssertEqual(Array(h.device.attempts.suffix(4)), [62.5, 63.1, 63.3, 63.7])
        XCTAssertEqual(h.log, [
            "fake: no such device (attempt 1); retrying every 1.0 s at most",
            "fake: no such device (attempt 30); retrying every 1.0 s at most",
            "fake: no such device (attempt 60); retrying every 1.0 s at most",
            "fake: reading script 1",
            "fake: data back after 62.5 s (fake unavailable: no such device (attempt 1))",
            "fake: I/O error; reopening",
            "fake: no such device (attempt 67); retrying every 1.0 s at most",
            "fake: reading script 2",
            "fake: data back after 1.5 s (device lost: I/O error)",
        ])
        XCTAssertEqual(h.source.statistics.failedOpens, 67)
        XCTAssertEqual(h.drain(), [
            gap(0, 62.5, "fake unavailable: no such device (attempt 1)"), .data(0, at: 62.5),
            gap(62.5, 64.0, "device lost: I/O error"), .data(1, at: 64.0),
        ])
    }

    func testRecordsArriveInOrderExactlyOnceThroughASmallQueue() throws {
        // 600 records in batches of 10 every 50 ms over three connections (lost twice), through
        // a queue of 4: the reader waits for the consumer, nothing is lost or repeated.
        func batches(_ range: Range<Int>, from start: Seconds) -> [Step] {
            range.flatMap { b -> [Step] in
                let t = start + 0.05 * Double(b - range.lowerBound)
                return [.records(Array(10 * b..<10 * b + 10), at: t), .noise(at: t + 0.01)]
            }
        }
        let h = LoopHarness([
            .open(batches(0..<20, from: 0) + [.fail("I/O error", at: 0.97)]),
            .open(batches(20..<40, from: 1.1) + [.lost("unplugged", at: 2.07)]),
            .open(batches(40..<60, from: 2.2)),
        ], policy: plain, queueCapacity: 4)
        let collected = Mutex<[FakeRecord]>([])
        let done = DispatchSemaphore(value: 0)
        let source = h.source
        Thread {
            while let r = source.next() { collected.withLock { $0.append(r) } }
            done.signal()
        }.start()
        h.source.start()
        XCTAssertTrue(h.clock.run(until: 5))
        h.source.stop()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)

        let records = collected.withLock { $0 }
        XCTAssertEqual(records.compactMap(\.dataID), Array(0..<600))
        XCTAssertEqual(h.device.attempts, [0, 1.07, 2.17])
        let gapIndices = records.indices.filter { records[$0].gapValue != nil }
        XCTAssertEqual(gapIndices.map { records[$0 - 1].dataID }, [199, 399])
        XCTAssertEqual(gapIndices.map { records[$0 + 1].dataID }, [200, 400])
        let times = records.map { r -> Seconds in
            switch r {
            case .data(_, let t): return t
            case .gap(let g): return g.end
            }
        }
        XCTAssertEqual(times, times.sorted())
        let gaps = records.compactMap(\.gapValue)
        XCTAssertEqual(gaps, [
            Gap(sensor: .gps, start: 0.95, end: 1.1, reason: "device lost: I/O error"),
            Gap(sensor: .gps, start: 2.05, end: 2.2, reason: "device lost: unplugged"),
        ])
        XCTAssertEqual(h.source.statistics.records, 600)
    }

    func testManualClockWakesEachSleeperWhenItsDeadlinePasses() {
        let clock = ManualClock()
        let woke = Mutex<[Int]>([])
        let finished = DispatchGroup()
        for (n, deadline) in [(1, 0.3), (2, 0.5)] {
            finished.enter()
            Thread {
                let reached = clock.sleep(until: deadline, pollInterval: 1, unless: { false })
                if reached { woke.withLock { $0.append(n) } }
                finished.leave()
            }.start()
        }
        XCTAssertEqual(clock.waitForSleepers(count: 2), [0.3, 0.5])
        clock.advance(to: 0.1 + 0.2)  // 0.30000000000000004: the clock keeps nanoseconds
        XCTAssertEqual(clock.now(), 0.3)
        XCTAssertEqual(clock.waitForSleepers(count: 1), [0.5])
        clock.advance(by: 0.1)
        XCTAssertEqual(clock.sleepingUntil, [0.5], "0.4: the second sleeper still sleeps")
        clock.advance(by: 0.1)
        XCTAssertEqual(finished.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(woke.withLock { $0 }.sorted(), [1, 2])
        XCTAssertEqual(clock.now(), 0.5)
        XCTAssertTrue(clock.sleep(until: 0.5, pollInterval: 1, unless: { true }), "a deadline already reached returns at once")
    }
}
