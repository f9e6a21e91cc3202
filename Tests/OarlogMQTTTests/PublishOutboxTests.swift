import OarlogMQTT
import XCTest

final class PublishOutboxTests: XCTestCase {
    private func message(_ k: Int, topic: String = "oarlog/alpha/stroke") -> OutgoingMessage {
        OutgoingMessage(topic: topic, payload: Array("\(k)".utf8))
    }

    private func number(_ m: OutgoingMessage?) -> Int? {
        m.flatMap { Int(String(decoding: $0.payload, as: UTF8.self)) }
    }

    /// Sends everything the window allows, as ids `firstID`, `firstID+1`, …; returns the numbers sent.
    private func sendAll(_ outbox: inout PublishOutbox, firstID: Int32) -> [(id: Int32, number: Int)] {
        var sent: [(Int32, Int)] = []
        var id = firstID
        while let m = outbox.next() {
            sent.append((id, number(m)!))
            outbox.sent(id: id)
            id += 1
        }
        return sent
    }

    func testWindowIsRespected() {
        var outbox = PublishOutbox(window: 3, limit: 100)
        XCTAssertNil(outbox.next())
        for k in 0..<10 { outbox.add(message(k)) }
        XCTAssertEqual(outbox.undelivered, 10)
        let first = sendAll(&outbox, firstID: 1)
        XCTAssertEqual(first.map(\.number), [0, 1, 2])
        XCTAssertEqual(outbox.inFlight, 3)
        XCTAssertNil(outbox.next(), "a full window gives nothing more")
        outbox.acknowledge(id: 2)
        XCTAssertEqual(number(outbox.next()), 3, "one acknowledgement frees one place, for the next in order")
        XCTAssertEqual(sendAll(&outbox, firstID: 10).map(\.number), [3])
        XCTAssertEqual(outbox.inFlight, 3)
        XCTAssertEqual(outbox.undelivered, 9)
    }

    func testAcknowledgeRemovesOnlyThatMessage() {
        var outbox = PublishOutbox(window: 10, limit: 100)
        for k in 0..<5 { outbox.add(message(k)) }
        _ = sendAll(&outbox, firstID: 100)
        outbox.acknowledge(id: 102)
        outbox.acknowledge(id: 102)  // twice: the second is unknown and ignored
        outbox.acknowledge(id: 999)  // never sent
        XCTAssertEqual(outbox.acknowledged, 1)
        XCTAssertEqual(outbox.undelivered, 4)
        XCTAssertEqual(outbox.inFlight, 4)
        for id: Int32 in [100, 101, 103, 104] { outbox.acknowledge(id: id) }
        XCTAssertEqual(outbox.acknowledged, 5)
        XCTAssertTrue(outbox.isEmpty)
        XCTAssertEqual(outbox.refused, 0)
        XCTAssertNil(outbox.lastRefusal)
    }

    func testOrderIsKeptAcrossLostConnections() {
        var outbox = PublishOutbox(window: 4, limit: 1000)
        for k in 0..<10 { outbox.add(message(k)) }
        _ = sendAll(&outbox, firstID: 1)          // 0 1 2 3 in flight as ids 1…4
        outbox.acknowledge(id: 1)                 // 0 delivered
        outbox.acknowledge(id: 3)                 // 2 delivered, out of order
        outbox.connectionLost()                   // 1 and 3 go back to the front
        XCTAssertEqual(outbox.resent, 2)
        XCTAssertEqual(outbox.inFlight, 0)
        XCTAssertEqual(outbox.undelivered, 8)
        for k in 10..<12 { outbox.add(message(k)) }  // queued while away
        outbox.connectionLost()                   // lost again with nothing in flight: no change
        XCTAssertEqual(outbox.resent, 2)

        var delivered = [0, 2]
        var nextID: Int32 = 50
        var rounds = 0
        while !outbox.isEmpty && rounds < 100 {
            rounds += 1
            let sent = sendAll(&outbox, firstID: nextID)
            nextID += Int32(sent.count)
            if rounds == 2 {
                // Lose the connection again with the first of these acknowledged.
                outbox.acknowledge(id: sent[0].id)
                delivered.append(sent[0].number)
                outbox.connectionLost()
                continue
            }
            for s in sent {
                outbox.acknowledge(id: s.id)
                delivered.append(s.number)
            }
        }
        XCTAssertTrue(outbox.isEmpty)
        XCTAssertEqual(delivered.sorted(), Array(0..<12), "every message delivered exactly once")
        XCTAssertEqual(Array(delivered.dropFirst(2)), [1, 3, 4, 5, 6, 7, 8, 9, 10, 11],
                       "after each loss the rest go in their original order")
        XCTAssertEqual(outbox.resent, 2 + 3, "three of the second window went back")
        XCTAssertEqual(outbox.acknowledged, 12)
    }

    func testRefusalIsCountedWithItsTopic() {
        var outbox = PublishOutbox(window: 10, limit: 100)
        outbox.add(message(0, topic: "oarlog/alpha/stroke"))
        outbox.add(message(1, topic: "oarlog/bravo/stroke"))
        outbox.add(message(2, topic: "oarlog/alpha/note"))
        _ = sendAll(&outbox, firstID: 7)
        outbox.acknowledge(id: 7, reasonCode: 0)
        outbox.acknowledge(id: 8, reasonCode: 135, reason: "Not authorized")
        outbox.acknowledge(id: 9, reasonCode: 0x10, reason: "No matching subscribers")  // < 0x80: success
        XCTAssertEqual(outbox.refused, 1)
        XCTAssertEqual(outbox.acknowledged, 2)
        XCTAssertEqual(outbox.lastRefusal?.topic, "oarlog/bravo/stroke")
        XCTAssertEqual(outbox.lastRefusal?.reason, "Not authorized")
        XCTAssertTrue(outbox.isEmpty, "a refused message is not sent again")
    }

    func testLimitDropsTheOldestAndCounts() {
        var outbox = PublishOutbox(window: 2, limit: 5)
        for k in 0..<5 { outbox.add(message(k)) }
        _ = sendAll(&outbox, firstID: 1)         // 0, 1 in flight
        for k in 5..<8 { outbox.add(message(k)) }  // 3 over the limit: 2, 3, 4 (queued, oldest) dropped
        XCTAssertEqual(outbox.dropped, 3)
        XCTAssertEqual(outbox.undelivered, 5)
        outbox.connectionLost()                  // 0, 1 back to the front
        var order: [Int] = []
        var id: Int32 = 10
        while let m = outbox.next() {
            order.append(number(m)!)
            outbox.sent(id: id)
            outbox.acknowledge(id: id)
            id += 1
        }
        XCTAssertEqual(order, [0, 1, 5, 6, 7])
        XCTAssertTrue(outbox.isEmpty)

        // Nothing queued, all in flight: the oldest in flight goes.
        var full = PublishOutbox(window: 3, limit: 3)
        for k in 0..<3 { full.add(message(k)) }
        _ = sendAll(&full, firstID: 1)
        full.add(message(3))
        XCTAssertEqual(full.dropped, 1)
        XCTAssertEqual(full.undelivered, 3)
        full.acknowledge(id: 1)                  // message 0 was dropped: its acknowledgement is not counted
        XCTAssertEqual(full.acknowledged, 0)
        XCTAssertEqual(number(full.next()), 3)
    }

    func testLongRunCompactsAndKeepsOrder() {
        // Past 4096 sent messages the queue is compacted; the order must survive it and a loss.
        var outbox = PublishOutbox(window: 50, limit: 100_000)
        var delivered: [Int] = []
        var id: Int32 = 1
        for k in 0..<10_000 {
            outbox.add(message(k))
            if k % 7 == 0 {
                let sent = sendAll(&outbox, firstID: id)
                id += Int32(sent.count)
                if k % 1001 == 0 {
                    outbox.connectionLost()
                } else {
                    for s in sent {
                        outbox.acknowledge(id: s.id)
                        delivered.append(s.number)
                    }
                }
            }
        }
        while !outbox.isEmpty {
            let sent = sendAll(&outbox, firstID: id)
            id += Int32(sent.count)
            for s in sent {
                outbox.acknowledge(id: s.id)
                delivered.append(s.number)
            }
        }
        let firstWrong = zip(delivered, 0...).first { $0.0 != $0.1 }
        XCTAssertTrue(delivered.count == 10_000 && firstWrong == nil,
                      "\(delivered.count) delivered; first out of place: \(firstWrong.map { "\($0.0) at \($0.1)" } ?? "none")")
        XCTAssertEqual(outbox.acknowledged, 10_000)
        XCTAssertGreaterThan(outbox.resent, 0)
    }
}
