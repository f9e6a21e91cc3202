import OarlogCore
import OarlogWorkouts

/// The laps of a session that rows a workout plan: one per step, from the step's start to its end
/// as the workout tracker timed them, and a lap for the time before the plan starts and after it
/// ends, so that the laps still partition the session.
///
/// Fed the tracker's events as the pipeline sends them: each `.started` (and the `.finished`) is a
/// lap boundary, queued in time order until the assembler's held-back points and strokes reach it;
/// each `.interval` holds the step's figures (strokes, mean rate) until its lap closes. Both are
/// bounded by the plan's steps (`WorkoutLimits.maximumSteps`).
struct WorkoutLaps: Sendable {
    /// The part of the session a lap covers.
    enum Segment: Sendable, Equatable {
        /// From the first record to the plan's start (the first catch, or the go).
        case beforePlan
        /// Step `n` (0-based) of the plan.
        case step(Int)
        /// From the end of the plan's last step to the end of the session.
        case afterPlan
    }

    /// Where a segment begins.
    struct Boundary: Sendable {
        var time: Seconds
        var segment: Segment

        /// Whether an item at `time` belongs after this boundary: a step owns a catch at its very
        /// start (the first catch starts the plan); the time after the plan begins only after
        /// the last step's end, so a session stopped inside the plan has no empty lap after it.
        func precedes(_ itemTime: Seconds) -> Bool {
            segment == .afterPlan ? time < itemTime : time <= itemTime
        }
    }

    let plan: WorkoutPlan
    private var boundaries = ExportQueue<Boundary>()
    private var intervals: [Int: WorkoutInterval] = [:]

    init(plan: WorkoutPlan) {
        self.plan = plan
    }

    /// One tracker event (the plan itself and the live status need nothing here).
    mutating func receive(_ event: WorkoutEvent) {
        switch event {
        case .started(let step, let time):
            guard time.isFinite, plan.steps.indices.contains(step), boundaries.count <= plan.steps.count else { return }
            boundaries.append(Boundary(time: time, segment: .step(step)))
        case .finished(let time):
            guard time.isFinite, boundaries.count <= plan.steps.count else { return }
            boundaries.append(Boundary(time: time, segment: .afterPlan))
        case .interval(let interval):
            guard plan.steps.indices.contains(interval.stepIndex) else { return }
            intervals[interval.stepIndex] = interval
        case .planned, .status:
            break
        }
    }

    /// The next boundary that an item at `time` lies past, removed from the queue.
    mutating func boundary(before time: Seconds) -> Boundary? {
        guard let b = boundaries.first, b.precedes(time) else { return nil }
        return boundaries.removeFirst()
    }

    /// The next boundary strictly before `time` (the session's end), removed; later ones are dropped.
    mutating func boundary(strictlyBefore time: Seconds) -> Boundary? {
        while let b = boundaries.first {
            boundaries.removeFirst()
            if b.time < time { return b }
        }
        return nil
    }

    /// The tracker's figures for step `index`, removed (nil when it has not reported them).
    mutating func takeInterval(step index: Int) -> WorkoutInterval? {
        intervals.removeValue(forKey: index)
    }

    /// A segment's intensity: a step's own, `rest` while waiting for the start, `active` after the plan.
    func intensity(_ segment: Segment) -> LapIntensity {
        switch segment {
        case .beforePlan: return .rest
        case .step(let n): return LapIntensity(plan.steps[n].kind)
        case .afterPlan: return .active
        }
    }

    /// Why a segment ended at the next one's boundary: a step by its length (time or distance),
    /// the wait by the plan's start.
    func trigger(endingAtBoundary segment: Segment) -> LapTrigger {
        switch segment {
        case .beforePlan: return .workoutStart
        case .step(let n):
            if case .distance = plan.steps[n].length { return .distance }
            return .time
        case .afterPlan: return .sessionEnd
        }
    }
}
