import OarlogCore

/// The boat physics' side of rowing a measured course: the truth's gate crossings, timed where
/// the true distance reaches each gate centre's place on the loop (`GatePathLoop.marks`).
extension BoatPhysics {
    /// Where the `index`-th gate crossing of the session (counting round the loop, lap after lap)
    /// lies in true distance, and that crossing.
    private func gateMark(_ index: Int, on loop: GatePathLoop) -> (distance: Metres, mark: GatePathLoop.GateMark, lap: Int) {
        let perLap = loop.marks.count
        let lap = index / perLap
        let mark = loop.marks[index % perLap]
        return (Double(lap) * loop.lapLength + mark.lapDistance, mark, lap)
    }

    /// Before the grid step to `next` metres is taken: records every gate centre the boat passes
    /// in it (forward round the loop, or back over one if a standing start backs the boat over it).
    mutating func recordGateCrossings(reaching next: Metres) {
        guard let loop = course.loop, let path = gatePath, !loop.marks.isEmpty else { return }
        while true {
            let ahead = gateMark(gateMarksPassed, on: loop)
            guard next >= ahead.distance else { break }
            let t = firstInstant(reaching: ahead.distance, from: time, by: nextGridTime)
            recordCrossing(ahead.mark, lap: ahead.lap, at: t, reversed: false, path: path)
            gateMarksPassed += 1
        }
        while gateMarksPassed > 0 {
            let behind = gateMark(gateMarksPassed - 1, on: loop)
            guard next < behind.distance else { break }
            let t = lastInstant(above: behind.distance, from: time, by: nextGridTime)
            recordCrossing(behind.mark, lap: behind.lap, at: t, reversed: true, path: path)
            gateMarksPassed -= 1
        }
    }

    private mutating func recordCrossing(_ mark: GatePathLoop.GateMark, lap: Int, at t: Seconds, reversed: Bool, path: GatePath) {
        guard !isProbe else { return }
        let gate = path.gates[mark.gate]
        let forward = mark.isForward != reversed
        truth.record(GroundTruthGateCrossing(gate: mark.gate + 1, name: gate.name, courseDistance: gate.courseDistance,
                                             time: t, direction: forward ? .forward : .back,
                                             passage: 2 * lap + (mark.isForward ? 1 : 2)))
    }

    /// Bisection for the last instant the distance is still at or above `target` (the boat
    /// backing over it) between `low` and `high`, both in the current grid step.
    private func lastInstant(above target: Metres, from low: Seconds, by high: Seconds) -> Seconds {
        var low = low
        var high = high
        for _ in 0..<80 where high - low > 1e-10 {
            let middle = (low + high) / 2
            if state(at: middle).distance >= target { low = middle } else { high = middle }
        }
        return low
    }
}
