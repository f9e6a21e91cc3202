import Foundation
import XCTest
import OarlogCore
import OarlogTrace
import OarlogTestSupport

/// A reproducible random source (SplitMix64) with Gaussian samples.
struct SeededNoise {
    private var random: SplitMix64
    init(seed: UInt64) { random = SplitMix64(state: seed) }
    mutating func nextUInt64() -> UInt64 { random.next() }
    mutating func uniform() -> Double { random.uniform() }
    mutating func gaussian(sigma: Double) -> Float {
        let u1 = max(uniform(), 1e-300), u2 = uniform()
        return Float(sigma * (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2))
    }
}

/// A sensor orientation: the rows of the rotation from boat axes (x bow, y port, z up) into
/// sensor axes, so `sensor = R · boat`.
struct Mounting: CustomStringConvertible {
    var name: String
    var r: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)
    var description: String { name }

    func apply(_ boat: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((r.0 * boat).sum(), (r.1 * boat).sum(), (r.2 * boat).sum())
    }

    /// Rotation by `degrees` about `axis` (unit), composed after `self`.
    static func rotation(axis: SIMD3<Double>, degrees: Double, name: String) -> Mounting {
        let a = axis / (axis * axis).sum().squareRoot()
        let th = degrees * Double.pi / 180, c = cos(th), s = sin(th), C = 1 - c
        return Mounting(name: name, r: (
            SIMD3(c + a.x * a.x * C, a.x * a.y * C - a.z * s, a.x * a.z * C + a.y * s),
            SIMD3(a.y * a.x * C + a.z * s, c + a.y * a.y * C, a.y * a.z * C - a.x * s),
            SIMD3(a.z * a.x * C - a.y * s, a.z * a.y * C + a.x * s, c + a.z * a.z * C)))
    }

    static let flat = Mounting(name: "flat, x to bow", r: (SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)))
    /// Upright on its side, sensor x to the stern (surge reads negative on x).
    static let uprightBackwards = rotation(axis: SIMD3(0, 0, 1), degrees: 180, name: "flat, x to stern")
    /// Tilted 70° about a skew axis: no sensor axis lines up with the boat.
    static let skew = rotation(axis: SIMD3(0.3, -0.8, 0.5), degrees: 70, name: "skew 70°")
    /// A phone in a holder: standing up (portrait), screen to the stern, tilted back 30°.
    static let phoneHolder = rotation(axis: SIMD3(0, 1, 0), degrees: -60, name: "upright phone, tilted")
}

/// The Quiske export's chained surge trace (m/s²) and its known stroke boundaries.
struct QuiskeTrace {
    var times: [Seconds] = []
    var surge: [Float] = []
    var boundaries: [Seconds] = []
    var rates: [Double] = []

    init(sampleRate: Hertz? = nil) throws {
        let reader = try QuiskeCurveReader(path: try samplePath("rowingdata/quiske_per_stroke_seat.csv"), sampleRate: sampleRate)
        for record in try readAll(reader) {
            switch record {
            case .accel(let s): times.append(s.time); surge.append(s.x)
            case .reference(let r): boundaries.append(r.time); rates.append(r.strokeRate ?? 0)
            default: break
            }
        }
    }

    /// Raw accelerometer samples: surge along the boat's x, gravity up, plus optional heave,
    /// sway and white noise, rotated into a mounting.
    func samples(mounting: Mounting = .flat, noiseSigma: Double = 0, heave: Double = 0, seed: UInt64 = 1) -> [AccelSample] {
        var noise = SeededNoise(seed: seed)
        var out: [AccelSample] = []
        out.reserveCapacity(times.count)
        for (t, a) in zip(times, surge) {
            // Heave at 0.9 Hz and a little sway at 0.7 Hz (waves, body movement).
            let boat = SIMD3<Double>(Double(a), 0.3 * heave * sin(2 * Double.pi * 0.7 * t),
                                     Double(standardGravity) + heave * sin(2 * Double.pi * 0.9 * t + 1))
            let v = mounting.apply(boat)
            out.append(AccelSample(time: t, x: Float(v.x) + noise.gaussian(sigma: noiseSigma),
                                   y: Float(v.y) + noise.gaussian(sigma: noiseSigma),
                                   z: Float(v.z) + noise.gaussian(sigma: noiseSigma)))
        }
        return out
    }
}

/// Matches detected catches to known boundaries one-to-one (nearest within `tolerance`).
struct StrokeMatch {
    var errors: [Double] = []     // detected − truth, seconds, for matched strokes
    var missed: [Seconds] = []
    var extra: [Seconds] = []

    init(detected: [Seconds], truth: [Seconds], tolerance: Seconds) {
        var used = [Bool](repeating: false, count: detected.count)
        for t in truth {
            var best: Int? = nil
            for (i, d) in detected.enumerated() where !used[i] && abs(d - t) <= tolerance {
                if best == nil || abs(d - t) < abs(detected[best!] - t) { best = i }
            }
            if let b = best { used[b] = true; errors.append(detected[b] - t) } else { missed.append(t) }
        }
        extra = detected.enumerated().filter { !used[$0.offset] }.map { $0.element }
    }

    var maxAbsError: Double { errors.map(abs).max() ?? 0 }
    var medianAbsError: Double {
        let s = errors.map(abs).sorted()
        return s.isEmpty ? 0 : s[s.count / 2]
    }
    var summary: String {
        "matched \(errors.count), missed \(missed.count) \(missed.prefix(5).map { String(format: "%.2f", $0) }), extra \(extra.count) \(extra.prefix(5).map { String(format: "%.2f", $0) }), max |err| \(String(format: "%.3f", maxAbsError)) s, median \(String(format: "%.3f", medianAbsError)) s"
    }
}
