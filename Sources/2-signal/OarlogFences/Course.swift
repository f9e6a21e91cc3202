import OarlogCore

/// A course: gates in the order they are rowed (start, markers, finish) and each gate's distance
/// from the start line.
public struct Course: Sendable, Equatable {
    public var name: String
    public var gates: [FenceID]
    /// Distance of each gate from the start line along the course, metres (the first is 0).
    public var distances: [Metres]

    public init(name: String, gates: [FenceID], distances: [Metres]) {
        precondition(gates.count == distances.count, "one distance per gate")
        self.name = name
        self.gates = gates
        self.distances = distances
    }

    public var length: Metres { distances.last ?? 0 }
}
