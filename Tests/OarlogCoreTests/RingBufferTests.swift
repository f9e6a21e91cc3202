import OarlogCore
import OarlogTestSupport
import XCTest

final class RingBufferTests: XCTestCase {
    func testEmpty() {
        let ring = RingBuffer(capacity: 3, filler: 0)
        XCTAssertEqual(ring.capacity, 3)
        XCTAssertEqual(ring.count, 0)
        XCTAssertTrue(ring.isEmpty)
        XCTAssertFalse(ring.isFull)
        XCTAssertNil(ring.first)
        XCTAssertNil(ring.last)
        XCTAssertEqual(Array(ring), [])
    }

    func testCapacityIsAtLeastOne() {
        var ring = RingBuffer(capacity: 0, filler: 0)
        XCTAssertEqual(ring.capacity, 1)
        ring.append(1)
        ring.append(2)
        XCTAssertEqual(Array(ring), [2])
    }

    func testAppendingToAFullBufferDropsTheOldest() {
        var ring = RingBuffer(capacity: 3, filler: -1)
        for v in 1...3 { ring.append(v) }
        XCTAssertTrue(ring.isFull)
        XCTAssertEqual(Array(ring), [1, 2, 3])
        ring.append(4)
        XCTAssertEqual(Array(ring), [2, 3, 4])
        XCTAssertEqual(ring.count, 3)
        XCTAssertEqual(ring.first, 2)
        XCTAssertEqual(ring.last, 4)
        for v in 5...11 { ring.append(v) }
        XCTAssertEqual(Array(ring), [9, 10, 11])
        XCTAssertEqual(ring[0], 9)
        XCTAssertEqual(ring[2], 11)
        XCTAssertEqual(Array(ring.reversed()), [11, 10, 9])
    }

    func testRemoveFirstAcrossTheWrap() {
        var ring = RingBuffer(capacity: 4, filler: 0)
        for v in 1...6 { ring.append(v) }  // storage wrapped: 3 4 5 6
        ring.removeFirst()
        XCTAssertEqual(Array(ring), [4, 5, 6])
        ring.removeFirst(2)
        XCTAssertEqual(Array(ring), [6])
        ring.append(7)
        ring.append(8)
        ring.append(9)
        XCTAssertEqual(Array(ring), [6, 7, 8, 9])
        ring.removeFirst(10)
        XCTAssertTrue(ring.isEmpty)
        ring.removeFirst()
        ring.removeFirst(-3)
        XCTAssertTrue(ring.isEmpty)
        ring.append(10)
        XCTAssertEqual(Array(ring), [10])
    }

    func testRemoveAllKeepsTheCapacity() {
        var ring = RingBuffer(capacity: 2, filler: "")
        ring.append("a")
        ring.append("b")
        ring.append("c")
        ring.removeAll()
        XCTAssertTrue(ring.isEmpty)
        XCTAssertEqual(ring.capacity, 2)
        ring.append("d")
        XCTAssertEqual(Array(ring), ["d"])
    }

    func testElementsCanBeReplacedInPlace() {
        var ring = RingBuffer(capacity: 3, filler: 0)
        for v in 1...5 { ring.append(v) }
        ring[ring.count - 1] = 50
        ring[0] += 100
        XCTAssertEqual(Array(ring), [103, 4, 50])
    }

    func testAValueCopyIsIndependent() {
        var a = RingBuffer(capacity: 2, filler: 0)
        a.append(1)
        var b = a
        b.append(2)
        b.append(3)
        XCTAssertEqual(Array(a), [1])
        XCTAssertEqual(Array(b), [2, 3])
    }

    /// Against a plain array trimmed to the capacity, over a long random run of appends and removals.
    func testMatchesABoundedArray() {
        var generator = SplitMix64(state: 42)
        for capacity in [1, 2, 3, 7, 16] {
            var ring = RingBuffer(capacity: capacity, filler: 0)
            var model: [Int] = []
            for step in 0..<2_000 {
                switch generator.next() % 10 {
                case 0:
                    let n = Int(generator.next() % 4)
                    ring.removeFirst(n)
                    model.removeFirst(min(n, model.count))
                case 1 where step % 97 == 0:
                    ring.removeAll()
                    model.removeAll()
                default:
                    ring.append(step)
                    model.append(step)
                    if model.count > capacity { model.removeFirst() }
                }
                XCTAssertEqual(Array(ring), model)
                XCTAssertEqual(ring.first, model.first)
                XCTAssertEqual(ring.last, model.last)
            }
        }
    }
}
