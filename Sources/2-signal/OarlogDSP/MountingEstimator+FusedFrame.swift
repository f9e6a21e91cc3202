#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OarlogCore

/// The fused speed's own surge (`FusedSpeedFilter`), projected beside the stroke detector's.
///
/// The stroke detector's surge takes gravity as a 5 s low-pass of the raw vector and the surge
/// axis perpendicular to it, both following the boat: right for finding a catch, but integrated
/// over 5–10 strokes that surge wanders by ±0.03–0.05 m/s (the 5 s gravity leans with the boat's
/// own mean acceleration over the last seconds, 0.05 m/s² of surge leans it 0.3°, and the axis
/// tilts with it), which a filter's bias state cannot follow (docs/SPEED.md). The fused speed's
/// surge holds gravity still instead:
/// - **gravity** the estimator's when it settled, frozen; taken again only when the estimator's
///   has turned more than `fusedRefreezeAngle` from it (the sensor moved in the boat);
/// - **the axis** the estimator's, made perpendicular to that gravity at each of the
///   estimator's axis updates (its turning in the horizontal plane, a degree or two with the
///   crew's rhythm, changes the surge by a few parts in 10,000), or frozen `fusedAxisDelay`
///   after settling (`fusedAxisFollows` off).
///
/// Whatever tilt is left between that axis and the true horizontal (the frozen gravity's own
/// error, the boat's trim) is a constant part of the surge, which the fused speed's bias state
/// takes. Before the axis is known the fused surge is NaN (the filter holds the GPS's speed); at
/// the sample that takes gravity again it is NaN once, which tells the filter its bias starts
/// again. Both paths (`surge(of:)` and the block path) do the same arithmetic at the same
/// samples: gravity and the axis change only at the estimator's own axis updates, and each
/// sample's surge is its raw vector less the frozen gravity, projected.
struct FusedSurgeFrame: Sendable {
    /// The frozen gravity, x and y and z apart (`MountingGravity`'s layout).
    var gravity = MountingGravity()
    /// Its unit vector.
    var gravityUnit = SIMD3<Double>(0, 0, 1)
    /// The axis (unsigned, as `MountingEstimator.axis`), x and y and z apart; NaN before it is
    /// known (the projection is then NaN).
    var axisXY = SIMD2<Double>(.nan, .nan)
    var axisZ = Double.nan
    /// When gravity was last frozen.
    var frozenAt: Seconds = .infinity
    /// Times gravity was frozen again after the first.
    var refreezes = 0

    var isFrozen: Bool { !axisZ.isNaN }
    var axis: SIMD3<Double> { SIMD3(axisXY.x, axisXY.y, axisZ) }

    /// Freezes gravity at the estimator's `estimate` at `now` (it settled, or the sensor moved).
    mutating func freeze(gravity estimate: MountingGravity, now: Seconds) {
        gravity = estimate
        let g = estimate.vector, n = (g * g).sum().squareRoot()
        gravityUnit = n > 0 ? g / n : SIMD3(0, 0, 1)
        frozenAt = now
        axisXY = SIMD2(.nan, .nan)
        axisZ = .nan
    }

    /// At one of the estimator's axis updates (`now`), with its axis `u` and gravity `g`:
    /// freezes gravity again if `g` has turned more than the angle whose cosine is
    /// `cosRefreeze`, then takes the axis (`follows`: `u` made perpendicular to the frozen
    /// gravity; else `u` as it is `delay` after gravity was frozen, once). Returns whether
    /// gravity was frozen again.
    @inline(__always)
    mutating func follow(axis u: SIMD3<Double>?, gravity g: MountingGravity, now: Seconds,
                         follows: Bool, delay: Seconds, cosRefreeze: Double) -> Bool {
        guard let u, frozenAt.isFinite else { return false }
        let v = g.vector, n = (v * v).sum().squareRoot()
        var refrozen = false
        if n > 0, (v * gravityUnit).sum() < cosRefreeze * n {
            freeze(gravity: g, now: now)
            refreezes += 1
            refrozen = true
        }
        if follows {
            let h = u - (u * gravityUnit).sum() * gravityUnit, m = (h * h).sum().squareRoot()
            guard m > 1e-9 else { return refrozen }
            axisXY = SIMD2(h.x, h.y) / m
            axisZ = h.z / m
        } else if !isFrozen, now - frozenAt >= delay {
            axisXY = SIMD2(u.x, u.y)
            axisZ = u.z
        }
        return refrozen
    }

    /// A sample's fused surge before the sign: its raw vector less the frozen gravity, on the axis.
    @inline(__always)
    func project(_ aXY: SIMD2<Double>, _ aZ: Double) -> Double {
        MotionCovariance.project(aXY - gravity.xy, aZ - gravity.z, on: axisXY, axisZ)
    }
}

extension MountingEstimator {
    /// The fused speed's surge of the latest sample `surge(of:)` returned a surge for (m/s²,
    /// positive = boat speeding up; NaN before its axis is known, and at the sample that froze
    /// gravity again).
    public var fusedSurge: Float { latestFusedSurge }

    /// The fused surge's axis (unsigned) once known, and the times gravity was frozen again
    /// (the sensor moved).
    public var fusedSurgeAxis: (axis: SIMD3<Double>, refreezes: Int)? {
        fusedFrame.isFrozen ? (fusedFrame.axis, fusedFrame.refreezes) : nil
    }

    /// The cosine of `configuration.fusedRefreezeAngle`.
    static func cosRefreeze(_ configuration: MountingEstimatorConfiguration) -> Double {
        cos(configuration.fusedRefreezeAngle * .pi / 180)
    }

    /// The fused frame at one of the estimator's axis updates (`now`, the estimator's gravity as
    /// at that sample); whether gravity was frozen again.
    @inline(__always)
    mutating func followFusedAxis(now: Seconds) -> Bool {
        fusedFrame.follow(axis: axis, gravity: gravityFilter, now: now, follows: configuration.fusedAxisFollows,
                          delay: configuration.fusedAxisDelay, cosRefreeze: fusedCosRefreeze)
    }
}
