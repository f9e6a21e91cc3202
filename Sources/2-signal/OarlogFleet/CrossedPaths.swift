#if canImport(Glibc)
import Glibc
#endif
import OarlogCore

/// Who met whom on the water: two boats within `distanceLimit` of each other at the same time —
/// side-by-side pieces, a near miss at a turn — each meeting listed once with when it began and
/// ended, how close they came, and where.
///
/// Each boat's position at a time is interpolated between its two fixes around it (boats send
/// about one a second, at different instants). A meeting ends when the two are more than
/// `distanceLimit` + `hysteresis` apart, or when one has not been heard of for `silence` seconds.
/// Boats' messages need not arrive together: a boat's backlog after a lost connection is compared
/// with the others' tracks of that time, up to `memory` seconds back. Memory is bounded: 256 fixes
/// a boat and the last `meetingLimit` meetings; each fix is checked against every other boat, so
/// the receiver bounds the boats (`FleetBoard.maximumBoats`, 64: at most 63 checks a fix and
/// 2,016 open meetings) and calls `forget` for a boat that leaves.
public struct CrossedPaths: Sendable {
    public struct Meeting: Sendable, Equatable {
        /// The two boats' ids, in alphabetical order.
        public var boats: [String]
        public var start: Double
        public var end: Double
        /// The least distance between them, metres, and when and where (midway between them).
        public var closest: Metres
        public var closestUTC: Double
        public var latitude: Degrees
        public var longitude: Degrees
        /// Still within reach at the last fix.
        public var ongoing: Bool
    }

    public let distanceLimit: Metres
    public let hysteresis: Metres
    public let silence: Double
    public let meetingLimit: Int
    public let memory: Double
    private var fixes: [String: [(utc: Double, point: GeoPoint)]] = [:]
    private var open: [String: Meeting] = [:]
    public private(set) var meetings: [Meeting] = []

    public init(distanceLimit: Metres = 10, hysteresis: Metres = 5, silence: Double = 10, meetingLimit: Int = 1000, memory: Double = 180) {
        self.distanceLimit = distanceLimit
        self.hysteresis = hysteresis
        self.silence = silence
        self.meetingLimit = meetingLimit
        self.memory = memory
    }

    /// Every meeting, the ongoing ones first, then the finished ones newest first.
    public var all: [Meeting] {
        open.values.sorted { $0.start > $1.start } + meetings.reversed()
    }

    /// Takes a boat's fix and checks it against every other boat's track at that time.
    public mutating func add(boat: String, utc: Double, latitude: Degrees, longitude: Degrees) {
        let p = GeoPoint(latitude: latitude, longitude: longitude)
        let last = fixes[boat]?.last
        if let last, utc <= last.utc { return }  // out of order or repeated
        let previous = last.flatMap { utc - $0.utc <= 5 ? $0 : nil }
        fixes[boat, default: []].append((utc, p))  // in place: not a copy of the track
        if let track = fixes[boat], track.count > 256 || (track.count > 2 && utc - track[0].utc > memory) {
            fixes[boat]?.removeFirst()
        }
        for (other, track) in fixes where other != boat {
            let key = boat < other ? "\(boat)\u{1}\(other)" : "\(other)\u{1}\(boat)"
            guard let q = Self.position(in: track, at: utc) else {
                if let m = open[key], utc - m.end > silence { close(key) }
                continue
            }
            // The closest the two came since this boat's previous fix, both moving straight
            // between fixes; else where they are now.
            var closest = (d: Self.distance(p, q), utc: utc, a: p, b: q)
            if let previous, let q0 = Self.position(in: track, at: previous.utc) {
                closest = Self.closestApproach(from: (previous.utc, previous.point, q0), to: (utc, p, q))
            }
            let d = Self.distance(p, q)
            if closest.d <= distanceLimit {
                let mid = GeoPoint(latitude: (closest.a.latitude + closest.b.latitude) / 2, longitude: (closest.a.longitude + closest.b.longitude) / 2)
                if var m = open[key] {
                    m.end = utc
                    if closest.d < m.closest {
                        m.closest = closest.d
                        m.closestUTC = closest.utc
                        m.latitude = mid.latitude
                        m.longitude = mid.longitude
                    }
                    open[key] = m
                } else {
                    open[key] = Meeting(boats: [boat, other].sorted(), start: closest.utc, end: utc, closest: closest.d,
                                        closestUTC: closest.utc, latitude: mid.latitude, longitude: mid.longitude, ongoing: true)
                }
            }
            if d > distanceLimit + hysteresis, open[key] != nil {
                close(key)
            }
        }
    }

    /// Drops a boat that left the board: its fixes, and its open meetings (closed as they stand).
    public mutating func forget(boat: String) {
        fixes.removeValue(forKey: boat)
        for (key, m) in open where m.boats.contains(boat) { close(key) }
    }

    /// The least distance between two boats each moving straight from its position at `start` to
    /// its position at `end`: the distance, when, and where each was.
    static func closestApproach(from start: (utc: Double, a: GeoPoint, b: GeoPoint), to end: (utc: Double, a: GeoPoint, b: GeoPoint))
        -> (d: Metres, utc: Double, a: GeoPoint, b: GeoPoint) {
        // The second boat relative to the first.
        let r0 = offset(start.a, start.b), r1 = offset(end.a, end.b)
        let dx = r1.x - r0.x, dy = r1.y - r0.y
        let length = dx * dx + dy * dy
        let f = length > 0 ? min(1, max(0, -(r0.x * dx + r0.y * dy) / length)) : 1
        func along(_ p: GeoPoint, _ q: GeoPoint) -> GeoPoint {
            GeoPoint(latitude: p.latitude + f * (q.latitude - p.latitude), longitude: p.longitude + f * (q.longitude - p.longitude))
        }
        let x = r0.x + f * dx, y = r0.y + f * dy
        return ((x * x + y * y).squareRoot(), start.utc + f * (end.utc - start.utc), along(start.a, end.a), along(start.b, end.b))
    }

    private mutating func close(_ key: String) {
        guard var m = open.removeValue(forKey: key) else { return }
        m.ongoing = false
        meetings.append(m)
        if meetings.count > meetingLimit { meetings.removeFirst(meetings.count - meetingLimit) }
    }

    /// The boat's position at `utc` from its fixes: interpolated between the two around it, or
    /// carried on from the last two for up to 1.5 s past the last; nil if the track does not reach.
    static func position(in track: [(utc: Double, point: GeoPoint)], at utc: Double) -> GeoPoint? {
        guard let last = track.last else { return nil }
        if track.count == 1 { return abs(utc - last.utc) <= 0.5 ? last.point : nil }
        func between(_ a: (utc: Double, point: GeoPoint), _ b: (utc: Double, point: GeoPoint)) -> GeoPoint? {
            guard b.utc - a.utc <= 5, b.utc > a.utc else { return nil }
            let f = (utc - a.utc) / (b.utc - a.utc)
            return GeoPoint(latitude: a.point.latitude + f * (b.point.latitude - a.point.latitude),
                            longitude: a.point.longitude + f * (b.point.longitude - a.point.longitude))
        }
        if utc > last.utc { return utc - last.utc <= 1.5 ? between(track[track.count - 2], last) : nil }
        guard utc >= track[0].utc else { return nil }
        // The first fix at or after `utc`, and the one before it.
        var lo = 0, hi = track.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if track[mid].utc < utc { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? track[0].point : between(track[lo - 1], track[lo])
    }

    /// Metres east and north from `a` to `b`, nearby (equirectangular: within 0.1 % under a few
    /// kilometres, and cheap enough for every pair of 200 boats each second).
    static func offset(_ a: GeoPoint, _ b: GeoPoint) -> (x: Metres, y: Metres) {
        let r = 6_371_008.8, rad = Double.pi / 180
        return ((b.longitude - a.longitude) * rad * cos((a.latitude + b.latitude) / 2 * rad) * r, (b.latitude - a.latitude) * rad * r)
    }

    /// Metres between two nearby points.
    static func distance(_ a: GeoPoint, _ b: GeoPoint) -> Metres {
        let (x, y) = offset(a, b)
        return (x * x + y * y).squareRoot()
    }
}
