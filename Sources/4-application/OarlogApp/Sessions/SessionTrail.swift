import OarlogCore
import OarlogDSP
import OarlogSession

/// A stored session's track for the session page's map (`/api/sessions/{id}/trail`): the fixes
/// the distance accumulator uses — the same points as the GeoJSON export, from the same
/// accumulator with the session's settings — each with its session time and the distance rowed
/// by then. Read from the file's fixes alone (no accelerometer block is decoded, nothing is
/// replayed), so a 10-hour session's trail takes a fraction of a second where its export takes
/// the whole analysis.
public struct SessionTrail {
    public struct Point: Sendable, Equatable {
        public var time: Seconds
        public var latitude: Degrees
        public var longitude: Degrees
        public var distance: Metres
    }

    public let points: [Point]

    public init(_ reader: SessionReader) throws {
        var points: [Point] = []
        try Self.forEachPoint(reader) { points.append($0) }
        self.points = points
    }

    /// Each point of the trail in turn: the fixes the session's distance accumulator uses, where
    /// its smoothed track puts them (as the GeoJSON export has them), with the distance rowed by
    /// then: a fix's point comes once the accumulator has booked it (the smoother's lag), and all
    /// at the end.
    static func forEachPoint(_ reader: SessionReader, _ body: (Point) -> Void) throws {
        let settings = SessionReplay(reader).settings
        var accumulator = DistanceAccumulator(configuration: try settings.analyzerConfiguration().distance)
        var waiting: [GPSFix] = []
        var next = 0
        func emitBooked(upTo settled: Seconds) {
            while next < waiting.count, waiting[next].time <= settled {
                let fix = waiting[next]
                let p = accumulator.smoothingLag > 0 ? accumulator.positions.position(at: fix.time) ?? fix.point : fix.point
                body(Point(time: fix.time, latitude: p.latitude, longitude: p.longitude,
                           distance: accumulator.history.distance(at: fix.time) ?? accumulator.distance))
                next += 1
            }
            if next > 256 { waiting.removeFirst(next); next = 0 }
        }
        // As the analyzer feeds its accumulator (`RowingAnalyzer.process`): fixes, the device's
        // distances, and GPS gaps that break the track.
        try reader.forEachTrackRecord { record in
            switch record {
            case .fix(let fix):
                let used = accumulator.usedFixes
                accumulator.process(fix)
                if accumulator.usedFixes > used { waiting.append(fix) }
                if let settled = accumulator.settledTime { emitBooked(upTo: settled) }
            case .reference(let r):
                if let d = r.distance { accumulator.noteDeviceDistance(time: r.time, distance: d) }
            case .gap(let g):
                if g.breaksTrack { accumulator.breakTrack(deviceDistance: g.deviceDistance) }
            default:
                break
            }
        }
        accumulator.finish()
        emitBooked(upTo: .infinity)
    }

    /// At most `limit` points, evenly spread, always the first and the last.
    public func thinned(to limit: Int) -> [Point] {
        Self.thinned(points, to: limit)
    }

    /// At most `limit` of `points`, evenly spread, always the first and the last (the map's
    /// trail, and each side's trail on the compare page).
    public static func thinned(_ points: [Point], to limit: Int) -> [Point] {
        let n = points.count
        guard n > limit, limit >= 2 else { return points }
        return (0..<limit).map { points[Int((Double($0) * Double(n - 1) / Double(limit - 1)).rounded())] }
    }

    /// The answer as JSON, column by column: `fixes` (points in the whole trail), `points`
    /// (in this answer), `t_s`, `lat_deg`, `lon_deg`, `distance_m`.
    public func json(points limit: Int) -> String {
        let chosen = thinned(to: limit)
        var w = JSONWriter()
        w.beginObject()
        w.field("fixes", points.count)
        w.field("points", chosen.count)
        let columns: [(String, KeyPath<Point, Double>, Int)] = [("t_s", \.time, 2), ("lat_deg", \.latitude, 7),
                                                                 ("lon_deg", \.longitude, 7), ("distance_m", \.distance, 1)]
        for (key, value, places) in columns {
            w.beginArray(key: key)
            for p in chosen { w.element(p[keyPath: value], places: places) }
            w.endArray()
        }
        w.endObject()
        return w.take()
    }
}
