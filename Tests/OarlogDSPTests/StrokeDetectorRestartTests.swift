import Foundation
import OarlogCore
import OarlogDSP
import XCTest

/// Restarts after a pause (issue 13, finding 1): while the remembered stroke amplitude has faded
/// over the pause, a recovery's bump must not count as a stroke of its own.
final class StrokeDetectorRestartTests: XCTestCase {
    /// A stroke with a pronounced recovery bump (`bump`, a half sine of 0.5 s peaking
    /// 1.3 s after the catch) at 22 spm, 20 strokes, a pause of `pause` s, 20 more.
    /// The random noise of ±0.1 m/s² makes no case depend on one lucky draw.
    static func surge(at t: Seconds, pause: Seconds, pressureAfter: Double = 1) -> Double {
        let period = 60.0 / 22
        func stroke(_ x: Double, _ p: Double) -> Double {
            var a = 0.0
            if x < 0.1 { a -= 3 * (1 - x / 0.1) }                                   // the check, out of the catch
            if x < 0.8 { a += 3 * sin(Double.pi * x / 0.8) }                         // the drive
            if x > 1.05 && x < 1.55 { a += Self.bump * sin(Double.pi * (x - 1.05) / 0.5) } // the recovery's bump
            if x > period - 0.2 { a -= 3 * (x - (period - 0.2)) / 0.2 }             // into the next catch
            if x <= 0.8 { return p * a }
            return p * (a - 0.4)
        }
        let firstStart = 3.0, firstEnd = firstStart + 20 * period
        if t < firstStart { return 0 }
        if t < firstEnd { return stroke((t - firstStart).truncatingRemainder(dividingBy: period), 1) }
        let secondStart = firstEnd + pause
        if t < secondStart { return -0.15 * exp(-(t - firstEnd) / 5) }
        let x = t - secondStart
        if x < 20 * period { return stroke(x.truncatingRemainder(dividingBy: period), pressureAfter) }
        return 0
    }

    /// The recovery's bump, m/s²: two thirds of the drive's peak (before the fix every stroke
    /// after a pause counted twice at this size; 1.2 passed by luck of the thresholds).
    static let bump = 2.0

    func testNoDoubleStrokesAfterPauses() {
        for rate in [25.0, 52, 100, 500] {
            for pause in [5.0, 20, 45, 90] {
                var detector = StrokeDetector()
                var strokes: [StrokeEvent] = []
                var random = SystemRandomNumberGenerator()
                let end = 3 + 40 * 60.0 / 22 + pause + 3
                var t = 0.0
                while t < end {
                    let noise = Double.random(in: -0.1...0.1, using: &random)
                    if let s = detector.process(time: t, surge: Float(Self.surge(at: t, pause: pause) + noise)) { strokes.append(s) }
                    t += 1 / rate
                }
                detector.finish { strokes.append($0) }
                XCTAssertEqual(strokes.count, 40, "\(rate) Hz, pause \(pause) s: \(strokes.map { String(format: "%.2f", $0.catchTime) })")
                let rates = strokes.compactMap(\.strokeRate)
                XCTAssertTrue(rates.allSatisfy { abs($0 - 22) < 1 }, "\(rate) Hz, pause \(pause) s: rates \(rates)")
            }
        }
    }
}
