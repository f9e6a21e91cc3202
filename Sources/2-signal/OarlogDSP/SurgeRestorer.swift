import OarlogCore

/// The boat's surge acceleration as it was before the mounting estimator's gravity tracking.
///
/// `MountingEstimator` takes gravity as a low-pass of the raw vector (time constant τ,
/// `MountingEstimatorConfiguration.gravityTimeConstant`, 5 s), which follows the boat's own
/// acceleration a little: the surge it gives is the boat's surge through a first-order high-pass
/// at 1/(2πτ). At stroke rates that barely changes its size (0.3 %) but turns the stroke's
/// fundamental by 4–5° (18–24 spm) against its harmonics, which makes the catch dip 6–8 %
/// shallower. The inverse of that high-pass is the surge plus its integral over τ; here the
/// integral leaks away over τ too, so that a constant error (a bias, the estimator's start, a
/// boat speeding up) cannot stay: the whole, estimator and restorer, is τs(τs + 2)/(τs + 1)²,
/// flat to 0.6 % with no turn from 24 spm up (3 % at 10 spm), and still 0 for a constant surge.
public struct SurgeRestorer: Sendable {
    /// The mounting estimator's gravity time constant τ (0: the surge is passed on unchanged).
    public let gravityTimeConstant: Seconds
    private let rate: Double            // 1 / τ (0: off)
    private var integral = 0.0          // ∫ surge dt, leaking, m/s
    private var lastTime: Seconds = -.infinity

    public init(gravityTimeConstant: Seconds = MountingEstimatorConfiguration().gravityTimeConstant) {
        self.gravityTimeConstant = gravityTimeConstant
        rate = gravityTimeConstant > 0 ? 1 / gravityTimeConstant : 0
    }

    /// Starts again (after a gap in the samples).
    public mutating func reset() {
        integral = 0
        lastTime = -.infinity
    }

    /// The restored surge of a sample (times in order), m/s².
    @inline(__always)
    public mutating func restore(time: Seconds, surge: Double) -> Double {
        if rate == 0 { return surge }
        let dt = time - lastTime       // +∞ for the first sample
        if dt > 0, dt.isFinite {
            // One multiply and one add on the chain from sample to sample.
            integral = integral * max(0, 1 - dt * rate) + surge * dt
        }
        lastTime = time
        return surge + integral * rate
    }
}
