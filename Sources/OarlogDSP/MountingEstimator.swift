#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OarlogCore

/// Estimates gravity and the boat's surge (fore-aft) axis from raw 3-axis samples of a sensor
/// mounted at any orientation, and projects each sample onto the surge axis.
///
/// - Gravity: the raw vector's mean over the first `gravitySettlingTime`, then its low-pass
///   (`gravityTimeConstant`). Subtracting it leaves the boat's own acceleration.
/// - Surge axis: the principal axis of the exponentially weighted covariance of that
///   acceleration projected into the horizontal plane (perpendicular to gravity). Heave
///   (vertical) is removed by the projection; the fore-aft motion of a rowing boat is far
///   larger than its sway.
/// - Sign (which end is the bow): the stroke is asymmetric in time. In every boat the sharpest
///   change of acceleration is the rise from the catch dip into the drive, while the fall into
///   the dip (the crew slowing on the slide) and the end of the drive are gradual. So the
///   skewness of the jerk (the derivative of the lightly smoothed surge) is strongly positive
///   with the right sign (+2.3 on a real Talos phone trace, +2.6 on the real Quiske curves).
///   The skewness of the acceleration itself is also used, weakly, negative when the catch
///   dip is a sharp deep spike (it is ±0.2 on those traces): the sign is that of
///   `jerkSkew − valueSkew`, decided once it exceeds `signConfidence`. After settling the same
///   statistic is tracked over about 30 s and the sign flips only if it turns clearly the other
///   way.
///
/// `surge(of:)` returns `nil` while settling: gravity needs `gravitySettlingTime`, the axis
/// needs motion (a boat sitting still has no surge axis), the sign a stroke or two. The samples
/// seen meanwhile (up to `settlingWindow`) can be replayed with `drainSettlingHistory` so the
/// first strokes are not lost. With a configured axis only gravity has to settle.
public struct MountingEstimator: Sendable {
    public let configuration: MountingEstimatorConfiguration

    private var count = 0
    private var firstTime: Seconds = 0
    private var lastTime: Seconds = 0
    private var gravitySum = SIMD3<Double>.zero
    private var gravityEstimate = SIMD3<Double>.zero
    // Exponentially weighted second moments of the dynamic acceleration (xx yy zz xy xz yz).
    private var diagonal = SIMD3<Double>.zero
    private var offDiagonal = SIMD3<Double>.zero
    private var weight: Double = 0
    private var axis: SIMD3<Double>? = nil        // continuous principal axis (sign not applied)
    private var sign: Double = 1
    private var settled = false
    private var settledAt: Seconds = 0
    private var lastAxisUpdate: Seconds = -.infinity
    private var motionStart: Seconds? = nil
    private var history: MountingHistory
    private var replayAvailable = false
    // Sign evidence after settling.
    private var smooth1: Double = 0, smooth2: Double = 0
    private var moments = SIMD4<Double>.zero      // E[s²], E[s³], E[j²], E[j³]
    // Per-interval constants, recomputed only when the sample interval changes (it rarely
    // does): the same values as computed per sample, without an exp() and four divisions each.
    // Timestamps in floating point make the interval wobble in its last bits from sample to
    // sample, so a few recent intervals are kept.
    private var cachedInterval: Seconds = -1
    private var gravityAlpha: Double = 0          // min(1, dt / gravityTimeConstant)
    private var axisAlpha: Double = 0             // min(1, dt / axisTimeConstant)
    private var smoothingAlpha: Double = 0        // 1 − exp(−dt / 0.03), the sign's jerk smoothing
    private var momentAlpha: Double = 0           // min(1, dt / 30)
    private var intervalCache = [SIMD4<Double>](repeating: SIMD4(-1, 0, 0, 0), count: 2 * MountingEstimator.intervalCacheSize)
    private static let intervalCacheSize = 8      // (the hash's top 3 bits) entries: (dt, gravity α, axis α, _), (smoothing α, moment α, _, _)
    private let estimatesAxis: Bool               // configuration.axis is .estimated

    public init(configuration: MountingEstimatorConfiguration = .init()) {
        self.configuration = configuration
        history = MountingHistory(capacity: configuration.historyCapacity)
        if case .estimated = configuration.axis { estimatesAxis = true } else { estimatesAxis = false }
    }

    /// Current gravity estimate in sensor axes (m/s²), `nil` before the first sample.
    public var gravity: SIMD3<Double>? { count > 0 ? gravityEstimate : nil }
    /// Unit vector in sensor axes pointing to the bow (positive surge = boat speeding up),
    /// `nil` while settling.
    public var surgeAxis: SIMD3<Double>? { settled ? axis.map { $0 * sign } : nil }
    /// Whether `surge(of:)` returns values yet.
    public var isSettled: Bool { settled }
    /// RMS of the acceleration along the surge axis and across it (horizontal), m/s²: a large
    /// ratio means a clear axis. `nil` before an axis exists.
    public var horizontalRMS: (surge: Double, sway: Double)? {
        guard let u = axis, weight > 0 else { return nil }
        let g = unitGravity
        let sway = simd_cross(g, u)
        return (variance(along: u).squareRoot(), variance(along: sway).squareRoot())
    }

    /// Feeds one raw sample; returns its surge component (m/s², gravity removed, positive = boat
    /// speeding up), or `nil` while the estimate is still settling.
    public mutating func surge(of sample: AccelSample) -> MetresPerSecondSquared? {
        let a = SIMD3<Double>(Double(sample.x), Double(sample.y), Double(sample.z))
        guard a.x.isFinite, a.y.isFinite, a.z.isFinite else { return nil }
        let t = sample.time
        let dt = count == 0 ? 0 : max(0, t - lastTime)
        if count == 0 { firstTime = t }
        count += 1
        lastTime = t
        let sinceStart = t - firstTime
        if dt != cachedInterval { cacheConstants(dt) }
        if sinceStart < configuration.gravitySettlingTime || count < 3 {
            gravitySum += a
            gravityEstimate = gravitySum / Double(count)
        } else {
            gravityEstimate += gravityAlpha * (a - gravityEstimate)
        }
        let d = a - gravityEstimate
        let alpha = weight == 0 ? 1 : axisAlpha
        weight += alpha * (1 - weight)
        diagonal += alpha * (d * d - diagonal)
        offDiagonal += alpha * (SIMD3(d.x * d.y, d.x * d.z, d.y * d.z) - offDiagonal)

        if !settled {
            history.append(time: t, vector: SIMD3<Float>(a))
            if sinceStart >= configuration.gravitySettlingTime && t - lastAxisUpdate >= configuration.axisUpdateInterval {
                lastAxisUpdate = t
                trySettle(now: t)
            }
            guard settled else { return nil }
        } else if t - lastAxisUpdate >= configuration.axisUpdateInterval {
            lastAxisUpdate = t
            updateAxis()
        }
        guard let u = axis else { return nil }
        let s = (d * u).sum()
        if estimatesAxis { trackSign(s, dt: dt, now: t) }
        return Float(sign * s)
    }

    /// The per-sample constants for sample interval `dt`.
    private mutating func cacheConstants(_ dt: Seconds) {
        cachedInterval = dt
        // A multiplicative hash of all the bits: an interval that is the difference of two
        // timestamps has its low mantissa bits zero.
        let slot = 2 * Int(truncatingIfNeeded: (dt.bitPattern &* 0x9E37_79B9_7F4A_7C15) >> 61)
        let entry = intervalCache[slot]
        if entry.x == dt {
            gravityAlpha = entry.y; axisAlpha = entry.z
            smoothingAlpha = intervalCache[slot + 1].x; momentAlpha = intervalCache[slot + 1].y
            return
        }
        gravityAlpha = min(1, dt / configuration.gravityTimeConstant)
        axisAlpha = min(1, dt / configuration.axisTimeConstant)
        smoothingAlpha = 1 - exp(-dt / 0.03)
        momentAlpha = min(1, dt / 30)
        intervalCache[slot] = SIMD4(dt, gravityAlpha, axisAlpha, 0)
        intervalCache[slot + 1] = SIMD4(smoothingAlpha, momentAlpha, 0, 0)
    }

    /// The samples that arrived while settling (at most `settlingWindow` before it), projected
    /// with the settled mounting, oldest first — without the sample that settled it, which
    /// `surge(of:)` has just returned. Available once, right after `surge(of:)` first returns a
    /// value; later calls give nothing.
    public mutating func drainSettlingHistory(_ body: (Seconds, MetresPerSecondSquared) -> Void) {
        guard replayAvailable, let u = axis else { return }
        replayAvailable = false
        let g = gravityEstimate
        let end = history.count - 1
        var n = history.firstIndex(atOrAfter: settledAt - configuration.settlingWindow)
        while n < end {
            body(history.time(n), Float(sign * ((history.vector(n) - g) * u).sum()))
            n += 1
        }
        history.removeAll()
    }

    /// Whether `drainSettlingHistory` has samples to give (just after settling).
    public var hasSettlingHistory: Bool { replayAvailable }

    // MARK: Estimation

    private var unitGravity: SIMD3<Double> {
        let n = (gravityEstimate * gravityEstimate).sum().squareRoot()
        return n > 0 ? gravityEstimate / n : SIMD3(0, 0, 1)
    }

    private func covariance(times v: SIMD3<Double>) -> SIMD3<Double> {
        let w = weight > 0 ? weight : 1
        let dg = diagonal / w, od = offDiagonal / w
        return SIMD3(dg.x * v.x + od.x * v.y + od.y * v.z,
                     od.x * v.x + dg.y * v.y + od.z * v.z,
                     od.y * v.x + od.z * v.y + dg.z * v.z)
    }

    private func variance(along v: SIMD3<Double>) -> Double { (covariance(times: v) * v).sum() }

    /// Principal axis of the horizontal covariance by power iteration, continuous with `start`.
    private func principalHorizontalAxis(start: SIMD3<Double>?, iterations: Int) -> SIMD3<Double> {
        let g = unitGravity
        func horizontal(_ v: SIMD3<Double>) -> SIMD3<Double> { v - (v * g).sum() * g }
        func normalized(_ v: SIMD3<Double>) -> SIMD3<Double>? {
            let n = (v * v).sum().squareRoot()
            return n > 1e-12 ? v / n : nil
        }
        var v: SIMD3<Double>
        if let s = start, let h = normalized(horizontal(s)) {
            v = h
        } else {
            // The horizontal part of the sensor axis with the largest variance.
            var best = SIMD3<Double>(1, 0, 0), bestVariance = -1.0
            for e in [SIMD3<Double>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)] {
                if let h = normalized(horizontal(e)), variance(along: h) > bestVariance { best = h; bestVariance = variance(along: h) }
            }
            v = best
        }
        let initial = v
        for _ in 0..<iterations {
            guard let next = normalized(horizontal(covariance(times: v))) else { break }
            v = next
        }
        return (v * initial).sum() < 0 ? -v : v
    }

    private mutating func updateAxis() {
        switch configuration.axis {
        case .estimated:
            // With no motion (a rest, the boat drifting) the covariance is sensor noise and its
            // principal axis wanders at random; following it could carry the axis round to the
            // stern by the time the crew restarts. Keep the last axis until there is motion again.
            let candidate = principalHorizontalAxis(start: axis, iterations: 4)
            let minimum = Double(configuration.minimumMotion)
            if axis == nil || variance(along: candidate) >= minimum * minimum { axis = candidate }
        case .fixed(let given):
            let g = unitGravity
            let h = given - (given * g).sum() * g
            let n = (h * h).sum().squareRoot()
            axis = n > 1e-9 ? h / n : given / (given * given).sum().squareRoot()
        }
    }

    private mutating func trySettle(now: Seconds) {
        if case .fixed = configuration.axis {
            updateAxis()
            sign = 1
        } else {
            let u = principalHorizontalAxis(start: axis, iterations: 30)
            axis = u
            let minimum = Double(configuration.minimumMotion)
            guard variance(along: u) >= minimum * minimum else { motionStart = nil; return }
            if motionStart == nil { motionStart = now }
            guard let start = motionStart, now - start >= configuration.motionBeforeSign else { return }
            let statistic = asymmetry(along: u, since: max(now - configuration.settlingWindow, start - 2))
            guard abs(statistic) >= configuration.signConfidence else { return }
            sign = statistic > 0 ? 1 : -1

        }
        settled = true
        settledAt = now
        replayAvailable = true
        moments = .zero
    }

    /// `jerkSkew − valueSkew` of the history projected on `u` (positive: `u` points to the bow).
    private func asymmetry(along u: SIMD3<Double>, since: Seconds) -> Double {
        let g = gravityEstimate
        let first = history.firstIndex(atOrAfter: since)
        guard history.count - first > 8 else { return 0 }
        var sum = SIMD4<Double>.zero   // Σs, Σs², Σs³, n
        var jerk = SIMD3<Double>.zero  // Σj², Σj³, n
        var s1 = ((history.vector(first) - g) * u).sum(), s2 = s1
        var previousTime = history.time(first)
        for n in first..<history.count {
            let s = ((history.vector(n) - g) * u).sum()
            sum += SIMD4(s, s * s, s * s * s, 1)
            let t = history.time(n)
            let dt = t - previousTime
            if dt > 0 {
                let alpha = 1 - exp(-dt / 0.03)
                let before = s2
                s1 += alpha * (s - s1)
                s2 += alpha * (s1 - s2)
                let j = (s2 - before) / dt
                jerk += SIMD3(j * j, j * j * j, 1)
            }
            previousTime = t
        }
        let m = sum.x / sum.w
        let m2 = sum.y / sum.w - m * m
        let m3 = sum.z / sum.w - 3 * m * sum.y / sum.w + 2 * m * m * m
        guard m2 > 0, jerk.z > 0, jerk.x > 0 else { return 0 }
        let valueSkew = m3 / (m2 * m2.squareRoot())
        let j2 = jerk.x / jerk.z, j3 = jerk.y / jerk.z
        let jerkSkew = j3 / (j2 * j2.squareRoot())
        return jerkSkew - valueSkew
    }

    /// Follows the asymmetry after settling; flips the sign only on clear, lasting evidence.
    private mutating func trackSign(_ s: Double, dt: Double, now: Seconds) {
        guard dt > 0 else { smooth1 = s; smooth2 = s; return }
        let alpha = smoothingAlpha
        let before = smooth2
        smooth1 += alpha * (s - smooth1)
        smooth2 += alpha * (smooth1 - smooth2)
        let j = (smooth2 - before) / dt * sign
        let v = s * sign
        let beta = momentAlpha
        moments += beta * (SIMD4(v * v, v * v * v, j * j, j * j * j) - moments)
        guard now - settledAt > 30, moments.x > 0, moments.z > 0 else { return }
        let statistic = moments.w / (moments.z * moments.z.squareRoot()) - moments.y / (moments.x * moments.x.squareRoot())
        if statistic < -1.5 * configuration.signConfidence {
            sign = -sign
            moments = .zero
            settledAt = now
        }
    }
}

@inline(__always)
private func simd_cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}
