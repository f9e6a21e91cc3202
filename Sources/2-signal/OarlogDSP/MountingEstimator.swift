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
///   with the right sign (+2.3 on a real Talos phone trace, +2.6 on the real Quiske curves,
///   +0.5 on a signal whose fall into the catch is nearly as steep as the rise out of it). The
///   sign is that of the jerk's skewness, decided once it exceeds `signConfidence`. (The
///   skewness of the acceleration itself is no guide: it is −0.4 on the Quiske curves, whose
///   check is deep, and +0.7 where the drive's lobe is the tallest part of the stroke.) After
///   settling the same statistic is tracked over about 30 s and the sign flips only if it turns
///   clearly the other way.
///
/// `surge(of:)` returns `nil` while settling: gravity needs `gravitySettlingTime`, the axis
/// needs motion (a boat sitting still has no surge axis), the sign a stroke or two. The samples
/// seen meanwhile (from just before the motion began, as far as `historyCapacity` holds) can be replayed with `drainSettlingHistory` so the
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
    /// The replay after settling starts here (or `settlingWindow` before settling, if earlier):
    /// from just before the motion began, as far as the history holds.
    private var replayFrom: Seconds = .infinity
    // Sign evidence after settling.
    private var smooth1: Double = 0, smooth2: Double = 0
    private var moments = SIMD2<Double>.zero      // E[j²], E[j³]
    /// Whether the boat was moving at the last axis update (the sign's evidence is only taken then:
    /// a rest's sensor noise says nothing of the bow, and must not outweigh the strokes before it
    /// when the crew restarts).
    private var moving = true
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
    // The block path's scratch (eleven rows of `runLength`: the dynamic acceleration's three
    // components, four constants, the projection, gravity at the axis updates; see `surges`) and its table of per-interval constants (see `surges`).
    private var runScratch = [Double](repeating: 0, count: 11 * MountingEstimator.runLength)
    private var runConstants = [Double](repeating: -1, count: 8 * MountingEstimator.constantsEntries)

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

    /// Whether `surges(of:from:to:times:values:)` takes samples: settled, with the samples held
    /// while settling already drained.
    var takesRuns: Bool { settled && !replayAvailable && axis != nil }

    /// Samples per call of `surges(of:from:to:times:values:)` at most.
    static let runLength = 128

    /// The block path: exactly `surge(of:)` for `samples[start..<end]` in order (at most
    /// `runLength` of them), for as long as every sample has a surge and takes the common way
    /// through it (settled, finite values, past the gravity settling time), writing sample
    /// `start + k`'s time and surge to `times[k]` and `values[k]`. Stops before the first sample
    /// that does not (`surge(of:)` takes that one); returns the index after the last sample
    /// taken.
    ///
    /// The same arithmetic, operation for operation, as `surge(of:)`, in two passes over the run,
    /// each with its state in local variables: (1) gravity, the covariance, the axis updates and
    /// each sample's projection on the axis; (2) the sign's smoothing, moments and flip decision,
    /// and the signed surge. Nothing in (1) depends on the sign, so the passes give what one
    /// sample at a time gives; each is a loop short enough for the processor to overlap the long
    /// dependency chains of successive samples. The per-interval constants come from a hash table
    /// (timestamps make the interval wobble in its last bits: a branch on "same as the last one"
    /// would be mispredicted), and the sign's statistic is only computed when a cheap bound
    /// cannot rule out a flip (see pass 3).
    mutating func surges(of samples: UnsafeBufferPointer<AccelSample>, from start: Int, to end: Int,
                         times: UnsafeMutablePointer<Seconds>, values: UnsafeMutablePointer<Float>) -> Int {
        // The covariance's weight is 1 from the first sample on (0 + 1 · (1 − 0), then 1 + α · 0):
        // its update and the choice of α are left out.
        guard takesRuns, let u = axis, count >= 2, weight == 1 else { return start }
        let limit = min(end, start + Self.runLength)
        // The scratch and the table are moved out for the call (no copy), so that `self` can be
        // updated (`updateAxis`) while they are written.
        var scratch = runScratch, table = runConstants
        runScratch = []; runConstants = []
        defer { runScratch = scratch; runConstants = table }
        let configuration = self.configuration
        let taken = scratch.withUnsafeMutableBufferPointer { scratchBuffer in
            table.withUnsafeMutableBufferPointer { tableBuffer in
                let rows = scratchBuffer.baseAddress.unsafelyUnwrapped
                // d = a − g: its x and y side by side (one SIMD2 per sample), its z apart.
                let dynamicXY = UnsafeMutableRawPointer(rows), dynamicZ = rows + 2 * Self.runLength
                let intervals = rows + 3 * Self.runLength                                               // dt
                let axisWeights = rows + 4 * Self.runLength                                             // min(1, dt / axisTimeConstant)
                let smoothing = rows + 5 * Self.runLength                                               // 1 − exp(−dt / 0.03)
                let momentWeights = rows + 6 * Self.runLength                                           // min(1, dt / 30)
                let projected = rows + 7 * Self.runLength                                               // s: the surge before the sign
                let gravity0 = rows + 8 * Self.runLength, gravity1 = rows + 9 * Self.runLength          // gravity at the samples
                let gravity2 = rows + 10 * Self.runLength                                               // that update the axis
                let constants = tableBuffer.baseAddress.unsafelyUnwrapped

                // (1a) Gravity and the dynamic acceleration, lane by lane (the same operations as
                // `surge(of:)`'s on SIMD3 lanes: x and y in one SIMD2, z alone), and gravity as it
                // is at each sample that updates the axis (found as (1b) finds them). The loop
                // makes no call: it stops at a sample whose interval needs its constants computed
                // (then takes it again).
                var gXY = SIMD2(gravityEstimate.x, gravityEstimate.y), gZ = gravityEstimate.z
                var last = lastTime
                let origin = firstTime, gravitySettling = configuration.gravitySettlingTime
                let axisInterval = configuration.axisUpdateInterval
                var axisUpdated = lastAxisUpdate
                var i = start, k = 0
                var stopped = false
                while i < limit && !stopped {
                    var newInterval: Seconds? = nil
                    while i < limit {
                        let sample = samples[i]
                        guard sample.x.isFinite, sample.y.isFinite, sample.z.isFinite else { stopped = true; break }
                        let t = sample.time
                        let dt = max(0, t - last)
                        // `surge(of:)`'s plain average of gravity (early samples) is not done here.
                        guard !(t - origin < gravitySettling) else { stopped = true; break }
                        let entry = constants + Self.constantsSlot(dt)
                        guard entry[0] == dt else { newInterval = dt; break }
                        let gA = entry[1]
                        let aXY = SIMD2<Double>(SIMD2<Float>(sample.x, sample.y)), aZ = Double(sample.z)
                        gXY += gA * (aXY - gXY); gZ += gA * (aZ - gZ)
                        dynamicXY.storeBytes(of: aXY - gXY, toByteOffset: k &* 16, as: SIMD2<Double>.self)
                        dynamicZ[k] = aZ - gZ
                        if t - axisUpdated >= axisInterval {
                            axisUpdated = t
                            gravity0[k] = gXY.x; gravity1[k] = gXY.y; gravity2[k] = gZ
                        }
                        intervals[k] = dt; axisWeights[k] = entry[2]; smoothing[k] = entry[3]; momentWeights[k] = entry[4]
                        times[k] = t
                        last = t
                        k &+= 1
                        i &+= 1
                    }
                    if let dt = newInterval {
                        let c = Self.constants(dt, configuration)
                        let entry = constants + Self.constantsSlot(dt)
                        entry[0] = dt; entry[1] = c.x; entry[2] = c.y; entry[3] = c.z; entry[4] = c.w
                    }
                }
                let n = k
                gravityEstimate = SIMD3(gXY.x, gXY.y, gZ)
                lastTime = last
                count += n
                if n > 0 {
                    // The constants of the last interval (still in the table), as `cacheConstants`
                    // would have left them.
                    let entry = constants + Self.constantsSlot(intervals[n - 1])
                    cachedInterval = entry[0]
                    gravityAlpha = entry[1]; axisAlpha = entry[2]; smoothingAlpha = entry[3]; momentAlpha = entry[4]
                }

                // (1b) The covariance (its six lanes as three SIMD2: xx yy, zz xy, xz yz), the axis
                // updates (gravity as it was at that sample) and the projection on the axis (its
                // dot product `(d * u).sum()` adds the lanes in order: x + y, then + z).
                var covA = SIMD2(diagonal.x, diagonal.y), covB = SIMD2(diagonal.z, offDiagonal.x)
                var covC = SIMD2(offDiagonal.y, offDiagonal.z)
                var uXY = SIMD2(u.x, u.y), uZ = u.z
                var nextAxisUpdate = lastAxisUpdate
                let latestGravity = gravityEstimate
                @inline(__always) func project(_ k: Int) -> Double {
                    let p = dynamicXY.load(fromByteOffset: k &* 16, as: SIMD2<Double>.self) * uXY
                    return (p.x + p.y) + dynamicZ[k] * uZ
                }
                k = 0
                // Whether the boat was moving at each sample (as `moving` is when `surge(of:)` takes
                // it), 1 or 0, into the row of the axis weights as each is used.
                let movingAt = axisWeights
                var movingNow: Double = moving ? 1 : 0
                while k < n {
                    var axisDue = false
                    while k < n {
                        let dXY = dynamicXY.load(fromByteOffset: k &* 16, as: SIMD2<Double>.self), dZ = dynamicZ[k]
                        let alpha = axisWeights[k]
                        covA += alpha * (dXY * dXY - covA)
                        covB += alpha * (SIMD2(dZ * dZ, dXY.x * dXY.y) - covB)
                        covC += alpha * (dXY * dZ - covC)
                        if times[k] - nextAxisUpdate >= axisInterval { axisDue = true; break }
                        let p = dXY * uXY
                        projected[k] = (p.x + p.y) + dZ * uZ
                        movingAt[k] = movingNow  // (its axis weight is no longer needed)
                        k &+= 1
                    }
                    if axisDue {
                        nextAxisUpdate = times[k]
                        gravityEstimate = SIMD3(gravity0[k], gravity1[k], gravity2[k])
                        diagonal = SIMD3(covA.x, covA.y, covB.x); offDiagonal = SIMD3(covB.y, covC.x, covC.y)
                        updateAxis()
                        let axisNow = axis.unsafelyUnwrapped
                        uXY = SIMD2(axisNow.x, axisNow.y); uZ = axisNow.z
                        projected[k] = project(k)
                        movingNow = moving ? 1 : 0
                        movingAt[k] = movingNow
                        k &+= 1
                    }
                }
                gravityEstimate = latestGravity
                diagonal = SIMD3(covA.x, covA.y, covB.x); offDiagonal = SIMD3(covB.y, covC.x, covC.y)
                lastAxisUpdate = nextAxisUpdate

                guard estimatesAxis else {
                    let sgn = sign
                    for k in 0..<n { values[k] = Float(sgn * projected[k]) }
                    return i
                }
                // (2a) `trackSign`'s smoothing and each sample's jerk before the sign (into the
                // row of the dynamic acceleration's z, no longer needed).
                let jerks = dynamicZ
                var s1 = smooth1, s2 = smooth2
                for k in 0..<n {
                    let s = projected[k], dt = intervals[k]
                    if dt > 0 {
                        let alpha = smoothing[k]
                        let before = s2
                        s1 += alpha * (s - s1)
                        s2 += alpha * (s1 - s2)
                        jerks[k] = (s2 - before) / dt
                    } else {
                        s1 = s; s2 = s
                    }
                }
                smooth1 = s1; smooth2 = s2

                // (2b) `trackSign`'s moments and flip, and the signed surge. Nothing in (2a)
                // depends on the sign: `(s2 − before) / dt · sign` is the jerk before the sign
                // times the sign.
                // The moments E[j²], E[j³] as one SIMD2.
                var mJ = moments
                var sgn = sign, since = settledAt
                let flipBelow = -configuration.signFlipConfidence
                // A flip needs the jerk's skew E[j³] / E[j²]^1.5 < flipBelow (negative), i.e.
                // E[j³] < 0 and E[j³]² > flipBelow² · E[j²]³: squares and cubes, no square root,
                // no division. The 1 % margin covers their rounding and that of the exact
                // statistic many times over; the range checks keep the cubes from underflowing or
                // overflowing. When the bound does not rule a flip out, the statistic is computed
                // exactly as `trackSign` does.
                let bound = (0.99 * flipBelow) * (0.99 * flipBelow)
                for k in 0..<n {
                    let s = projected[k]
                    if intervals[k] > 0 && movingAt[k] != 0 {
                        let j = jerks[k] * sgn
                        let beta = momentWeights[k]
                        let jj = j * j
                        mJ += beta * (SIMD2(jj, jj * j) - mJ)
                        let m2 = mJ.x, m3 = mJ.y
                        if times[k] - since > 30, m2 > 0 {
                            let ruledOut = m3 >= 0 || (m2 > 1e-30 && m2 < 1e30 && m3 > -1e45 && m3 * m3 <= bound * (m2 * m2 * m2))
                            if !ruledOut {
                                let statistic = m3 / (m2 * m2.squareRoot())
                                if statistic < flipBelow {
                                    sgn = -sgn
                                    mJ = .zero
                                    since = times[k]
                                }
                            }
                        }
                    }
                    values[k] = Float(sgn * s)
                }
                moments = mJ; sign = sgn; settledAt = since
                return i
            }
        }
        return taken
    }

    /// The per-interval constants: (gravity α, axis α, smoothing α, moment α).
    @inline(__always)
    private static func constants(_ dt: Seconds, _ configuration: MountingEstimatorConfiguration) -> SIMD4<Double> {
        SIMD4(min(1, dt / configuration.gravityTimeConstant), min(1, dt / configuration.axisTimeConstant),
              1 - exp(-dt / 0.03), min(1, dt / 30))
    }

    /// The block path's table of per-interval constants: 64 entries of 8 (dt, the four constants,
    /// unused), found by a multiplicative hash of all the interval's bits.
    private static let constantsEntries = 64
    @inline(__always)
    private static func constantsSlot(_ dt: Seconds) -> Int {
        8 * Int(truncatingIfNeeded: (dt.bitPattern &* 0x9E37_79B9_7F4A_7C15) >> 58)
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
        let c = Self.constants(dt, configuration)
        gravityAlpha = c.x
        axisAlpha = c.y
        smoothingAlpha = c.z
        momentAlpha = c.w
        intervalCache[slot] = SIMD4(dt, gravityAlpha, axisAlpha, 0)
        intervalCache[slot + 1] = SIMD4(smoothingAlpha, momentAlpha, 0, 0)
    }

    /// The samples that arrived while settling (from just before the motion began, at least `settlingWindow` before settling, as far as the history holds), projected
    /// with the settled mounting, oldest first — without the sample that settled it, which
    /// `surge(of:)` has just returned. Available once, right after `surge(of:)` first returns a
    /// value; later calls give nothing.
    public mutating func drainSettlingHistory(_ body: (Seconds, MetresPerSecondSquared) -> Void) {
        guard replayAvailable, let u = axis else { return }
        replayAvailable = false
        let g = gravityEstimate
        let end = history.count - 1
        var n = history.firstIndex(atOrAfter: min(replayFrom, settledAt - configuration.settlingWindow))
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

    /// The covariance matrix (its diagonal and off-diagonal: xy, xz, yz), normalised by the
    /// weight (a division by 1, i.e. none, once a sample has been seen).
    private var normalizedCovariance: (diagonal: SIMD3<Double>, offDiagonal: SIMD3<Double>) {
        let w = weight > 0 ? weight : 1
        return w == 1 ? (diagonal, offDiagonal) : (diagonal / w, offDiagonal / w)
    }

    @inline(__always)
    private static func covariance(_ c: (diagonal: SIMD3<Double>, offDiagonal: SIMD3<Double>), times v: SIMD3<Double>) -> SIMD3<Double> {
        let dg = c.diagonal, od = c.offDiagonal
        return SIMD3(dg.x * v.x + od.x * v.y + od.y * v.z,
                     od.x * v.x + dg.y * v.y + od.z * v.z,
                     od.y * v.x + od.z * v.y + dg.z * v.z)
    }

    private func covariance(times v: SIMD3<Double>) -> SIMD3<Double> { Self.covariance(normalizedCovariance, times: v) }

    private func variance(along v: SIMD3<Double>) -> Double { (covariance(times: v) * v).sum() }

    /// Principal axis of the horizontal covariance by power iteration, continuous with `start`.
    private func principalHorizontalAxis(start: SIMD3<Double>?, iterations: Int) -> SIMD3<Double> {
        let g = unitGravity
        let c = normalizedCovariance  // the same for every iteration: normalised once
        func covariance(times v: SIMD3<Double>) -> SIMD3<Double> { Self.covariance(c, times: v) }
        func variance(along v: SIMD3<Double>) -> Double { (covariance(times: v) * v).sum() }
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
            moving = variance(along: candidate) >= minimum * minimum
            if axis == nil || moving { axis = candidate }
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
            let since = max(now - configuration.settlingWindow, start - 2)
            guard let bow = Self.bowSign(jerkSkew: asymmetry(along: u, since: since),
                                         riseOverFall: riseOverFall(along: u, since: since),
                                         confidence: configuration.signConfidence) else { return }
            sign = bow
            replayFrom = min(now - configuration.settlingWindow, start - 2)

        }
        settled = true
        moving = true
        settledAt = now
        replayAvailable = true
        moments = .zero
    }

    /// The skewness of the jerk of the history projected on `u` (positive: `u` points to the bow).
    private func asymmetry(along u: SIMD3<Double>, since: Seconds) -> Double {
        let g = gravityEstimate
        let first = history.firstIndex(atOrAfter: since)
        guard history.count - first > 8 else { return 0 }
        var jerk = SIMD3<Double>.zero  // Σj², Σj³, n
        var s1 = ((history.vector(first) - g) * u).sum(), s2 = s1
        var previousTime = history.time(first)
        for n in first..<history.count {
            let s = ((history.vector(n) - g) * u).sum()
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
    /// catch into the drive is the stroke's largest change, in every boat). `nil` with too little.
    private func riseOverFall(along u: SIMD3<Double>, since: Seconds) -> Double? {
        let g = gravityEstimate
        let first = history.firstIndex(atOrAfter: since)
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

    /// Follows the asymmetry after settling; flips the sign only on clear, lasting evidence.
    private mutating func trackSign(_ s: Double, dt: Double, now: Seconds) {
        guard dt > 0 else { smooth1 = s; smooth2 = s; return }
        let alpha = smoothingAlpha
        let before = smooth2
        smooth1 += alpha * (s - smooth1)
        smooth2 += alpha * (smooth1 - smooth2)
        guard moving else { return }
        let j = (smooth2 - before) / dt * sign
        let beta = momentAlpha
        moments += beta * (SIMD2(j * j, j * j * j) - moments)
        guard now - settledAt > 30, moments.x > 0 else { return }
        let statistic = moments.y / (moments.x * moments.x.squareRoot())
        if statistic < -configuration.signFlipConfidence {
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
