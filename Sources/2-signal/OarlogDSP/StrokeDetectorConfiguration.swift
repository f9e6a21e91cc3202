import OarlogCore

/// Tuning of the stroke detector. The defaults suit sculling and sweep boats from 14 to 45 spm,
/// at accelerometer rates from 25 Hz to 1 kHz, from light paddling to racing pressure.
public struct StrokeDetectorConfiguration: Sendable, Equatable {
    /// Slowest stroke rate: a longer catch-to-catch period is a pause, so the next stroke gets no
    /// rate. Default 12 spm.
    public var minimumRate: StrokesPerMinute = 12
    /// Fastest stroke rate: sets the shortest time between two strokes (the refractory period is
    /// at least 80 % of its period). Default 50 spm.
    public var maximumRate: StrokesPerMinute = 50
    /// The input is averaged over blocks of an integer number of samples down to no less than
    /// this rate before filtering (cheap, and the stroke band is far below it). Default 25 Hz.
    public var internalRate: Hertz = 25
    /// Detection band-pass, low edge (removes the residual gravity/tilt offset). Default 0.1 Hz.
    public var bandLow: Hertz = 0.1
    /// Detection band-pass, high edge (keeps the stroke's fundamental and second harmonic up to
    /// 45 spm). Default 2 Hz.
    public var bandHigh: Hertz = 2
    /// The smallest drive recognised: the band-passed surge must rise above this (m/s²) however
    /// quiet the recent strokes were, so a boat sitting still or gliding to a stop does not
    /// trigger. Default 0.45 m/s² (a real phone trace: drives 1.6–3.2 m/s², the wobble after
    /// the crew stopped 0.27 m/s²).
    public var minimumDriveAmplitude: MetresPerSecondSquared = 0.45
    /// The band-passed surge must rise above this fraction of the recent drive amplitude (and
    /// fall below this fraction of the recent recovery amplitude before the next stroke).
    /// Default 0.35.
    public var thresholdFraction: Float = 0.35
    /// How the remembered stroke amplitude fades once strokes stop (so easy paddling after hard
    /// work is recognised). Time constant, default 2 s.
    public var amplitudeDecayTime: Seconds = 2
    /// A time step longer than this (or than 5 sample intervals, whichever is longer) is a gap in
    /// the data: the detector resets rather than bridging it. Default 0.25 s.
    public var gapThreshold: Seconds = 0.25
    /// The catch (the minimum of the catch dip) is searched at most this far before the moment
    /// the drive is recognised. Default 1.2 s (and at most half the recent stroke period).
    public var catchSearchWindow: Seconds = 1.2
    /// A drive recognised sooner than this fraction of the recent stroke period after the last
    /// catch, and weaker than `plausibleDriveFraction` of the last drive, is a bump in the
    /// recovery, not a stroke. Defaults 0.7 and 0.5.
    public var plausiblePeriodFraction: Double = 0.7
    public var plausibleDriveFraction: Float = 0.5
    /// The rhythm assumed for that test right after a restart, before a period is known.
    /// Default 30 spm (a racing start's second stroke comes sooner, and harder).
    public var restartRate: StrokesPerMinute = 30
    /// Announce each stroke at its catch (a `.caught` event as soon as the rise out of the catch
    /// shows, about 0.1 s after it) before the `.complete` one at the end of its drive. Default
    /// off; the analyzer turns it on for the display.
    public var announcesCatches = false
    /// A catch is announced once the surge (averaged to the internal rate) has risen this
    /// fraction of the recent strokes' dip-to-peak range above the dip, from a dip this fraction
    /// of it below the mean. Defaults 0.45 and 0.25.
    public var catchRiseFraction: Float = 0.35
    public var catchDipFraction: Float = 0.25

    public init() {}
}
