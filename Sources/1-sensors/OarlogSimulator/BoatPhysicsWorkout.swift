import OarlogCore

/// The boat physics' side of rowing a workout plan (`WorkoutRowing`): closing the truth's
/// intervals as the boat passes each step's start, and ending a distance step at the instant
/// the true distance reaches it.
extension BoatPhysics {
    /// No simulated boat goes faster than this (the fastest stroke, 60 spm at double pressure,
    /// peaks near 11 m/s): a distance piece more than this × the time to the next catch from its
    /// end cannot end before that catch, so the look-ahead is skipped.
    static let speedBound: MetresPerSecond = 20

    /// The physics follows a plan (and is not a look-ahead copy).
    var followsWorkout: Bool { planner.workout != nil && !isProbe }

    /// Before the catch `upcoming` is recorded: passes the step starts at or before it (a step's
    /// first catch is its own), then, in a distance step, looks ahead: if the boat, with no catch
    /// after this one, reaches the step's metres at or before the next catch the planner has
    /// placed, the step ends at that instant, that next catch is dropped, and this stroke is the
    /// piece's last (no recovery).
    mutating func prepareWorkoutCatch() {
        guard let stroke = upcoming else { return }
        passBoundaries(through: stroke.time)
        guard let open = openInterval, let metres = planner.workout?.steps[open.interval.index - 1].length.metres,
              let nextCatch = planner.followingCatchInPiece else { return }
        let target = open.startDistance + metres
        guard target - distance <= Self.speedBound * (nextCatch - time) else { return }
        if let end = crossing(of: target, from: stroke.time, by: nextCatch) {
            planner.endStep(at: end)
            upcoming?.period = nil
        }
    }

    /// Takes the step starts at or before `t` (within the current grid step): each closes the
    /// open interval there, at the true distance interpolated inside the grid step, and opens the
    /// next (none after the plan's end).
    mutating func passBoundaries(through t: Seconds) {
        while let boundary = planner.takeBoundary(through: t) {
            let distanceThere = state(at: boundary.time).distance
            if let open = openInterval { truth.record(open.closed(at: boundary.time, distance: distanceThere)) }
            openInterval = nil
            if let steps = planner.workout?.steps, boundary.step < steps.count {
                openInterval = OpenInterval(index: boundary.step + 1, kind: steps[boundary.step].kind,
                                            start: boundary.time, startDistance: distanceThere)
            }
        }
    }

    /// The first instant in [`earliest`, `limit`] at which the true distance reaches `target` if
    /// the crew takes no catch after `upcoming`, or `nil`: a copy of the physics runs ahead on the
    /// same grid (so the real boat, which then takes no such catch, reaches it at the same
    /// instant), and the instant is found by bisection inside the grid step.
    func crossing(of target: Metres, from earliest: Seconds, by limit: Seconds) -> Seconds? {
        var probe = self
        probe.isProbe = true
        probe.truth = GroundTruth(retention: .recent(0))
        probe.openInterval = nil
        while true {
            let gridEnd = probe.nextGridTime
            let reach = min(gridEnd, limit)
            if reach >= earliest && probe.state(at: reach).distance >= target {
                return probe.firstInstant(reaching: target, from: max(probe.time, earliest), by: reach)
            }
            if gridEnd >= limit { return nil }
            probe.stepOnce()
        }
    }

    /// Bisection for the distance `target` between `low` and `high`, both in the current grid step.
    func firstInstant(reaching target: Metres, from low: Seconds, by high: Seconds) -> Seconds {
        var low = low
        var high = high
        if state(at: low).distance >= target { return low }
        for _ in 0..<80 where high - low > 1e-10 {
            let middle = (low + high) / 2
            if state(at: middle).distance >= target { high = middle } else { low = middle }
        }
        return high
    }

    /// When the workout's last step ends, or `nil` without a plan: the sum of the steps' times
    /// (added in the order the planner adds them) when every step is timed, else found by running
    /// the physics alone (the same configuration rows the same strokes).
    static func workoutEnd(configuration: SimulationConfiguration) -> Seconds? {
        guard let plan = configuration.workout else { return nil }
        if plan.steps.allSatisfy({ $0.length.seconds != nil }) {
            return plan.steps.reduce(WorkoutRowing.firstCatchTime) { $0 + ($1.length.seconds ?? 0) }
        }
        var physics = BoatPhysics(configuration: configuration, retention: .recent(0))
        while physics.planner.workout?.planEnd == nil {
            physics.advance(to: physics.time + 60)
        }
        return physics.planner.workout?.planEnd
    }
}
