import Foundation
import OarlogCore
import OarlogGPS
import OarlogLive
import Synchronization
import XCTest

/// The one-fix-per-epoch rule on hand-made TPV sequences (the gpsd runs cover real streams).
final class EpochReducerTests: XCTestCase {
    func tpv(_ second: Int64?, speed: Double? = 2.0, mode: FixMode = .threeD, lat: Double = 52.0) -> GPSDReport {
        GPSDReport(receivedAt: Double(second ?? 0), utcNanoseconds: second.map { $0 * 1_000_000_000 },
                   latitude: lat, longitude: 5.0, speed: speed, mode: mode)
    }

    func run(_ reports: [GPSDReport]) -> (fixes: [GPSDReport], counts: EpochReducer.Counts) {
        var r = EpochReducer()
        var out: [GPSDReport] = []
        for report in reports { r.add(report) { out.append($0) } }
        r.flush { out.append($0) }
        return (out, r.counts)
    }

    func testRepeatsNoFixNoTimeAndPartialEpochs() {
        let (fixes, c) = run([
            tpv(nil),                          // no time yet
            tpv(10, mode: .noFix),             // mode 1
            tpv(11, speed: nil, lat: 52.1),    // GGA first: held
            tpv(11, lat: 52.2),                // RMC: the epoch's fix
            tpv(11, lat: 52.3),                // repeat
            tpv(12, speed: nil, lat: 52.4),    // an epoch that never gets speed…
            tpv(12, speed: nil, lat: 52.5),
            tpv(13),                           // …comes out (partial) when the next one starts
            tpv(14, speed: nil),               // flushed at the end
        ])
        XCTAssertEqual(fixes.map(\.latitude), [52.2, 52.4, 52.0, 52.0])
        XCTAssertEqual(fixes.map { $0.utcNanoseconds! / 1_000_000_000 }, [11, 12, 13, 14])
        XCTAssertEqual(c.noTime, 1)
        XCTAssertEqual(c.noFix, 1)
        XCTAssertEqual(c.partial, 2)
        XCTAssertEqual(c.fixes, 4)
        XCTAssertEqual(c.reports, c.fixes + c.repeats + c.noFix + c.noTime + c.backward)
    }

    func testStaleFixIsDroppedAndASteppedClockIsFollowed() {
        // 20, 21, then one stale 15 (dropped), back to 22; later the clock steps back to 10 and
        // carries on 11, 12 (the first of the new timeline dropped, the rest accepted).
        let (fixes, c) = run([tpv(20), tpv(21), tpv(15), tpv(15), tpv(22), tpv(10), tpv(11), tpv(11), tpv(12)])
        XCTAssertEqual(fixes.map { $0.utcNanoseconds! / 1_000_000_000 }, [20, 21, 22, 11, 12])
        XCTAssertEqual(c.backward, 2)
        XCTAssertEqual(c.clockSteps, 1)
        XCTAssertEqual(c.reports, c.fixes + c.repeats + c.noFix + c.noTime + c.backward)
    }

    func testRecordQueueIsBoundedAndEndsAfterClose() {
        let q = RecordQueue<TraceRecord>(capacity: 2)
        XCTAssertTrue(q.push(.note(Note(time: 1, text: "a"))))
        XCTAssertTrue(q.push(.note(Note(time: 2, text: "b"))))
        // Full: a third push waits until a record is taken.
        let pushed = PushedFlag()
        Thread { pushed.value.store(q.push(.note(Note(time: 3, text: "c"))), ordering: .sequentiallyConsistent) }.start()
        usleep(50_000)
        XCTAssertFalse(pushed.value.load(ordering: .sequentiallyConsistent), "full: the push waits")
        XCTAssertEqual(q.pop(timeout: 0)?.time, 1)
        XCTAssertEqual(q.pop(timeout: 10)?.time, 2)
        XCTAssertEqual(q.pop(timeout: 10)?.time, 3, "the waiting push went in once there was room")
        XCTAssertTrue(q.push(.note(Note(time: 2, text: "b"))))
        q.close()
        XCTAssertFalse(q.push(.note(Note(time: 4, text: "d"))), "closed")
        XCTAssertEqual(try q.next()?.time, 2, "queued records still come out after close")
        XCTAssertNil(try q.next())
        XCTAssertTrue(q.isFinished)
    }
}

/// Whether a push on another thread has returned.
private final class PushedFlag: Sendable {
    let value = Atomic(false)
}
