#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OarlogCore

// The mounting estimator's arithmetic on one sample, written once for its two paths: one sample
// at a time (`MountingEstimator.surge(of:)`) and the block path (`surges`), whose passes each run
// one of these stages over a whole run. Vectors are kept as x and y in one `SIMD2` and z apart
// (a `SIMD3<Double>` takes four lanes): lane by lane the same operations as on `SIMD3`, so
// either way of holding them gives the same bits.

/// Gravity: the raw vector's low-pass (`MountingEstimatorConfiguration.gravityTimeConstant`).
struct MountingGravity: Sendable {
    var xy = SIMD2<Double>.zero
    var z: Double = 0

    var vector: SIMD3<Double> {
        get { SIMD3(xy.x, xy.y, z) }
        set { xy = SIMD2(newValue.x, newValue.y); z = newValue.z }
    }

    /// Follows the sample `a` by `alpha`; returns the dynamic acceleration `a − g`.
    @inline(__always)
    mutating func follow(_ aXY: SIMD2<Double>, _ aZ: Double, alpha: Double) -> (xy: SIMD2<Double>, z: Double) {
        xy += alpha * (aXY - xy); z += alpha * (aZ - z)
        return (aXY - xy, aZ - z)
    }
}

/// The exponentially weighted second moments of the dynamic acceleration, as three pairs:
/// (xx, yy), (zz, xy), (xz, yz).
struct MotionCovariance: Sendable {
    var a = SIMD2<Double>.zero, b = SIMD2<Double>.zero, c = SIMD2<Double>.zero

    /// xx, yy, zz.
    var diagonal: SIMD3<Double> { SIMD3(a.x, a.y, b.x) }
    /// xy, xz, yz.
    var offDiagonal: SIMD3<Double> { SIMD3(b.y, c.x, c.y) }

    /// Takes the dynamic acceleration `d` with weight `alpha`.
    @inline(__always)
    mutating func take(_ dXY: SIMD2<Double>, _ dZ: Double, alpha: Double) {
        a += alpha * (dXY * dXY - a)
        b += alpha * (SIMD2(dZ * dZ, dXY.x * dXY.y) - b)
        c += alpha * (dXY * dZ - c)
    }

    /// `d`'s component along the axis `u`: the surge before its sign (the dot product
    /// `(d * u).sum()`, its lanes added in order: x + y, then + z).
    @inline(__always)
    static func project(_ dXY: SIMD2<Double>, _ dZ: Double, on uXY: SIMD2<Double>, _ uZ: Double) -> Double {
        let p = dXY * uXY
        return (p.x + p.y) + dZ * uZ
    }
}

/// Which end is the bow, followed after settling: the skewness of the jerk of the lightly
/// smoothed surge, over about 30 s; the sign flips only on clear, lasting evidence.
struct BowSignEvidence: Sendable {
    /// The surge's smoothing before its jerk is taken: a first-order low-pass, twice, of this
    /// time constant.
    static let smoothingTime: Seconds = 0.03

    var sign: Double = 1
    var smooth1: Double = 0, smooth2: Double = 0
    var moments = SIMD2<Double>.zero      // E[j²], E[j³]
    /// When the mounting settled, or the sign last flipped.
    var since: Seconds = 0

    /// The jerk of the smoothed surge (before the sign) at a sample `dt` after the last, its
    /// surge (before the sign) `s`; `alpha` the smoothing's weight for `dt`. With no time
    /// between the two (`dt` ≤ 0) the smoothing restarts at `s` and the jerk means nothing.
    @inline(__always)
    mutating func smoothedJerk(_ s: Double, dt: Double, alpha: Double) -> Double {
        guard dt > 0 else { smooth1 = s; smooth2 = s; return 0 }
        let before = smooth2
        smooth1 += alpha * (s - smooth1)
        smooth2 += alpha * (smooth1 - smooth2)
        return (smooth2 - before) / dt
    }

    /// Takes a jerk (before the sign) as evidence at `now`, with weight `beta`; the sign flips
    /// when the skew E[j³] / E[j²]^1.5 falls below `flipBelow`, 30 s after the last decision.
    ///
    /// The skew is only computed when a cheap bound does not rule a flip out: with `flipBelow`
    /// negative, a flip needs E[j³] < 0 and E[j³]² > flipBelow² · E[j²]³ (squares and cubes,
    /// no square root, no division). The 1 % margin covers their rounding and that of the skew
    /// many times over; the range checks keep the cubes from underflowing or overflowing.
    @inline(__always)
    mutating func take(jerk: Double, beta: Double, now: Seconds, flipBelow: Double) {
        let j = jerk * sign
        let jj = j * j
        moments += beta * (SIMD2(jj, jj * j) - moments)
        let m2 = moments.x, m3 = moments.y
        guard now - since > 30, m2 > 0 else { return }
        let bound = (0.99 * flipBelow) * (0.99 * flipBelow)
        let ruledOut = flipBelow < 0
            && (m3 >= 0 || (m2 > 1e-30 && m2 < 1e30 && m3 > -1e45 && m3 * m3 <= bound * (m2 * m2 * m2)))
        guard !ruledOut else { return }
        let skew = m3 / (m2 * m2.squareRoot())
        if skew < flipBelow {
            sign = -sign
            moments = .zero
            since = now
        }
    }
}

/// The per-interval constants, for the intervals seen: timestamps in floating point make the
/// interval wobble in its last bits from sample to sample, so a branch on "the same as the last
/// one" would be mispredicted, and an `exp` and four divisions a sample are too many. 64
/// entries of 8 (the interval, its four constants, unused), found by a multiplicative hash of
/// all the interval's bits (an interval that is the difference of two timestamps has its low
/// mantissa bits zero).
struct MountingIntervalConstants: Sendable {
    static let entries = 64
    var table = [Double](repeating: -1, count: 8 * MountingIntervalConstants.entries)

    /// The constants for `dt`: (gravity α, axis α, smoothing α, moment α).
    @inline(__always)
    static func compute(_ dt: Seconds, _ configuration: MountingEstimatorConfiguration) -> SIMD4<Double> {
        SIMD4(min(1, dt / configuration.gravityTimeConstant), min(1, dt / configuration.axisTimeConstant),
              1 - exp(-dt / BowSignEvidence.smoothingTime), min(1, dt / 30))
    }

    /// Where `dt`'s entry is in the table.
    @inline(__always)
    static func slot(_ dt: Seconds) -> Int {
        8 * Int(truncatingIfNeeded: (dt.bitPattern &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }

    /// The constants for `dt`, from the table or computed into it.
    @inline(__always)
    mutating func constants(for dt: Seconds, _ configuration: MountingEstimatorConfiguration) -> SIMD4<Double> {
        let s = Self.slot(dt)
        if table[s] == dt { return SIMD4(table[s + 1], table[s + 2], table[s + 3], table[s + 4]) }
        let c = Self.compute(dt, configuration)
        table.withUnsafeMutableBufferPointer { Self.store(c, for: dt, at: $0.baseAddress.unsafelyUnwrapped) }
        return c
    }

    /// Writes `dt`'s constants `c` into the table at `table`.
    @inline(__always)
    static func store(_ c: SIMD4<Double>, for dt: Seconds, at table: UnsafeMutablePointer<Double>) {
        let entry = table + slot(dt)
        entry[0] = dt; entry[1] = c.x; entry[2] = c.y; entry[3] = c.z; entry[4] = c.w
    }
}
