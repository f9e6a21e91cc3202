import Foundation
import OarlogCore
import OarlogTrace
import OarlogTestSupport

/// Rowing traces built from the real Quiske stroke curves, time-scaled to any rate: each
/// stroke is one recorded curve (cycling through the export's rows) stretched to 60/rate
/// seconds, so its catch (the curve's start) is known exactly.
struct SyntheticRowing {
    enum Segment {
        /// `count` strokes at `rate` spm, acceleration multiplied by `scale`.
        case strokes(count: Int, rate: Double, scale: Float = 1)
        /// Sitting still: nothing but sensor noise.
        case still(seconds: Double)
    }

    var times: [Seconds] = []
    var surge: [Float] = []
    var catches: [Seconds] = []
    /// Each stroke's rate from the previous catch, `nil` for the first after a pause.
    var rates: [Double?] = []

    /// - Parameters: `timeAt(i)` gives sample `i`'s time (uniform or not); `noiseSigma` is
    ///   white noise (m/s²) added everywhere.
    init(_ segments: [Segment], curves: [[Float]], timeAt: (Int) -> Seconds, noiseSigma: Double = 0.03, seed: UInt64 = 7) {
        // Piecewise definition: (start, duration, curve index, scale) or still.
        var pieces: [(start: Double, duration: Double, curve: Int?, scale: Float)] = []
        var t = 0.0
        var k = 0
        var afterPause = true
        for segment in segments {
            switch segment {
            case .strokes(let count, let rate, let scale):
                for i in 0..<count {
                    pieces.append((t, 60 / rate, k % curves.count, scale))
                    catches.append(t)
                    // The rate from the previous catch (none across a pause).
                    rates.append(i == 0 && afterPause ? nil : 60 / (t - catches[catches.count - 2]))
                    t += 60 / rate
                    k += 1
                }
                afterPause = false
            case .still(let seconds):
                pieces.append((t, seconds, nil, 0))
                afterPause = true
                t += seconds
            }
        }
        var noise = SeededNoise(seed: seed)
        var p = 0
        var i = 0
        while true {
            let ti = timeAt(i)
            guard ti < t else { break }
            while p + 1 < pieces.count && pieces[p + 1].start <= ti { p += 1 }
            let piece = pieces[p]
            var a: Float = 0
            if let c = piece.curve {
                let curve = curves[c]
                let x = (ti - piece.start) / piece.duration * Double(curve.count - 1)
                let j = min(Int(x), curve.count - 2)
                let f = Float(x - Double(j))
                a = piece.scale * (curve[j] + f * (curve[j + 1] - curve[j]))
            }
            times.append(ti)
            surge.append(a + noise.gaussian(sigma: noiseSigma))
            i += 1
        }
    }

    /// The real curves (m/s²) from the Quiske export.
    static func quiskeCurves() throws -> [[Float]] {
        try QuiskeCurveReader(path: try samplePath("rowingdata/quiske_per_stroke_seat.csv")).strokes.map(\.acceleration)
    }
}
