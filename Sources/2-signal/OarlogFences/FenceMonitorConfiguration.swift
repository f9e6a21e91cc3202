import OarlogCore

/// Tuning of the fence monitor. The defaults suit a rowing boat with a 1–10 Hz GPS.
public struct FenceMonitorConfiguration: Sendable, Equatable {
    /// Area margin beyond the fix's error estimate for fences that give no `hysteresis_m`.
    public var hysteresis: Metres = 2
    /// Error estimate assumed for a fix that gives none (metres, like a receiver's ~95 % radius).
    public var assumedAccuracy: Metres = 5
    /// Gates: how far beyond the line (metres) a fix must be for the boat to count as on that
    /// side, for gates that give no `hysteresis_m`. Larger than the fix-to-fix jitter.
    public var gateHysteresis: Metres = 2
    /// Fixes whose error estimate is larger than this are not used at all (counted as unusable).
    public var maximumAccuracy: Metres = 50
    /// An area change becomes final only after the boat has been clearly on the new side for
    /// this long with no clear fix on the old side in between.
    public var confirmationTime: Seconds = 3
    /// A pair of fixes further apart in time is not used to time a crossing (rejected, counted).
    public var maximumFixGap: Seconds = 10
    /// A pair of fixes implying a faster speed is a GPS jump (rejected, counted). Rowing boats
    /// stay under 7 m/s.
    public var maximumSpeed: MetresPerSecond = 12
    /// A course leg's result waits this long after its end for late strokes (the stroke detector
    /// reports a stroke once the next catch and GPS cover it).
    public var strokeLatency: Seconds = 12

    public init() {}
}
