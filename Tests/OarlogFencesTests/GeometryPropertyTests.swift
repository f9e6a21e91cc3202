import OarlogFences
import PropertyBased
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Property tests of the plane geometry against simple references: a brute-force winding
/// number for point-in-polygon, exact rational arithmetic on small integer coordinates for
/// segment intersection.
struct GeometryPropertyTests {
    /// A star-shaped (hence simple) polygon: vertices at increasing angles around a centre.
    static let polygon = Gen.double(in: 5...100).array(of: 3...12).map { radii -> [PlanePoint] in
        let n = radii.count
        return radii.enumerated().map { k, r in
            let angle = 2 * Double.pi * (Double(k) + 0.5 * Double(k % 2)) / Double(n)
            return PlanePoint(east: r * cos(angle), north: r * sin(angle))
        }
    }
    static let point = Gen.double(in: -120...120).array(of: 2).map { PlanePoint(east: $0[0], north: $0[1]) }

    /// The winding number of the ring around `p` (sum of the turned angles / 2π): the reference.
    static func windingContains(_ ring: [PlanePoint], _ p: PlanePoint) -> Bool {
        var total = 0.0
        for i in ring.indices {
            let a = ring[i] - p, b = ring[(i + 1) % ring.count] - p
            total += atan2(a.east * b.north - a.north * b.east, a.east * b.east + a.north * b.north)
        }
        return abs(total) > Double.pi
    }

    @Test func pointInPolygonMatchesWindingNumber() async {
        await propertyCheck(count: 500, input: Self.polygon, Self.point) { ring, p in
            // Points within a millimetre of an edge may go either way.
            guard PlaneGeometry.distance(from: p, toRing: ring) > 1e-3 else { return }
            #expect(PlaneGeometry.ringContains(ring, p) == Self.windingContains(ring, p))
        }
    }

    /// Integer coordinates: the reference decides with exact integer orientation tests.
    static let integerSegment = Gen.int(in: -20...20).array(of: 4).map {
        (PlanePoint(east: Double($0[0]), north: Double($0[1])), PlanePoint(east: Double($0[2]), north: Double($0[3])))
    }

    static func orientation(_ a: (Int, Int), _ b: (Int, Int), _ c: (Int, Int)) -> Int {
        let v = (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
        return v > 0 ? 1 : (v < 0 ? -1 : 0)
    }

    @Test func segmentIntersectionMatchesExactReference() async {
        await propertyCheck(count: 1000, input: Self.integerSegment, Self.integerSegment) { first, second in
            func int(_ p: PlanePoint) -> (Int, Int) { (Int(p.east), Int(p.north)) }
            let p0 = int(first.0), p1 = int(first.1), q0 = int(second.0), q1 = int(second.1)
            let d1 = Self.orientation(q0, q1, p0), d2 = Self.orientation(q0, q1, p1)
            let d3 = Self.orientation(p0, p1, q0), d4 = Self.orientation(p0, p1, q1)
            let parallel = (p1.0 - p0.0) * (q1.1 - q0.1) - (p1.1 - p0.1) * (q1.0 - q0.0) == 0
            let result = PlaneGeometry.segmentIntersection(first.0, first.1, second.0, second.1)
            if parallel {
                #expect(result == nil)  // parallel or collinear: never a crossing
                return
            }
            let reference = d1 * d2 <= 0 && d3 * d4 <= 0
            #expect((result != nil) == reference)
            if let result {
                // The point found lies on both segments.
                let x = first.0 + (first.1 - first.0) * result.alongFirst
                let y = second.0 + (second.1 - second.0) * result.alongSecond
                #expect((x - y).length < 1e-9)
            }
        }
    }

    @Test func distanceToSegmentIsTheMinimumOverTheSegment() async {
        await propertyCheck(count: 300, input: Self.point, Self.point, Self.point) { p, a, b in
            var brute = Double.infinity
            for k in 0...2000 {
                let t = Double(k) / 2000
                brute = min(brute, (p - (a + (b - a) * t)).length)
            }
            let d = PlaneGeometry.distance(from: p, toSegment: a, b)
            #expect(d <= brute + 1e-9)
            #expect(brute - d <= (b - a).length / 2000 + 1e-9)
        }
    }
}
