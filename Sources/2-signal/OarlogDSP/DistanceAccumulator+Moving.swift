import OarlogCore

/// Whether the boat is still, moves off, or has moved over the last baseline: the decisions
/// the booking takes at each (smoothed) state of the track while stopped.
extension DistanceAccumulator {
    /// While stopped: whether the boat moves off at this fix. With the receiver's speed, when it
    /// reaches `movingSpeed`; with positions alone, when the filtered speed and the speed over the
    /// last `movingBaseline` do (jitter makes the filtered speed alone jumpy).
    func startsMoving(receiverSpeed: MetresPerSecond?, time: Seconds, filteredSpeed v: MetresPerSecond) -> Bool {
        let c = configuration
        if let s = receiverSpeed { return s >= c.movingSpeed }  // Doppler is reliable at once
        guard v >= c.movingSpeed else { return false }
        guard let baseline = baselineSpeed(at: time) else { return false }
        return baseline >= c.movingSpeed
    }

    /// While stopped: whether the boat is still at this fix. The receiver's speed says so when it
    /// has one (under `stillReceiverSpeed`); else the filtered speed, under `stillSpeed` at this
    /// fix and under `stationarySpeed` at the one before (a dip at the catch of a first stroke is
    /// not a rest).
    func isStill(receiverSpeed: MetresPerSecond?, filteredSpeed v: MetresPerSecond) -> Bool {
        if let s = receiverSpeed { return s < configuration.stillReceiverSpeed && v < configuration.stationarySpeed }
        return v < configuration.stillSpeed && previousSpeed < configuration.stationarySpeed
    }

    /// Speed of the filtered track over the last `movingBaseline` (straight line); `nil` while the
    /// kept track spans less than half of it.
    func baselineSpeed(at time: Seconds) -> MetresPerSecond? {
        guard let newest = recent.last, let oldest = recent.first else { return nil }
        let then = recentPoint(atOrBefore: time - configuration.movingBaseline) ?? oldest
        let span = newest.time - then.time
        guard span >= configuration.movingBaseline / 2 else { return nil }
        let de = newest.east - then.east, dn = newest.north - then.north
        return (de * de + dn * dn).squareRoot() / span
    }

    /// The newest kept track point at or before `time`.
    func recentPoint(atOrBefore time: Seconds) -> TrackPoint? {
        recent.lastIndex(atOrBefore: time) { $0.time }.map { recent[$0] }
    }
}
