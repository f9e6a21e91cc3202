import OarlogCore

/// A fence worked out once in its own local tangent plane (origin at the fence), with a cheap
/// latitude/longitude box around it so that most fixes skip it after four comparisons.
/// Each fence has its own plane, so fences anywhere on Earth (across the antimeridian, near a
/// pole) keep metre-exact geometry.
struct ProjectedFence: Sendable {
    enum Shape: Sendable {
        case circle(radius: Metres)
        case polygon(outer: [PlanePoint], holes: [[PlanePoint]])
        /// A gate polyline with, for a directed gate, the unit vector of the required travel.
        case gate(line: [PlanePoint], forward: PlanePoint?)
    }

    let fence: Fence
    let plane: LocalTangentPlane
    let shape: Shape
    /// Distance from the plane origin to the furthest point of the fence, metres.
    let boundingRadius: Metres
    // The prefilter box: fixes with |Δlatitude| > latitudeReach or |Δlongitude| > longitudeReach
    // from the origin are further than `boundingRadius + margin` from every point of the fence.
    let latitudeReach: Degrees
    let longitudeReach: Degrees

    /// Projects the fence; `margin` is how far outside the fence a fix may be and still matter
    /// (hysteresis, accuracy, the longest plausible step between fixes).
    init(_ fence: Fence, margin: Metres) {
        self.fence = fence
        let origin: GeoPoint
        switch fence.shape {
        case .circle(let centre, _): origin = centre
        case .polygon(let outer, _): origin = outer[0]
        case .gate(let line, _): origin = line[0]
        }
        let localPlane = LocalTangentPlane(origin: origin)
        plane = localPlane
        func project(_ p: GeoPoint) -> PlanePoint {
            let (e, n) = localPlane.project(p)
            return PlanePoint(east: e, north: n)
        }
        var radius: Metres = 0
        switch fence.shape {
        case .circle(_, let r):
            shape = .circle(radius: r)
            radius = r
        case .polygon(let outer, let holes):
            let o = outer.map(project)
            shape = .polygon(outer: o, holes: holes.map { $0.map(project) })
            radius = o.map(\.length).max() ?? 0
        case .gate(let line, let direction):
            let l = line.map(project)
            var forward: PlanePoint?
            if case .bearing(let b) = direction {
                let radians = b * FenceMath.degreesToRadians
                forward = PlanePoint(east: FenceMath.sin(radians), north: FenceMath.cos(radians))
            }
            shape = .gate(line: l, forward: forward)
            radius = l.map(\.length).max() ?? 0
        }
        boundingRadius = radius
        // A degree of latitude is at least 110,574 m; a degree of longitude at latitude φ at least
        // 111,320·cos φ m (taken at the box's most poleward latitude).
        let reach = (radius + margin) * 1.01 + 1
        latitudeReach = reach / 110_574
        let poleward = min(90, abs(origin.latitude) + latitudeReach)
        let cosine = FenceMath.cos(poleward * FenceMath.degreesToRadians)
        longitudeReach = cosine > 1e-6 ? min(180, reach / (111_320 * cosine)) : 180
    }

    /// Whether a fix at `point` may be near enough to matter (false: certainly far away).
    @inline(__always)
    func mayBeNear(_ point: GeoPoint) -> Bool {
        guard abs(point.latitude - plane.origin.latitude) <= latitudeReach else { return false }
        if longitudeReach >= 180 { return true }
        return abs(Geodesy.normalizedLongitudeDifference(point.longitude - plane.origin.longitude)) <= longitudeReach
    }

    @inline(__always)
    func project(_ point: GeoPoint) -> PlanePoint {
        let (e, n) = plane.project(point)
        return PlanePoint(east: e, north: n)
    }

    /// Signed distance from the area's boundary, metres: negative inside, positive outside.
    func signedDistance(_ p: PlanePoint) -> Metres {
        switch shape {
        case .circle(let radius):
            return p.length - radius
        case .polygon(let outer, let holes):
            var distance = PlaneGeometry.distance(from: p, toRing: outer)
            for hole in holes { distance = min(distance, PlaneGeometry.distance(from: p, toRing: hole)) }
            var inside = PlaneGeometry.ringContains(outer, p)
            if inside {
                for hole in holes where PlaneGeometry.ringContains(hole, p) {
                    inside = false
                    break
                }
            }
            return inside ? -distance : distance
        case .gate:
            return .infinity
        }
    }
}
