import Foundation
import OarlogCore
@testable import OarlogDSP
import XCTest

/// The detector's paths share one decision step (`StrokeDecision`): samples with their own
/// times (`process(times:values:count:emit:)`, the analyzer's block path) give every event at
/// the very sample the per-sample path gives it — also a catch announced and then withdrawn
/// because no drive followed within a second, which the block paths used to emit only at the
/// next sample their loops stopped for.
final class StrokeDetectorPathsTests: XCTestCase {
    /// 100 Hz with a little jitter in the times; strokes at 18–32 spm, one in four weak (a
    /// catch and a drive too soft to be recognised), now and then a pause.
    private func rowingWithWeakStrokes(seed: UInt64) -> (times: [Seconds], values: [Float]) {
        var random = SeededNoise(seed: seed)
        var times: [Seconds] = [], values: [Float] = []
        var strokeStart = 0.0, period = 2.5, scale = 1.0, driveShare = 0.33
        var t = 0.0
        while t < 300 {
            var phase = (t - strokeStart) / period
            if phase >= 1 {
                strokeStart += period
                period = 60 / (18 + 14 * random.uniform())
                scale = random.uniform() < 0.25 ? 0.1 + 0.5 * random.uniform() : 0.8 + 0.4 * random.uniform()
                driveShare = 0.25 + 0.2 * random.uniform()
                if random.uniform() < 0.03 { strokeStart += 5 + 10 * random.uniform() }
                phase = (t - strokeStart) / period
            }
            var a = 0.0
            if phase >= 0 {
                if phase < driveShare {
                    a = scale * 4 * sin(Double.pi * phase / driveShare)
                } else {
                    let q = (phase - driveShare) / (1 - driveShare)
                    a = -scale * (0.6 + 2.5 * pow(q, 6))
                }
            }
            times.append(t + 0.0005 * (random.uniform() - 0.5))
            values.append(Float(a + 0.1 * (random.uniform() - 0.5)))
            t += 0.01
        }
        return (times, values)
    }

    func testEveryEventAtTheSameSampleOnThePerSampleAndTheTimedPath() {
        var configuration = StrokeDetectorConfiguration()
        configuration.announcesCatches = true
        var withdrawn = 0
        for seed in UInt64(1)...4 {
            let (times, values) = rowingWithWeakStrokes(seed: seed)
            var perSample = StrokeDetector(configuration: configuration)
            var expected: [String] = []
            for k in times.indices {
                perSample.process(time: times[k], surge: values[k]) { expected.append("\(k) \($0)") }
            }
            var timed = StrokeDetector(configuration: configuration)
            var found: [String] = []
            times.withUnsafeBufferPointer { t in
                values.withUnsafeBufferPointer { v in
                    var start = 0
                    while start < times.count {
                        let n = min(100, times.count - start)
                        timed.process(times: t.baseAddress! + start, values: v.baseAddress! + start, count: n) { k, event in
                            found.append("\(start + k) \(event)")
                        }
                        start += n
                    }
                }
            }
            XCTAssertEqual(found, expected, "seed \(seed)")
            withdrawn += expected.filter { $0.contains("withdrawn") }.count
        }
        XCTAssertGreaterThan(withdrawn, 0, "the signal must have announced catches that no drive followed")
    }
}
