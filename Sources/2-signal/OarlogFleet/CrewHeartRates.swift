import OarlogCore

/// The latest heart rate of each strap heard, for a display or a status message: at most
/// `FleetHeartRate.maximumSensors` straps are kept (a further one is counted and left out), and a
/// strap not heard for `freshness` seconds is not shown. Nothing grows with the session.
public struct CrewHeartRates: Sendable {
    public let freshness: Seconds
    private var latest: [(sensor: String?, bpm: BeatsPerMinute, time: Seconds)] = []
    /// Heart rates of straps beyond the ones kept.
    public private(set) var leftOut = 0

    public init(freshness: Seconds = 10) {
        self.freshness = freshness
        latest.reserveCapacity(FleetHeartRate.maximumSensors)
    }

    /// Takes a heart rate (an implausible or non-finite one is ignored).
    public mutating func add(_ sample: HeartRateSample) {
        guard sample.bpm.isFinite, sample.bpm >= 20, sample.bpm <= 250 else { return }
        if let k = latest.firstIndex(where: { $0.sensor == sample.sensor }) {
            latest[k] = (sample.sensor, sample.bpm, max(latest[k].time, sample.time))
        } else if latest.count < FleetHeartRate.maximumSensors {
            latest.append((sample.sensor, sample.bpm, sample.time))
        } else {
            leftOut += 1
        }
    }

    /// The straps heard within `freshness` of `time`, by seat name (an unnamed strap first).
    public func current(at time: Seconds) -> [FleetHeartRate] {
        latest.filter { time - $0.time <= freshness }
            .sorted { ($0.sensor ?? "") < ($1.sensor ?? "") }
            .map { FleetHeartRate(sensor: $0.sensor, bpm: $0.bpm) }
    }
}
