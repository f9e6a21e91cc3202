import OarlogCore

/// A point in a local tangent plane: metres east and north of the plane's origin.
public struct PlanePoint: Sendable, Equatable {
    public var east: Metres
    public var north: Metres

    @inlinable
    public init(east: Metres, north: Metres) {
        self.east = east
        self.north = north
    }

    @inlinable public static func - (a: PlanePoint, b: PlanePoint) -> PlanePoint {
        PlanePoint(east: a.east - b.east, north: a.north - b.north)
    }
    @inlinable public static func + (a: PlanePoint, b: PlanePoint) -> PlanePoint {
        PlanePoint(east: a.east + b.east, north: a.north + b.north)
    }
    @inlinable public static func * (a: PlanePoint, k: Double) -> PlanePoint {
        PlanePoint(east: a.east * k, north: a.north * k)
    }
    /// Length of the vector from the origin, metres.
    @inlinable public var length: Metres { (east * east + north * north).squareRoot() }
}

/// Plane geometry for fences, in metres: segment intersection, distance to a segment, and
/// point-in-polygon (even–odd rule, holes allowed). Pure functions, no allocation.
public enum PlaneGeometry {
    /// The z component of the cross product (b − a) × (p − a): positive when `p` lies to the left
    /// of the directed line a → b, negative to the right, zero on it. Its magnitude is twice the
    /// triangle's area.
    @inlinable
    public static func cross(_ a: PlanePoint, _ b: PlanePoint, _ p: PlanePoint) -> Double {
        (b.east - a.east) * (p.north - a.north) - (b.north - a.north) * (p.east - a.east)
    }

    /// Where segment p0→p1 meets segment q0→q1, as fractions along each (0 at the start, 1 at the
    /// end; both ends included). `nil` when they do not meet, or are parallel (a collinear overlap
    /// is not a crossing: a boat moving along a gate line never crosses it).
    @inlinable
    public static func segmentIntersection(_ p0: PlanePoint, _ p1: PlanePoint,
                                           _ q0: PlanePoint, _ q1: PlanePoint) -> (alongFirst: Double, alongSecond: Double)? {
        let r = p1 - p0, s = q1 - q0
        let denominator = r.east * s.north - r.north * s.east
        let scale = max(r.length * s.length, .leastNormalMagnitude)
        guard abs(denominator) > 1e-12 * scale else { return nil }
        let qp = q0 - p0
        let t = (qp.east * s.north - qp.north * s.east) / denominator
        let u = (qp.east * r.north - qp.north * r.east) / denominator
        guard t >= 0, t <= 1, u >= 0, u <= 1 else { return nil }
        return (t, u)
    }

    /// Shortest distance from `p` to the segment a–b, metres.
    @inlinable
    public static func distance(from p: PlanePoint, toSegment a: PlanePoint, _ b: PlanePoint) -> Metres {
        let ab = b - a, ap = p - a
        let lengthSquared = ab.east * ab.east + ab.north * ab.north
        var t = lengthSquared > 0 ? (ap.east * ab.east + ap.north * ab.north) / lengthSquared : 0
        t = min(1, max(0, t))
        return (ap - ab * t).length
    }

    /// Whether `p` is inside the closed ring (first point not repeated at the end), by the
    /// even–odd crossing rule. A point exactly on an edge may count either way.
    @inlinable
    public static func ringContains(_ ring: [PlanePoint], _ p: PlanePoint) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in 0..<ring.count {
            let a = ring[i], b = ring[j]
            if (a.north > p.north) != (b.north > p.north) {
                let eastAtY = a.east + (p.north - a.north) / (b.north - a.north) * (b.east - a.east)
                if p.east < eastAtY { inside.toggle() }
            }
            j = i
        }
        return inside
    }

    /// Shortest distance from `p` to the ring's edges, metres.
    @inlinable
    public static func distance(from p: PlanePoint, toRing ring: [PlanePoint]) -> Metres {
        var best = Double.infinity
        var j = ring.count - 1
        for i in 0..<ring.count {
            best = min(best, distance(from: p, toSegment: ring[j], ring[i]))
            j = i
        }
        return best
    }

    /// Twice the signed area of the ring (positive when counter-clockwise seen from above).
    public static func doubleSignedArea(_ ring: [PlanePoint]) -> Double {
        var sum = 0.0
        var j = ring.count - 1
        for i in 0..<ring.count {
            sum += ring[j].east * ring[i].north - ring[i].east * ring[j].north
            j = i
        }
        return sum
    }

    /// A pair of non-adjacent edges of the ring that touch, cross or overlap (edge k runs from
    /// point k to point k+1, the last back to the first; the smaller index first), or `nil` if the
    /// ring is simple. O(n log n) (`SelfIntersectionSweep`): a ring of 10⁶ points is checked in
    /// well under a second in a release build.
    public static func firstSelfIntersection(_ ring: [PlanePoint]) -> (Int, Int)? {
        ring.withUnsafeBufferPointer { SelfIntersectionSweep(points: $0).run() }
    }

    /// The first pair (in index order) of non-adjacent edges that touch or cross, by trying every
    /// pair: O(n²), the reference the sweep is tested against.
    static func pairwiseSelfIntersection(_ ring: [PlanePoint]) -> (Int, Int)? {
        let n = ring.count
        guard n >= 4 else { return nil }
        for i in 0..<n {
            let a0 = ring[i], a1 = ring[(i + 1) % n]
            for j in stride(from: i + 2, to: n, by: 1) {
                if i == 0 && j == n - 1 { continue }  // the two edges meeting at point 0
                let b0 = ring[j], b1 = ring[(j + 1) % n]
                if segmentsTouch(a0, a1, b0, b1) { return (i, j) }
            }
        }
        return nil
    }

    /// Whether two segments share any point (collinear overlaps included).
    public static func segmentsTouch(_ p0: PlanePoint, _ p1: PlanePoint, _ q0: PlanePoint, _ q1: PlanePoint) -> Bool {
        let d1 = cross(q0, q1, p0), d2 = cross(q0, q1, p1)
        let d3 = cross(p0, p1, q0), d4 = cross(p0, p1, q1)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return true }
        func onSegment(_ a: PlanePoint, _ b: PlanePoint, _ p: PlanePoint) -> Bool {
            min(a.east, b.east) <= p.east && p.east <= max(a.east, b.east)
                && min(a.north, b.north) <= p.north && p.north <= max(a.north, b.north)
        }
        if d1 == 0 && onSegment(q0, q1, p0) { return true }
        if d2 == 0 && onSegment(q0, q1, p1) { return true }
        if d3 == 0 && onSegment(p0, p1, q0) { return true }
        if d4 == 0 && onSegment(p0, p1, q1) { return true }
        return false
    }

    /// Bearing of the vector (degrees clockwise from the plane's north, in [0, 360)).
    @inlinable
    public static func bearing(of v: PlanePoint) -> Degrees {
        var degrees = atan2Degrees(v.east, v.north)
        if degrees < 0 { degrees += 360 }
        return degrees
    }

    @usableFromInline
    static func atan2Degrees(_ y: Double, _ x: Double) -> Degrees {
        FenceMath.atan2(y, x) * 180 / Double.pi
    }
}
