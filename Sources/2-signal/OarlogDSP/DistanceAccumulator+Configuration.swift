import OarlogCore

/// Tuning of the distance accumulator. Defaults suit any rowing boat and any consumer GNSS
/// receiver from 0.2 to 10 Hz.
public struct DistanceConfiguration: Sendable, Equatable {
    /// Glitch rejection by implied speed (fastest plausible speed and speed change, re-anchoring).
    public var jumps = GPSJumpFilter.Configuration()
    /// The Kalman filter that fuses positions with the receiver's speed.
    public var track = GPSTrackFilter.Configuration()
    /// The boat starts moving when its filtered speed and its speed over the last
    /// `movingBaseline` (the straight line from where it was then) both reach `movingSpeed`, m/s.
    /// A boat at rest drifts 0.1–0.3 m/s with the wind and the stream; rowing, even light
    /// paddling, is over 1. Over 20 s the position's jitter and wander make well under 0.5 m/s.
    public var movingSpeed: MetresPerSecond = 0.5
    public var movingBaseline: Seconds = 20
    /// A moving boat counts as stopped once its filtered speed has stayed under `stationarySpeed`
    /// for `stopAfter`; its progress along its heading in that slow spell counts (the glide).
    public var stationarySpeed: MetresPerSecond = 0.4
    public var stopAfter: Seconds = 10
    /// With the receiver's (Doppler) speed, at up to 2 Hz, the glide is measured as long as the
    /// smoothed speed stays over `glideSpeed` along the heading, for up to `glideStopAfter`: a
    /// boat gliding at 0.15–0.25 m/s is measurably moving with Doppler (with positions alone that
    /// is their jitter). On the simulated 1 km outing with one pause and a wander-free receiver,
    /// 1.7 m was lost at the pause, 1.0 m of it the glide under 0.25 m/s and after 10 s.
    public var glideSpeed: MetresPerSecond = 0.15
    public var glideStopAfter: Seconds = 15
    /// While stopped, the boat counts as still under this filtered speed; moving off counts from
    /// where it was last still, or from `maximumMoveOffCredit` before the start is recognised if
    /// it has not been still since (a boat drifting at 0.3 m/s is credited 3 m at most).
    public var stillSpeed: MetresPerSecond = 0.25
    public var stillReceiverSpeed: MetresPerSecond = 0.15
    public var maximumMoveOffCredit: Seconds = 10
    /// Position error per axis when the fix states none, metres (a consumer receiver in the open).
    public var defaultPositionSigma: Metres = 2
    /// Position error per axis as a fraction of the receiver's stated horizontal accuracy.
    public var accuracyToSigma: Double = 0.5
    /// A coarse source's rounding error per axis is one grid step / √12; it is correlated from fix
    /// to fix (the staircase), so it counts this many times over.
    public var gridSigmaFactor: Double = 1
    /// Smallest position error per axis believed, metres.
    public var minimumPositionSigma: Metres = 0.5
    /// Positions on a grid coarser than this (metres of latitude per step) are smoothed with a
    /// centred moving average of `coarseSmoothingWindow` before filtering. 15 s is about 60 m of
    /// rowing: five grid steps of a 4-decimal source, enough to average out its staircase while
    /// keeping the chord error on bends of 100 m radius near 1 %.
    public var coarseResolutionThreshold: Metres = 2
    public var coarseSmoothingWindow: Seconds = 15
    /// The Earth the distance is measured on. WGS 84 (the default) is the truth. NK devices
    /// (SpeedCoach, LiNK Logbook) measure on a sphere of the mean radius, which reads up to 0.3 %
    /// short at mid latitudes on an east–west course; `.sphere` gives their figure, for comparing
    /// like with like.
    public var earth: EarthModel = .wgs84
    public enum EarthModel: Sendable, Equatable {
        case wgs84
        /// A sphere of this radius, metres (6,371,008.8 for the mean radius).
        case sphere(radius: Metres)
    }
    /// Number of recent fixes kept for interpolating distance at catch times.
    public var historyCapacity: Int = 1024
    /// Whether the track is smoothed before its length is taken (`GPSTrackSmoother`): `.none`
    /// books each fix as it comes (live, and the default); replay and export set `replaySmoothing`
    /// (each fix waits for the fixes up to 20 s after it; distance settles that much later).
    public var smoothing: Smoothing = .none
    public init() {}
}

extension DistanceConfiguration {
    /// A receiver's speed a boat can have, even at the top of its surge: finite, not negative,
    /// at most twice the fastest plausible mean speed (`jumps.maximumSpeed`, 15 m/s by default).
    /// Beyond it a row is corrupt (a device export's 10⁶ m/s), and its speed is none.
    public func isPlausibleReceiverSpeed(_ v: MetresPerSecond) -> Bool {
        v.isFinite && v >= 0 && v <= 2 * jumps.maximumSpeed
    }

    /// The fix, without its speed when that is not plausible: the analyzer takes every fix
    /// through this before the fused speed, the receiver's split and the distance see it, and
    /// `DistanceAccumulator` too (the exporter feeds one fixes straight from the session).
    public func withPlausibleSpeed(_ fix: GPSFix) -> GPSFix {
        guard let v = fix.speed, !isPlausibleReceiverSpeed(v) else { return fix }
        var plausible = fix
        plausible.speed = nil
        return plausible
    }
}
