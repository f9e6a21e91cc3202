import OarlogCore

/// The boat's way round a `GatePath` in the course plane (east, north metres from the start
/// gate's centre, the plane `CoursePlane` maps to the ellipsoid): a closed loop it rows over and
/// over, so its place is a function of the distance travelled alone.
///
/// One lap: forward along the line — from the lead-in point, through every gate centre, to the
/// run-out point past the finish — a keyhole turn there, back along the same line to the
/// lead-in point (crossing the gates the wrong way), and a keyhole turn there onto the line again.
/// The keyhole: arcs of `turnRadius` 60° to the left, 300° to the right, 60° to the left, which
/// end where they began, heading the other way (7π/3 × r long, at most r off the line, all of it
/// beyond the turning point, so it never crosses a gate).
struct GatePathLoop: Sendable {
    /// A point of the loop: where, which way (radians clockwise from north), and whether it is in a turn.
    struct Place {
        var east: Metres
        var north: Metres
        var bearing: Double
        var isTurning: Bool
    }

    /// A crossing of a gate centre on the loop.
    struct GateMark: Sendable {
        /// Distance along one lap from the lead-in point.
        var lapDistance: Metres
        /// The gate's position in the course (0 = start).
        var gate: Int
        var isForward: Bool
    }

    /// The line's corners: the lead-in point, the gate centres, the run-out point.
    private let east: [Metres]
    private let north: [Metres]
    /// Distance along the line to each corner (0 at the lead-in point).
    private let along: [Metres]
    /// Bearing (radians) of each piece of the line, corner k to k + 1.
    private let bearings: [Double]
    let lineLength: Metres
    let turnRadius: Metres
    let turnLength: Metres
    let lapLength: Metres
    /// Every gate crossing of one lap, in the order the boat meets them.
    let marks: [GateMark]

    /// `centres`: the gate centres in the plane, in course order (at least two, each leg ≥ 1 m).
    init(centres: [(east: Metres, north: Metres)], leadIn: Metres, runOut: Metres, turnRadius: Metres) {
        let count = centres.count
        func unit(_ a: (east: Metres, north: Metres), _ b: (east: Metres, north: Metres)) -> (Double, Double) {
            let de = b.east - a.east, dn = b.north - a.north
            let length = (de * de + dn * dn).squareRoot()
            return (de / length, dn / length)
        }
        let first = unit(centres[0], centres[1])
        let last = unit(centres[count - 2], centres[count - 1])
        let corners = [(centres[0].east - leadIn * first.0, centres[0].north - leadIn * first.1)]
            + centres.map { ($0.east, $0.north) }
            + [(centres[count - 1].east + runOut * last.0, centres[count - 1].north + runOut * last.1)]
        east = corners.map(\.0)
        north = corners.map(\.1)
        var along: [Metres] = [0]
        var bearings: [Double] = []
        for k in 1..<corners.count {
            let de = east[k] - east[k - 1], dn = north[k] - north[k - 1]
            along.append(along[k - 1] + (de * de + dn * dn).squareRoot())
            bearings.append(_atan2(de, dn))
        }
        self.along = along
        self.bearings = bearings
        lineLength = along[along.count - 1]
        self.turnRadius = turnRadius
        turnLength = 7 * Double.pi / 3 * turnRadius
        lapLength = 2 * (lineLength + turnLength)
        let line = lineLength, back = lineLength + turnLength
        let forward = (0..<count).map { GateMark(lapDistance: along[$0 + 1], gate: $0, isForward: true) }
        let backward = (0..<count).reversed().map {
            GateMark(lapDistance: back + (line - along[$0 + 1]), gate: $0, isForward: false)
        }
        marks = forward + backward
    }

    /// The place after `distance` metres from the lead-in point (any distance: the loop repeats;
    /// a negative one is a little behind the lead-in point, on the end of the last turn).
    func place(atDistance distance: Metres) -> Place {
        var u = distance.truncatingRemainder(dividingBy: lapLength)
        if u < 0 { u += lapLength }
        if u < lineLength { return onLine(u, forward: true) }
        u -= lineLength
        if u < turnLength {
            let end = onLine(lineLength, forward: true)
            return turn(u, at: end)
        }
        u -= turnLength
        if u < lineLength { return onLine(lineLength - u, forward: false) }
        return turn(u - lineLength, at: onLine(0, forward: false))
    }

    /// The point `s` metres along the line, heading up the course or down it.
    private func onLine(_ s: Metres, forward: Bool) -> Place {
        var k = 0
        while k < bearings.count - 1 && along[k + 1] <= s { k += 1 }
        let b = bearings[k]
        let ds = s - along[k]
        let e = east[k] + ds * _sin(b), n = north[k] + ds * _cos(b)
        return Place(east: e, north: n, bearing: forward ? b : b + Double.pi, isTurning: false)
    }

    /// The keyhole turn, `w` metres into it, from `start` (on the line, with its heading).
    private func turn(_ w: Metres, at start: Place) -> Place {
        let r = turnRadius
        let third = Double.pi / 3
        // Local frame: x along the heading at the turn's start, y to the left; psi = heading
        // anticlockwise from x.
        var x: Double, y: Double, psi: Double
        if w < r * third {
            let theta = w / r
            (x, y, psi) = (r * _sin(theta), r - r * _cos(theta), theta)
        } else if w < 6 * r * third {
            let phi = 5 * Double.pi / 6 - (w - r * third) / r
            (x, y, psi) = (3.0.squareRoot() * r + r * _cos(phi), r * _sin(phi), phi - Double.pi / 2)
        } else {
            let alpha = Double.pi / 6 + (w - 6 * r * third) / r
            (x, y, psi) = (r * _cos(alpha), -r + r * _sin(alpha), alpha + Double.pi / 2)
        }
        let h = start.bearing
        let e = start.east + x * _sin(h) - y * _cos(h)
        let n = start.north + x * _cos(h) + y * _sin(h)
        return Place(east: e, north: n, bearing: h - psi, isTurning: true)
    }
}
