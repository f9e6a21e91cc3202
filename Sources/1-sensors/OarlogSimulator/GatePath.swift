import OarlogCore

/// A measured course for the simulated boat to row up and down: its gates' centres in course
/// order (start, markers, finish), each with its name and its distance along the course, as a
/// course file gives them (the command line reads the GeoJSON; the simulator knows no file
/// format). The boat's line runs straight from gate centre to gate centre (docs/SIMULATOR.md,
/// "Rowing a measured course").
public struct GatePath: Sendable, Equatable {
    /// One gate of the course.
    public struct Gate: Sendable, Equatable {
        public var name: String
        /// Where the boat crosses it: the middle of the gate's line.
        public var centre: GeoPoint
        /// Distance from the start gate along the course, as the course file gives it (the
        /// truth's gate rows carry it; the boat's own metres are those between the centres).
        public var courseDistance: Metres

        public init(name: String, centre: GeoPoint, courseDistance: Metres) {
            self.name = name
            self.centre = centre
            self.courseDistance = courseDistance
        }

        /// A gate given by its line (two points or more): the centre is the point halfway along it.
        public init(name: String, line: [GeoPoint], courseDistance: Metres) {
            self.init(name: name, centre: Self.middle(of: line), courseDistance: courseDistance)
        }

        /// The point halfway along a line of geodesic pieces (the only point of a one-point line).
        public static func middle(of line: [GeoPoint]) -> GeoPoint {
            guard let first = line.first else { return GeoPoint(latitude: 0, longitude: 0) }
            let pieces = zip(line, line.dropFirst()).map { Geodesy.inverse(from: $0, to: $1) }
            var remaining = pieces.reduce(0) { $0 + $1.distance } / 2
            for (k, piece) in pieces.enumerated() {
                if remaining <= piece.distance {
                    return Geodesy.destination(from: line[k], distance: remaining, bearing: piece.initialBearing)
                }
                remaining -= piece.distance
            }
            return line.last ?? first
        }
    }

    /// The course's name (the truth's metadata carries it).
    public var name: String
    /// Start first, finish last.
    public var gates: [Gate]
    /// How far before the start gate the boat starts, on the line of the first leg; it also turns
    /// this far beyond the start gate when it comes back down the course.
    public var leadIn: Metres = 150
    /// How far past the finish gate it rows, on the line of the last leg, before it turns.
    public var runOut: Metres = 150
    /// Radius of the turn's arcs (a keyhole turn: 7π/3 × this long, at most this far off the line).
    public var turnRadius: Metres = 10

    public init(name: String, gates: [Gate]) {
        self.name = name
        self.gates = gates
    }

    /// Why the boat cannot row this course, or `nil`: fewer than two gates, a centre that is not
    /// a place, two gates in a row at the same place, a leg over 100 km, or lead-in, run-out or
    /// turn radius out of range.
    public var problem: String? {
        guard gates.count >= 2 else { return "course '\(name)' has \(gates.count) gate(s): a course needs a start and a finish" }
        for gate in gates {
            guard abs(gate.centre.latitude) < 85, abs(gate.centre.longitude) <= 180, gate.courseDistance.isFinite else {
                return "gate '\(gate.name)' of course '\(name)' is not a usable place"
            }
        }
        for (a, b) in zip(gates, gates.dropFirst()) {
            let metres = Geodesy.distance(from: a.centre, to: b.centre)
            guard metres >= 1 else { return "gates '\(a.name)' and '\(b.name)' of course '\(name)' are less than 1 m apart" }
            guard metres <= 100_000 else { return "the leg from '\(a.name)' to '\(b.name)' of course '\(name)' is over 100 km" }
        }
        for (label, value) in [("lead-in", leadIn), ("run-out", runOut)] where !(value >= 20 && value <= 5000) {
            return "\(label) \(value) m is outside 20–5000 m"
        }
        guard turnRadius >= 2, turnRadius <= 100 else { return "turn radius \(turnRadius) m is outside 2–100 m" }
        return nil
    }
}
