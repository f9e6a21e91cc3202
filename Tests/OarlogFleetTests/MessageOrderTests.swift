import OarlogFleet
import OarlogTestSupport
import XCTest

/// Messages sent again after a lost connection, and a backlog arriving after newer ones: each
/// delivered once, in order.
final class MessageOrderTests: XCTestCase {
    func message(_ k: Int) -> FleetMessage {
        FleetMessage(boat: "a", session: "s", sequence: k, utc: Double(k), elapsed: Double(k), content: .note("\(k)"))
    }

    func testResentAndReorderedMessagesComeOutOnceInOrder() {
        var random = SplitMix64(state: 7)
        for _ in 0..<50 {
            // 1…300 as a broker may hand them on after reconnects: runs sent again after their first
            // copies, and a backlog of a run arriving after newer ones. The first one first.
            var arrival = Array(1...300)
            var resent = 0
            for _ in 0..<5 {
                let from = Int(random.next() % 280) + 1
                let run = Array(arrival[from..<from + Int(random.next() % 20) + 1])
                let at = min(arrival.count, from + run.count + Int(random.next() % 40))
                arrival.insert(contentsOf: run, at: at)
                resent += run.count
            }
            let cut = Int(random.next() % 250) + 1
            let length = Int(random.next() % 30) + 1
            let moved = Array(arrival[cut..<cut + length])
            arrival.removeSubrange(cut..<cut + length)
            arrival.insert(contentsOf: moved, at: min(arrival.count, cut + Int(random.next() % 40) + 1))
            var order = MessageOrder()
            var out: [Int] = []
            for k in arrival { out += order.accept(message(k), now: 0).map(\.sequence) }
            XCTAssertEqual(out, Array(1...300))
            XCTAssertEqual(order.duplicates, resent)
            XCTAssertEqual(order.missed, 0)
        }
    }

    func testAGapThatNeverFillsIsGivenUpAfterItsPatience() {
        var order = MessageOrder(patience: 30)
        XCTAssertEqual(order.accept(message(5), now: 0).map(\.sequence), [5], "a receiver that joins late starts where it joins")
        XCTAssertEqual(order.accept(message(6), now: 1).map(\.sequence), [6])
        XCTAssertEqual(order.accept(message(9), now: 2), [])
        XCTAssertEqual(order.accept(message(10), now: 3), [])
        XCTAssertEqual(order.tick(now: 31), [], "not yet")
        XCTAssertEqual(order.tick(now: 33).map(\.sequence), [9, 10])
        XCTAssertEqual(order.missed, 2)
        XCTAssertEqual(order.accept(message(7), now: 34), [], "too late: counted as seen")
        XCTAssertEqual(order.accept(message(11), now: 35).map(\.sequence), [11])
    }
}
