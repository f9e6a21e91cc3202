import OarlogCore

/// The recent course of the session distance over time, for figures at moments between fixes
/// (a catch falls between two fixes): cumulative distance, and the running integral of the
/// receiver's speed, at each processed fix. Bounded: the oldest points drop out.
public struct DistanceHistory: Sendable {
    struct Point: Sendable {
        var time: Seconds
        var distance: Metres
        /// ∫ receiver speed dt so far (trapezoid between fixes), metres.
        var speedIntegral: Metres
        /// How many fix intervals so far had no receiver speed at one end (their integral is unknown).
        var intervalsWithoutSpeed: Int
    }
    private var points: RingBuffer<Point>

    public init(capacity: Int = 1024) {
        points = RingBuffer(capacity: capacity, filler: Point(time: 0, distance: 0, speedIntegral: 0, intervalsWithoutSpeed: 0))
    }

    /// Time of the newest point: distance is known up to here.
    public var newestTime: Seconds? { points.last?.time }
    public var oldestTime: Seconds? { points.first?.time }

    mutating func append(_ p: Point) {
        if let last = points.last, p.time <= last.time {
            // Same instant again: keep the newer values.
            points[points.count - 1] = p
            return
        }
        points.append(p)
    }

    /// Adds `metres` to every distance held (distance counted before the first point, learnt late).
    mutating func shiftDistances(by metres: Metres) {
        for i in 0..<points.count { points[i].distance += metres }
    }

    /// Index of the last point at or before `time`, if `time` lies within the history.
    private func bracket(_ time: Seconds) -> Int? {
        guard let last = points.last, time <= last.time else { return nil }
        return points.lastIndex(atOrBefore: time) { $0.time }
    }

    /// Cumulative distance at `time`, interpolated linearly between the fixes around it; `nil`
    /// outside the stored history (before the first fix, or not yet known).
    public func distance(at time: Seconds) -> Metres? {
        guard let i = bracket(time) else { return nil }
        let a = points[i]
        guard i + 1 < points.count else { return a.distance }
        let b = points[i + 1]
        let u = (time - a.time) / (b.time - a.time)
        return a.distance + u * (b.distance - a.distance)
    }

    /// Cumulative distance at `time` as `distance(at:)`, and also before the first fix of a
    /// session (the history still holds its first point, at 0 m): nothing was booked before it,
    /// so the distance there is 0. A step that starts at the go, before GPS has answered, has a
    /// distance all the same.
    public func distanceFromStart(at time: Seconds) -> Metres? {
        if let d = distance(at: time) { return d }
        guard let first = points.first, time < first.time, first.distance == 0 else { return nil }
        return 0
    }

    /// Cumulative distance at the newest point.
    public var newestDistance: Metres? { points.last?.distance }

    /// The first moment at or after `start` when the cumulative distance reaches `distance`,
    /// interpolated linearly between the fixes around it; `nil` while it has not (yet). A distance
    /// piece ends here, not at the next fix or stroke.
    public func time(reaching distance: Metres, from start: Seconds) -> Seconds? {
        guard let last = points.last, last.distance >= distance, last.time >= start else { return nil }
        var i = bracket(start) ?? 0
        if points[i].distance >= distance { return max(start, points[i].time) }
        while i + 1 < points.count {
            let a = points[i], b = points[i + 1]
            if b.distance >= distance {
                guard b.distance > a.distance else { return b.time }
                let u = (distance - a.distance) / (b.distance - a.distance)
                return max(start, a.time + u * (b.time - a.time))
            }
            i += 1
        }
        return nil
    }

    /// Mean receiver speed over [start, end] from the trapezoid integral of the fixes' speeds;
    /// `nil` unless every fix interval touching the span had a receiver speed at both ends.
    public func meanReceiverSpeed(from start: Seconds, to end: Seconds) -> MetresPerSecond? {
        guard end > start, let i = bracket(start), let j = bracket(end) else { return nil }
        let jEnd = (j + 1 < points.count && points[j].time < end) ? j + 1 : j
        guard points[jEnd].intervalsWithoutSpeed == points[i].intervalsWithoutSpeed else { return nil }
        func integral(_ t: Seconds, _ k: Int) -> Metres {
            let a = points[k]
            guard k + 1 < points.count, t > a.time else { return a.speedIntegral }
            let b = points[k + 1]
            let u = (t - a.time) / (b.time - a.time)
            return a.speedIntegral + u * (b.speedIntegral - a.speedIntegral)
        }
        return (integral(end, j) - integral(start, i)) / (end - start)
    }
}
