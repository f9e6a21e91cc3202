import OarlogCore

/// Tuning of the stroke detector. Defaults suit 14–45 spm at 25 Hz–1 kHz.
public struct StrokeDetectorConfiguration: Sendable, Equatable {
    public init() {}
}

/// Finds strokes in the boat's surge (fore-aft) acceleration, sample by sample.
/// STUB: the real detector replaces this file.
public struct StrokeDetector: Sendable {
    public var configuration: StrokeDetectorConfiguration
    public init(configuration: StrokeDetectorConfiguration = .init()) {
        self.configuration = configuration
    }
    /// Feeds one surge sample (m/s², gravity removed, positive = boat speeding up).
    /// Returns a stroke when one has been recognised.
    public mutating func process(time: Seconds, surge: MetresPerSecondSquared) -> StrokeEvent? {
        nil
    }
}
