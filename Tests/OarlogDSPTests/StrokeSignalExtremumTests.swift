import XCTest
import OarlogCore
@testable import OarlogDSP

/// The decimated history's extremum search scans the smoothed signal eight sums at a time; this
/// test holds it to the plain scan, one sample after another, over the same samples.
final class StrokeSignalExtremumTests: XCTestCase {
    /// Random windows over a history that has wrapped its ring, values on a coarse grid so that
    /// equal extremes are common (the first of them must win), windows ending before the newest
    /// sample and at it, maxima and minima: the index found equals the plain scan's.
    func testExtremumMatchesPlainScan() {
        var noise = SeededNoise(seed: 23)
        var history = StrokeSignalHistory()
        var checked = 0, ties = 0
        for count in 1...1400 {
            let t = 0.04 * Double(count) + 0.01 * noise.uniform()
            history.append(time: t, value: Float(Int(noise.uniform() * 6)) * 0.5 - 1.5)  // 6 levels
            guard count % 5 == 0 else { continue }
            for _ in 0..<6 {
                let newest = history.time(history.count - 1)
                let from = newest - 4 * noise.uniform()
                let to = noise.uniform() < 0.5 ? newest : newest - 1.5 * noise.uniform()
                for sign: Float in [-1, 1] {
                    let expected = Self.plainScan(history, from: from, to: to, sign: sign)
                    let found = history.extremum(from: from, to: to, sign: sign)
                    XCTAssertEqual(found?.index, expected.index, "count \(count), from \(from), to \(to), sign \(sign)")
                    checked += 1
                    if expected.tied { ties += 1 }
                }
            }
        }
        XCTAssertGreaterThan(checked, 3000)
        XCTAssertGreaterThan(ties, 300, "the grid must produce equal extremes to test the first-wins rule")
    }

    /// The extreme of the [1 2 1] sums (ends repeated), the first of equals, then the larger raw
    /// neighbour: the definition `extremum` implements. `tied` when a later sum equalled it.
    private static func plainScan(_ h: StrokeSignalHistory, from: Seconds, to: Seconds, sign: Float) -> (index: Int?, tied: Bool) {
        guard let first = (h.oldest..<h.count).first(where: { h.time($0) >= from }) else { return (nil, false) }
        let last = h.count - 1
        var end = last
        while end >= first && h.time(end) > to { end -= 1 }
        let n = max(end + 1, first + 1)
        func sum(_ k: Int) -> Float { h.value(max(h.oldest, k - 1)) + 2 * h.value(k) + h.value(min(last, k + 1)) }
        var best = first, bestSum = sum(first), tied = false
        for k in first + 1..<n {
            let s = sum(k)
            if sign > 0 ? s > bestSum : s < bestSum { best = k; bestSum = s; tied = false } else if s == bestSum { tied = true }
        }
        let best0 = best
        if best0 - 1 >= first && sign * h.value(best0 - 1) > sign * h.value(best) { best = best0 - 1 }
        if best0 + 1 < n && sign * h.value(best0 + 1) > sign * h.value(best) { best = best0 + 1 }
        return (best, tied)
    }
}
