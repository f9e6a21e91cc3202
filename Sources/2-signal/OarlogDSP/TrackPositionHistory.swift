import OarlogCore

/// The recent positions of the booked (in replay, smoothed) track by session time: what a map
/// and an export draw, the same track the distance is measured on. Bounded: the oldest drop out.
public struct TrackPositionHistory: Sendable {
    private struct Point: Sendable { var time: Seconds; var position: GeoPoint }
    private var points: RingBuffer<Point>

    public init(capacity: Int = 1024) {
        points = RingBuffer(capacity: max(2, capacity), filler: Point(time: 0, position: GeoPoint(latitude: 0, longitude: 0)))
    }

    mutating func append(time: Seconds, position: GeoPoint) {
        if let last = points.last, time <= last.time {
            points[points.count - 1] = Point(time: time, position: position)
            return
        }
        points.append(Point(time: time, position: position))
    }

    /// The track's position at `time`: a booked fix's own, else interpolated between the two
    /// around it; `nil` outside what is held.
    public func position(at time: Seconds) -> GeoPoint? {
        guard let last = points.last, time <= last.time, let lo = points.lastIndex(atOrBefore: time, by: { $0.time }) else { return nil }
        let a = points[lo]
        guard lo + 1 < points.count, time > a.time else { return a.position }
        let b = points[lo + 1]
        let u = (time - a.time) / (b.time - a.time)
        return GeoPoint(latitude: a.position.latitude + u * (b.position.latitude - a.position.latitude),
                        longitude: a.position.longitude + u * Geodesy.normalizedLongitudeDifference(b.position.longitude - a.position.longitude))
    }
}
