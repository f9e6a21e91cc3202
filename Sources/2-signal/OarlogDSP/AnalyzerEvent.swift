import OarlogCore

/// What the analyzer reports as it goes.
public enum AnalyzerEvent: Sendable, Equatable {
    /// A stroke at its catch, as soon as the catch is found: its index, catch time, rate (from
    /// the previous catch) and the smoothed rate it brings (`stroke.stage` is `.caught`; drive,
    /// recovery, split and distance are not known yet). Every stroke comes first this way; the
    /// same index then comes as `.stroke` (the update with everything) or `.withdrawn`.
    case caught(StrokeMetrics)
    /// A catch announced as `.caught` that was no stroke after all (no drive followed): its
    /// index is free again and will be used by the next stroke.
    case withdrawn(StrokeEvent)
    /// A completed stroke with its GPS-derived figures (emitted once the next catch is known and
    /// GPS covers it, or at finish): the update of the stroke announced by `.caught`.
    case stroke(StrokeMetrics)
    /// Current figures for a coxswain display, at most every `AnalyzerConfiguration.liveInterval`.
    case live(LiveFigures)
    /// The boat's fused speed (the accelerometer's surge integrated and held to the GPS by
    /// `FusedSpeedFilter`), decimated to at most every `AnalyzerConfiguration.speedInterval`:
    /// for the recorder, the session's plots and the exports. Live, forward-only.
    case speed(BoatSpeedSample)
}

/// One value of the boat's fused speed.
public struct BoatSpeedSample: Sendable, Equatable {
    public var time: Seconds
    public var speed: MetresPerSecond
    public init(time: Seconds, speed: MetresPerSecond) {
        self.time = time
        self.speed = speed
    }
}
