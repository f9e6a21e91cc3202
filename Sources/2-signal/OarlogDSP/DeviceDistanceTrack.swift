import OarlogCore

/// The distance a device measured itself (a SpeedCoach's impeller or GPS, CoxMate, a watch's
/// records), from its reference strokes' cumulative distances: the session's distance track when
/// the trace has no positions of its own. The analyzer joins strokes to it exactly as to the GPS
/// track (`DistanceHistory`); as soon as a fix is used, the GPS track is the session's again.
///
/// Moving time: the spans between two device figures at least `movingSpeed` apart in speed and at
/// most `longestStep` apart in time (a longer step is a pause, not rowing).
public struct DeviceDistanceTrack: Sendable {
    public private(set) var history: DistanceHistory
    /// The device's distance at its latest figure (0 before the first).
    public private(set) var distance: Metres = 0
    public private(set) var movingTime: Seconds = 0
    /// Figures taken (a figure not later, or shorter, than the one before is dropped).
    public private(set) var points = 0
    private var last: (time: Seconds, distance: Metres)?
    private let movingSpeed: MetresPerSecond
    private let longestStep: Seconds

    public init(capacity: Int = 1024, movingSpeed: MetresPerSecond = 0.5, longestStep: Seconds = 30) {
        history = DistanceHistory(capacity: capacity)
        self.movingSpeed = movingSpeed
        self.longestStep = longestStep
    }

    /// Takes the device's cumulative distance at `time`.
    public mutating func add(time: Seconds, distance d: Metres) {
        guard time.isFinite, d.isFinite, d >= 0 else { return }
        if let last {
            guard time > last.time, d >= last.distance else { return }
            let step = time - last.time
            if step <= longestStep, (d - last.distance) / step >= movingSpeed { movingTime += step }
        }
        points += 1
        // No receiver speed: each interval counts as one without it, so the mean-speed join falls
        // back to distance per stroke.
        history.append(.init(time: time, distance: d, speedIntegral: 0, intervalsWithoutSpeed: points))
        last = (time, d)
        distance = d
    }
}
