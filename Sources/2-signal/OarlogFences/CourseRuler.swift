import OarlogCore

/// How far along a course a position is, in course metres: projected onto the straight line
/// between the centres of the gates either side of it.
///
/// A ghost race measures the reference attempt and the boat with this same ruler, from their
/// positions alone. It was chosen over the other way the project has (`RaceStandings`: the last
/// gate's distance plus the distance rowed since it) because a stored attempt is read back as
/// its fixes only: its distance rowed would come from summing raw fixes while the boat's came
/// from the analyzer's filtered distance, two measures that drift apart by metres within a leg.
/// A projection is the same arithmetic on the same kind of input for both, needs no distance at
/// all, and is anchored at every gate. On a bending river the chord between two markers is
/// shorter than the water rowed; the fraction along the chord is scaled to the leg's course
/// distance, so the error is only how unevenly that fraction moves, and it is the same for both
/// crews where they steer alike.
public struct CourseRuler: Sendable, Equatable {
    public let course: Course
    /// Per leg k (gate k to gate k+1): a plane at gate k's centre and the vector to gate k+1's.
    private let planes: [LocalTangentPlane]
    private let legs: [PlanePoint]

    /// - Returns: nil when the file has no course of two gates or more whose gates are lines.
    public init?(file: FenceFile) {
        guard let course = file.course, course.gates.count >= 2, CourseCheck.gateLines(file).count == course.gates.count else { return nil }
        let centres = CourseCheck.gateCentres(file)
        self.course = course
        planes = centres.dropLast().map { LocalTangentPlane(origin: $0) }
        legs = zip(planes, centres.dropFirst()).map { plane, next in
            let p = plane.project(next)
            return PlanePoint(east: p.east, north: p.north)
        }
    }

    /// Number of legs (gates − 1).
    public var legCount: Int { legs.count }

    /// Course metres of `point` on leg `k` (after gate `k`): gate k's distance plus the point's
    /// fraction along the leg's chord (held to 0…1) times the leg's course distance.
    public func along(_ point: GeoPoint, leg k: Int) -> Metres {
        let k = min(max(k, 0), legs.count - 1)
        let p = planes[k].project(point)
        let v = legs[k]
        let squared = v.east * v.east + v.north * v.north
        let fraction = squared > 0 ? (p.east * v.east + p.north * v.north) / squared : 0
        let d0 = course.distances[k], d1 = course.distances[k + 1]
        return d0 + min(max(fraction, 0), 1) * (d1 - d0)
    }
}
