import OarlogCore

/// What a coxswain display shows right now. `nil` = unknown or not applicable (stopped, no GPS).
public struct LiveFigures: Sendable, Equatable {
    public var time: Seconds
    /// Time since the first record.
    public var elapsed: Seconds
    /// Session distance so far (final up to `DistanceAccumulator.settledTime`).
    public var distance: Metres
    /// Averaged boat speed (receiver speed, or from positions when the receiver gives none).
    public var speed: MetresPerSecond?
    /// Live split, averaged as configured; `nil` when stopped.
    public var split: SecondsPer500m?
    /// Smoothed stroke rate of the newest stroke completed (from a catch, the stroke that catch
    /// finished); `nil` when no stroke within a pause length, and from the catch that ends a pause
    /// until the first stroke after it is done.
    public var strokeRate: StrokesPerMinute?
    public var strokes: Int
    public init(time: Seconds, elapsed: Seconds, distance: Metres, speed: MetresPerSecond?,
                split: SecondsPer500m?, strokeRate: StrokesPerMinute?, strokes: Int) {
        self.time = time
        self.elapsed = elapsed
        self.distance = distance
        self.speed = speed
        self.split = split
        self.strokeRate = strokeRate
        self.strokes = strokes
    }
}
