/// One stroke as the detector found it in the boat's surge acceleration.
///
/// `catchTime` is the start of the drive (the catch); a stroke's period is catch to next catch.
/// The detector emits the event once the stroke's drive has been recognised; `recoveryDuration`
/// is the time from the end of the drive (the finish) to the next catch, and so is only known
/// when the next stroke begins — it is `nil` until then (and for the last stroke of a piece).
public struct StrokeEvent: Sendable, Equatable {
    /// 1-based index of the stroke in the session.
    public var index: Int
    public var catchTime: Seconds
    public var driveDuration: Seconds
    public var recoveryDuration: Seconds?
    /// Peak surge acceleration during the drive, m/s² (gravity removed).
    public var peakAcceleration: MetresPerSecondSquared
    /// Stroke rate from this stroke's catch to the previous catch, if there was one close enough
    /// (a first stroke after a pause has no rate).
    public var strokeRate: StrokesPerMinute?
    /// How final the event is (a detector set to announce catches sends a stroke twice).
    public var stage: Stage

    public enum Stage: Sendable, Equatable {
        /// Announced at its catch, while the drive is still on: its drive duration and peak are 0
        /// until the same index comes again `.complete`.
        case caught
        /// Everything the detector will know of it.
        case complete
        /// A catch announced that turned out to be no stroke (its index is free again).
        case withdrawn
    }

    public init(index: Int, catchTime: Seconds, driveDuration: Seconds, recoveryDuration: Seconds?,
                peakAcceleration: MetresPerSecondSquared, strokeRate: StrokesPerMinute?, stage: Stage = .complete) {
        self.index = index
        self.catchTime = catchTime
        self.driveDuration = driveDuration
        self.recoveryDuration = recoveryDuration
        self.peakAcceleration = peakAcceleration
        self.strokeRate = strokeRate
        self.stage = stage
    }
}

/// Everything known about one completed stroke once GPS is combined with it: what a coxswain's
/// per-stroke table shows. `nil` means "no data" (no GPS, or the first stroke).
public struct StrokeMetrics: Sendable, Equatable {
    public var stroke: StrokeEvent
    /// Smoothed stroke rate at this stroke.
    public var smoothedRate: StrokesPerMinute?
    /// Split from the distance covered during this stroke (catch to next catch).
    public var split: SecondsPer500m?
    /// Distance covered during this stroke (distance per stroke).
    public var distancePerStroke: Metres?
    /// Cumulative session distance at this stroke's catch.
    public var distance: Metres?

    public init(stroke: StrokeEvent, smoothedRate: StrokesPerMinute? = nil, split: SecondsPer500m? = nil,
                distancePerStroke: Metres? = nil, distance: Metres? = nil) {
        self.stroke = stroke
        self.smoothedRate = smoothedRate
        self.split = split
        self.distancePerStroke = distancePerStroke
        self.distance = distance
    }
}
