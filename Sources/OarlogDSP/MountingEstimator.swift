import OarlogCore

/// Estimates gravity and the boat's surge axis from raw 3-axis samples of a sensor mounted at any
/// orientation, and projects each sample onto the surge axis.
/// STUB: the real estimator replaces this file.
public struct MountingEstimator: Sendable {
    public init() {}
    /// Feeds one raw sample and returns its surge component (m/s², gravity removed), or `nil`
    /// while the estimate is still settling.
    public mutating func surge(of sample: AccelSample) -> MetresPerSecondSquared? {
        nil
    }
}
