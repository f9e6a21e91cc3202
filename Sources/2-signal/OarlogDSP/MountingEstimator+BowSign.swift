#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OarlogCore

/// The bow's sign at settling, from the history of the samples seen so far: the stroke's
/// asymmetry in time (see `MountingEstimator`). After settling `BowSignEvidence` follows it.
extension MountingEstimator {
    /// The skewness of the jerk of the history from sample `first` on, projected on `u`
    /// (positive: `u` points to the bow). The smoothing's weight for each interval comes from
    /// `intervalConstants` (the same `1 − exp(−dt / smoothingTime)`, computed once per interval
    /// rather than once per sample: this runs over the whole history at every try to settle).
    mutating func asymmetry(along u: SIMD3<Double>, from first: Int) -> Double {
        let g = gravityEstimate
        guard history.count - first > 8 else { return 0 }
        var jerk = SIMD3<Double>.zero  // Σj², Σj³, n
        var smoothing = BowSignEvidence()  // its smoothing alone, from the first sample
        smoothing.smooth1 = ((history.vector(first) - g) * u).sum()
        smoothing.smooth2 = smoothing.smooth1
        var previousTime = history.time(first)
        for n in first..<history.count {
            let s = ((history.vector(n) - g) * u).sum()
            let t = history.time(n)
            let dt = t - previousTime
            if dt > 0 {
                let j = smoothing.smoothedJerk(s, dt: dt, alpha: intervalConstants.constants(for: dt, configuration).z)
                jerk += SIMD3(j * j, j * j * j, 1)
            }
            previousTime = t
        }
        guard jerk.z > 0, jerk.x > 0 else { return 0 }
        let j2 = jerk.x / jerk.z, j3 = jerk.y / jerk.z
        return j3 / (j2 * j2.squareRoot())
    }

    /// The sign of the bow from the two signs of the stroke's asymmetry, or `nil` while they do
    /// not say clearly: the jerk's skewness and how much more the surge rises out of the catch
    /// than it falls anywhere (`riseOverFall`). Both must agree, the skewness by at least
    /// `confidence`, the rise by 10 %; a skewness of 1.2 or more (every real stroke seen) is
    /// enough unless the rise clearly says the opposite (25 %).
    static func bowSign(jerkSkew: Double, riseOverFall: Double?, confidence: Double) -> Double? {
        let r = riseOverFall.map { log($0) } ?? 0
        if abs(jerkSkew) >= confidence, abs(r) >= log(1.1), (jerkSkew > 0) == (r > 0) { return jerkSkew > 0 ? 1 : -1 }
        if abs(jerkSkew) >= 1.2, !(abs(r) >= log(1.25) && (jerkSkew > 0) != (r > 0)) { return jerkSkew > 0 ? 1 : -1 }
        return nil
    }

    /// How much more the surge rises than it falls: over each 2 s of the history projected on
    /// `u`, the largest rise and the largest fall within 0.2 s of its 30 ms means; the sum of the
    /// rises over the sum of the falls (above 1: `u` points to the bow — the rise out of the
    /// catch into the drive is the stroke's largest change, in every boat), from sample `first`
    /// on. `nil` with too little.
    func riseOverFall(along u: SIMD3<Double>, from first: Int) -> Double? {
        let g = gravityEstimate
        let n = history.count - first
        guard n > 16 else { return nil }
        let interval = (history.time(history.count - 1) - history.time(first)) / Double(n - 1)
        guard interval > 0 else { return nil }
        let box = max(1, Int((0.03 / interval).rounded()))       // samples in a 30 ms mean
        let lag = max(1, Int((0.2 / interval).rounded()))        // samples in 0.2 s
        guard n > box + lag + 1 else { return nil }
        @inline(__always) func value(_ k: Int) -> Double { ((history.vector(k) - g) * u).sum() }
        // Running sums of the 30 ms box ending at k and at k − lag.
        var now = 0.0, then = 0.0
        for k in first..<(first + box) { then += value(k) }
        for k in (first + lag)..<(first + lag + box) { now += value(k) }
        var rises = 0.0, falls = 0.0
        var chunkStart = history.time(first + lag + box - 1)
        var largestRise = -Double.infinity, largestFall = Double.infinity
        var k = first + lag + box - 1
        while true {
            let change = (now - then) / Double(box)
            largestRise = max(largestRise, change)
            largestFall = min(largestFall, change)
            let t = history.time(k)
            if t - chunkStart >= 2 {
                rises += max(0, largestRise); falls += max(0, -largestFall)
                largestRise = -.infinity; largestFall = .infinity
                chunkStart = t
            }
            k += 1
            guard k < history.count else { break }
            now += value(k) - value(k - box)
            then += value(k - lag) - value(k - lag - box)
        }
        guard rises > 0, falls > 0 else { return nil }
        return rises / falls
    }
}
