import OarlogAPI
import OarlogCore
import OarlogFences
import OarlogSession

/// The trail and the strokes: a side's stretch, its time at a distance, its catches.
extension SessionComparison {

    /// The trail between session times `t0` and `t1`, a point placed at each end between the two
    /// fixes around it; distances from `t0`.
    static func stretch(_ points: [SessionTrail.Point], from t0: Seconds, to t1: Seconds) -> [SessionTrail.Point] {
        guard !points.isEmpty else { return [] }
        func at(_ t: Seconds) -> SessionTrail.Point {
            guard let j = points.firstIndex(where: { $0.time >= t }) else { return points[points.count - 1] }
            guard j > 0, points[j].time > points[j - 1].time else { return points[j] }
            let p = points[j - 1], q = points[j], f = (t - p.time) / (q.time - p.time)
            return SessionTrail.Point(time: t, latitude: p.latitude + f * (q.latitude - p.latitude),
                                      longitude: p.longitude + f * (q.longitude - p.longitude), distance: p.distance + f * (q.distance - p.distance))
        }
        let start = at(t0)
        var out = [start] + points.filter { $0.time > t0 && $0.time < t1 } + [at(t1)]
        for i in out.indices { out[i].distance -= start.distance }
        return out
    }

    /// The session time at which a stretch's distance reaches `d`, between the two points around
    /// it (a trail's distance never decreases); nil beyond its end.
    static func time(at d: Metres, in points: [SessionTrail.Point]) -> Seconds? {
        var lo = 0, hi = points.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if points[mid].distance >= d { hi = mid } else { lo = mid + 1 }
        }
        guard lo < points.count else {
            // The end of the stretch, to rounding (a partial segment's mark is its last point).
            return points.last.flatMap { abs($0.distance - d) < 1e-6 ? $0.time : nil }
        }
        guard lo > 0 else { return points[0].time }
        let p = points[lo - 1], q = points[lo]
        return q.distance > p.distance ? p.time + (d - p.distance) / (q.distance - p.distance) * (q.time - p.time) : q.time
    }

    /// How many of `catches` (in order) are before `t`.
    static func catches(_ catches: [Seconds], before t: Seconds) -> Int {
        var lo = 0, hi = catches.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if catches[mid] < t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The strokes rowed by session time `t`: the catches up to it, the last one counted as the
    /// fraction of its cycle (to the next catch, or the one before it at the end of a run) done.
    /// A rest (no catch for `SessionPieces.restGap`) is not a cycle.
    static func strokesRowed(_ catches: [Seconds], by t: Seconds) -> Double {
        let i = Self.catches(catches, before: t.nextUp)
        guard i > 0 else { return 0 }
        let c = catches[i - 1]
        var period: Seconds?
        if i < catches.count, catches[i] - c < SessionPieces.restGap { period = catches[i] - c }
        else if i >= 2, c - catches[i - 2] < SessionPieces.restGap { period = c - catches[i - 2] }
        guard let period, period > 0 else { return Double(i) }
        return Double(i - 1) + min(1, (t - c) / period)
    }
}
