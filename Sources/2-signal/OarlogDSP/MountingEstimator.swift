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
///
/// The type is in several files: the state and the per-sample path here, the arithmetic both
/// paths share (`MountingStep`), the block path (`MountingEstimator+Runs`), the axis
/// (`MountingEstimator+Axis`) and the bow's sign at settling (`MountingEstimator+BowSign`).
public struct MountingEstimator: Sendable {
    public let configuration: MountingEstimatorConfiguration

    var count = 0
    var firstTime: Seconds = 0
    var lastTime: Seconds = 0
    var gravitySum = SIMD3<Double>.zero
    var gravityFilter = MountingGravity()
    var motionCovariance = MotionCovariance()
    var weight: Double = 0
    var axis: SIMD3<Double>? = nil        // continuous principal axis (sign not applied)
    var settled = false
    var lastAxisUpdate: Seconds = -.infinity
    var motionStart: Seconds? = nil
    var history: MountingHistory
    var replayAvailable = false
    /// The replay after settling starts here (or `settlingWindow` before settling, if earlier):
    /// from just before the motion began, as far as the history holds.
    var replayFrom: Seconds = .infinity
    /// The sign, and its evidence after settling (`since`: when it settled or last flipped).
    var bow = BowSignEvidence()
    /// Whether the boat was moving at the last axis update (the sign's evidence is only taken then:
    /// a rest's sensor noise says nothing of the bow, and must not outweigh the strokes before it
    /// when the crew restarts).
    var moving = true
    var intervalConstants = MountingIntervalConstants()
    let estimatesAxis: Bool               // configuration.axis is .estimated
    /// The fused speed's surge: its slow gravity and frozen axis (`FusedSurgeFrame`), the
    /// cosine of its refreeze angle, and the latest sample's.
    var fusedFrame = FusedSurgeFrame()
    let fusedCosRefreeze: Double
    var latestFusedSurge: Float = .nan
    /// The block path's scratch: rows of `runLength` (see `MountingRunRows`).
    var runScratch = [Double](repeating: 0, count: MountingRunRows.count * MountingEstimator.runLength)

    public init(configuration: MountingEstimatorConfiguration = .init()) {
        self.configuration = configuration
        history = MountingHistory(capacity: configuration.historyCapacity)
        if case .estimated = configuration.axis { estimatesAxis = true } else { estimatesAxis = false }
        fusedCosRefreeze = Self.cosRefreeze(configuration)
    }

    /// Current gravity estimate in sensor axes (m/s²), `nil` before the first sample.
    public var gravity: SIMD3<Double>? { count > 0 ? gravityEstimate : nil }
    /// Unit vector in sensor axes pointing to the bow (positive surge = boat speeding up),
    /// `nil` while settling.
    public var surgeAxis: SIMD3<Double>? { settled ? axis.map { $0 * bow.sign } : nil }
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

    var gravityEstimate: SIMD3<Double> {
        get { gravityFilter.vector }
        set { gravityFilter.vector = newValue }
    }

    /// Feeds one raw sample; returns its surge component (m/s², gravity removed, positive = boat
    /// speeding up), or `nil` while the estimate is still settling.
    public mutating func surge(of sample: AccelSample) -> MetresPerSecondSquared? {
        let aXY = SIMD2<Double>(SIMD2<Float>(sample.x, sample.y)), aZ = Double(sample.z)
        guard aXY.x.isFinite, aXY.y.isFinite, aZ.isFinite else { return nil }
        let t = sample.time
        let dt = count == 0 ? 0 : max(0, t - lastTime)
        if count == 0 { firstTime = t }
        count += 1
        lastTime = t
        let sinceStart = t - firstTime
        let constants = intervalConstants.constants(for: dt, configuration)
        var refrozen = false
        let d: (xy: SIMD2<Double>, z: Double)
        if sinceStart < configuration.gravitySettlingTime || count < 3 {
            gravitySum += SIMD3(aXY.x, aXY.y, aZ)
            gravityEstimate = gravitySum / Double(count)
            d = (aXY - gravityFilter.xy, aZ - gravityFilter.z)
        } else {
            d = gravityFilter.follow(aXY, aZ, alpha: constants.x)
        }
        let alpha = weight == 0 ? 1 : constants.y
        weight += alpha * (1 - weight)
        motionCovariance.take(d.xy, d.z, alpha: alpha)

        if !settled {
            history.append(time: t, vector: SIMD3<Float>(sample.x, sample.y, sample.z))
            if sinceStart >= configuration.gravitySettlingTime && t - lastAxisUpdate >= configuration.axisUpdateInterval {
                lastAxisUpdate = t
                trySettle(now: t)
            }
            guard settled else { return nil }
        } else if t - lastAxisUpdate >= configuration.axisUpdateInterval {
            lastAxisUpdate = t
            updateAxis()
            refrozen = followFusedAxis(now: t)
        }
        guard let u = axis else { return nil }
        let s = MotionCovariance.project(d.xy, d.z, on: SIMD2(u.x, u.y), u.z)
        if estimatesAxis {
            let jerk = bow.smoothedJerk(s, dt: dt, alpha: constants.z)
            if dt > 0 && moving { bow.take(jerk: jerk, beta: constants.w, now: t, flipBelow: -configuration.signFlipConfidence) }
        }
        let fs = refrozen ? .nan : fusedFrame.project(aXY, aZ)
        latestFusedSurge = Float(bow.sign * fs)
        return Float(bow.sign * s)
    }

    /// The samples that arrived while settling (from just before the motion began, at least
    /// `settlingWindow` before settling, as far as the history holds), projected with the
    /// settled mounting, oldest first — without the sample that settled it, which
    /// `surge(of:)` has just returned. Available once, right after `surge(of:)` first returns a
    /// value; later calls give nothing.
    public mutating func drainSettlingHistory(_ body: (Seconds, MetresPerSecondSquared) -> Void) {
        guard replayAvailable, let u = axis else { return }
        replayAvailable = false
        let g = gravityEstimate
        let end = history.count - 1
        var n = history.firstIndex(atOrAfter: min(replayFrom, bow.since - configuration.settlingWindow))
        while n < end {
            body(history.time(n), Float(bow.sign * ((history.vector(n) - g) * u).sum()))
            n += 1
        }
        history.removeAll()
    }

    /// Whether `drainSettlingHistory` has samples to give (just after settling).
    public var hasSettlingHistory: Bool { replayAvailable }
}

@inline(__always)
private func simd_cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}
