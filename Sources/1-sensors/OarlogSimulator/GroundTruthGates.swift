import OarlogCore

/// The simulated boat crossing one gate of a measured course (`SimulationConfiguration.Course.gates`):
/// what a course timer should find. Definitions in docs/SIMULATOR.md.
public struct GroundTruthGateCrossing: Sendable, Equatable {
    /// Which way the boat crossed.
    public enum Direction: String, Sendable, Equatable {
        /// Up the course: from the start towards the finish.
        case forward
        /// Down it: the wrong way.
        case back
    }

    /// The gate's position in the course, 1-based (the start is 1, the finish the last).
    public var gate: Int
    public var name: String
    /// The gate's distance along the course, as the course gives it.
    public var courseDistance: Metres
    /// The instant the true track crosses the gate's centre, seconds from the trace start
    /// (interpolated inside the physics' 4 ms integration step).
    public var time: Seconds
    public var direction: Direction
    /// Which run along the course: 1 for the first (up the course from the lead-in), 2 for the
    /// first run back after the turn, and so on — odd passages forward, even ones back.
    public var passage: Int

    public init(gate: Int, name: String, courseDistance: Metres, time: Seconds, direction: Direction, passage: Int) {
        self.gate = gate
        self.name = name
        self.courseDistance = courseDistance
        self.time = time
        self.direction = direction
        self.passage = passage
    }
}

extension GroundTruth {
    /// The passages that crossed every gate of a course of `gateCount` gates forward, in order,
    /// start first: each passage's crossings (what a course timer should find as complete pieces).
    public func completeForwardPassages(gateCount: Int) -> [[GroundTruthGateCrossing]] {
        var byPassage: [Int: [GroundTruthGateCrossing]] = [:]
        for crossing in gateCrossings where crossing.direction == .forward {
            byPassage[crossing.passage, default: []].append(crossing)
        }
        return byPassage.keys.sorted().compactMap { key in
            let crossings = byPassage[key] ?? []
            return crossings.map(\.gate) == Array(1...max(1, gateCount)) ? crossings : nil
        }
    }
}
