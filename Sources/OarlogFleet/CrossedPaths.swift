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
/// Memory is bounded: four fixes a boat and the last `meetingLimit` meetings.
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
    private var fixes: [String: [(utc: Double, point: GeoPoint)]] = [:]
    private var open: [String: Meeting] = [:]
    public private(set) var meetings: [Meeting] = []

    public init(distanceLimit: Metres = 10, hysteresis: Metres = 5, silence: Double = 10, meetingLimit: Int = 1000) {
        self.distanceLimit = distanceLimit
        self.hysteresis = hysteresis
        self.silence = silence
        self.meetingLimit = meetingLimit
    }

    /// Every meeting, the ongoing ones first, then the finished ones newest first.
    public var all: [Meeting] {
        open.values.sorted { $0.start > $1.start } + meetings.reversed()
    }

    /// Takes a boat's fix and checks it against every other boat's track at that time.
    public mutating func add(boat: String, utc: Double, latitude: Degrees, longitude: Degrees) {
        let p = GeoPoint(latitude: latitude, longitude: longitude)
        var mine = fixes[boat] ?? []
        if let last = mine.last, utc <= last.utc { return }  // out of order or repeated
        mine.append((utc, p))
        if mine.count > 4 { mine.removeFirst() }
        fixes[boat] = mine
        for (other, track) in fixes where other != boat {
            let key = boat < other ? "\(boat)\u{1}\(other)" : "\(other)\u{1}\(boat)"
            guard let q = Self.position(in: track, at: utc) else {
                if let m = open[key], utc - m.end > silence { close(key) }
                continue
            }
            let d = Self.distance(p, q)
            if d <= distanceLimit {
                let mid = GeoPoint(latitude: (p.latitude + q.latitude) / 2, longitude: (p.longitude + q.longitude) / 2)
                if var m = open[key] {
                    m.end = utc
                    if d < m.closest {
                        m.closest = d
                        m.closestUTC = utc
                        m.latitude = mid.latitude
                        m.longitude = mid.longitude
                    }
                    open[key] = m
                } else {
                    open[key] = Meeting(boats: [boat, other].sorted(), start: utc, end: utc, closest: d, closestUTC: utc,
                                        latitude: mid.latitude, longitude: mid.longitude, ongoing: true)
                }
            } else if d > distanceLimit + hysteresis, open[key] != nil {
                close(key)
            }
        }
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
        for k in stride(from: track.count - 1, to: 0, by: -1) {
            let a = track[k - 1], b = track[k]
            let insideGap = utc >= a.utc && utc <= b.utc && b.utc - a.utc <= 5
            let justPast = k == track.count - 1 && utc > b.utc && utc - b.utc <= 1.5 && b.utc - a.utc <= 5
            if insideGap || justPast {
                let f = (utc - a.utc) / (b.utc - a.utc)
                return GeoPoint(latitude: a.point.latitude + f * (b.point.latitude - a.point.latitude),
                                longitude: a.point.longitude + f * (b.point.longitude - a.point.longitude))
            }
        }
        return nil
    }

    /// Metres between two nearby points (equirectangular: within 0.1 % under a few kilometres,
    /// and cheap enough for every pair of 200 boats each second).
    static func distance(_ a: GeoPoint, _ b: GeoPoint) -> Metres {
        let r = 6_371_008.8, rad = Double.pi / 180
        let x = (b.longitude - a.longitude) * rad * cos((a.latitude + b.latitude) / 2 * rad)
        let y = (b.latitude - a.latitude) * rad
        return (x * x + y * y).squareRoot() * r
    }
}
