import XCTest
import OarlogCore
@testable import OarlogDSP

/// The stroke detector's history look-ups take shortcuts (a guess from the sample spacing, a few
/// steps from it); these tests hold them to a plain linear search over the same samples.
final class StrokeHistoryLookupTests: XCTestCase {
    /// Raw samples: some appended one by one with jittered spacing (the ring), then a block
    /// attached in place (uniform spacing). Every look-up, before, inside and after the samples
    /// and exactly on sample times, must equal the linear search.
    func testRawHistoryLookupsMatchLinearSearch() {
        var noise = SeededNoise(seed: 7)
        for ringSamples in [0, 5, 300, 5000] {  // 5000 > capacity: the oldest are overwritten
            var history = StrokeRawHistory()
            var t = 10.0
            for _ in 0..<ringSamples {
                history.append(time: t, value: Float(noise.uniform()))
                t += 0.01 * (0.5 + noise.uniform())
            }
            let interval = 0.004
            let block = (0..<1000).map { _ in Float(noise.uniform()) }
            block.withUnsafeBufferPointer { b in
                history.attach(b, startTime: t, interval: interval)
                defer { history.detach() }
                history.withReader { r in
                    let numbers = r.oldest..<r.count
                    var queries = numbers.map { r.time($0) }  // exactly on the samples
                    for _ in 0..<600 { queries.append(8 + 20 * noise.uniform()) }
                    for q in queries {
                        let first = numbers.first { r.time($0) >= q }
                        let last = numbers.last { r.time($0) <= q }
                        XCTAssertEqual(r.firstIndex(atOrAfter: q, interval: interval), first, "first at \(q), ring \(ringSamples)")
                        XCTAssertEqual(r.lastIndex(atOrBefore: q, interval: interval), last, "last at \(q), ring \(ringSamples)")
                    }
                    // Values come from the ring below the block's first number, from the block above.
                    XCTAssertEqual(r.value(r.count - 1), block[999])
                    XCTAssertEqual(r.time(r.count - 1), t + 999 * interval)
                }
            }
            // Detached: the block's tail is in the ring, with the same times.
            history.withReader { r in
                XCTAssertEqual(r.value(r.count - 1), block[999])
                XCTAssertEqual(r.time(r.count - 1), t + 999 * interval, accuracy: 1e-9)
            }
        }
    }

    /// The decimated history's first index at or after a time (a guess from its mean spacing),
    /// on irregular spacing and after the ring wrapped, equals the linear search.
    func testSignalHistoryFirstIndexMatchesLinearSearch() {
        var noise = SeededNoise(seed: 11)
        var history = StrokeSignalHistory()
        var t = 0.0
        for count in 1...1500 {
            history.append(time: t, value: 0)
            t += count % 97 == 0 ? 1.5 : 0.04 * (0.2 + noise.uniform())  // jitter and a few long steps
            guard count % 7 == 0 else { continue }
            let numbers = history.oldest..<history.count
            for _ in 0..<40 {
                let q = history.time(history.oldest) - 0.5 + (history.time(history.count - 1) - history.time(history.oldest) + 1) * noise.uniform()
                XCTAssertEqual(history.firstIndex(atOrAfter: q), numbers.first { history.time($0) >= q }, "at \(q) after \(count)")
            }
            let exact = history.time(numbers.lowerBound + Int(noise.uniform() * Double(numbers.count)))
            XCTAssertEqual(history.firstIndex(atOrAfter: exact), numbers.first { history.time($0) >= exact })
        }
    }
}
