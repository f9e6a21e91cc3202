import OarlogCore
import OarlogPipeline
import OarlogWorkouts

/// Gathers a run's workout (the plan and each interval as the tracker concluded it) for a report:
/// the `workout` object and `intervals` array of `replay --json`, the interval table of `replay`.
/// Holds at most one interval per plan step.
public final class WorkoutCollector: PipelineSink {
    public private(set) var plan: WorkoutPlan?
    public private(set) var intervals: [WorkoutInterval] = []

    public init() {}

    public func receive(_ event: PipelineEvent) {
        guard case .workout(let e) = event else { return }
        switch e {
        case .planned(let p): plan = p
        case .interval(let i) where intervals.count < WorkoutLimits.maximumSteps: intervals.append(i)
        default: break
        }
    }

    /// `"workout": {plan…}, "intervals": […]` when the run had a plan; nothing otherwise.
    public func write(into writer: inout JSONWriter) {
        guard let plan else { return }
        writer.workoutFields(plan: plan, intervals: intervals)
    }
}

extension JSONWriter {
    /// A report's workout: the plan as `workout` and what was rowed of it as `intervals`.
    public mutating func workoutFields(plan: WorkoutPlan, intervals: [WorkoutInterval]) {
        planObject("workout", plan)
        intervalsArray(intervals)
    }
}
