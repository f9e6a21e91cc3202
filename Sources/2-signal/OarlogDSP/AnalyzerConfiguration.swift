import OarlogCore

/// Tuning of the whole analyzer. Defaults suit rowing in any boat class.
public struct AnalyzerConfiguration: Sendable, Equatable {
    /// Where strokes come from.
    public enum StrokeSource: Sendable, Equatable {
        /// The accelerometer when the trace has one; otherwise the device's `.reference` strokes
        /// (GPS-only exports from a SpeedCoach or NK LiNK). Reference strokes are used only until
        /// the first accelerometer sample is seen.
        case automatic
        /// Only strokes our detector finds in the accelerometer.
        case accelerometer
        /// Only the reference strokes' times.
        case reference
    }
    public var strokeSource: StrokeSource = .automatic
    /// How the sensor's surge axis is found (estimated, or a configured axis such as `+x`).
    public var mounting = MountingEstimatorConfiguration()
    /// Stroke detector tuning.
    public var strokeDetection = StrokeDetectorConfiguration()
    public var distance = DistanceConfiguration()
    /// Where the live split and each stroke's mean speed come from.
    public enum SplitSource: Sendable, Equatable {
        /// The fused speed (`FusedSpeedFilter`: the accelerometer's surge held to the GPS),
        /// averaged as `fusedSplitAveraging` says; the receiver's while the accelerometer does
        /// not drive it (no accelerometer, the mounting settling, just after a gap).
        case fused
        /// The receiver's speed alone, averaged as `splitAveraging` says (as a SpeedCoach shows it).
        case receiver
    }
    public var splitSource: SplitSource = .fused
    /// Live split averaging of the receiver's speed (SpeedCoach-like): default the mean speed over 5 s.
    public var splitAveraging: SplitAveraging = .seconds(5)
    /// Live split averaging of the fused speed: default over the last complete stroke.
    public var fusedSplitAveraging: SplitAveraging = .strokes(1)
    /// The fused speed's noise figures.
    public var fusedSpeedNoise = FusedSpeedFilter.Noise()
    /// Interval between `.speed` events (the fused speed), s; 0 = no speed events.
    public var speedInterval: Seconds = 0.1
    /// Below this speed there is no split (the boat is stopped): 500 / 0.5 = 16:40 per 500 m.
    public var stoppedSpeed: MetresPerSecond = 0.5
    /// A catch-to-catch span longer than this (slower than 8 spm) is a pause, not a stroke: such a
    /// stroke gets no rate, split or distance per stroke.
    public var maximumStrokePeriod: Seconds = 7.5
    /// A catch-to-catch span shorter than this (faster than 50 spm) is a glitch (a doubled stroke
    /// record, a detector double-trigger), not a stroke rate: the stroke gets no rate.
    public var minimumStrokePeriod: Seconds = 1.2
    /// Strokes averaged for the smoothed stroke rate.
    public var rateSmoothingStrokes: Int = 4
    /// Interval between `.live` events; 0 = no live events.
    public var liveInterval: Seconds = 0.5
    /// A completed stroke waits for GPS to cover its next catch at most this long beyond the
    /// coarse-position smoothing lag, then is emitted with what is known.
    public var maximumWaitForGPS: Seconds = 5
    public init() {}
}
