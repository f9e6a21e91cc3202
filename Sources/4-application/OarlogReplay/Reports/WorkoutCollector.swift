import OarlogCore
import OarlogPipeline
import OarlogWorkouts

/// Gathers a run's workout (the plan and each interval as the tracker concluded it) for a report:
/// the `workout` object and `intervals` array of `replay --json`, the interval table of `replay`.
/// Holds at most one interval per plan step.
///
/// It also takes the raw heart rates and oarlock strokes into the step under way (from its
/// `started` event to the next step's or the plan's end): each interval's `IntervalDeviceFigures`.
public final class WorkoutCollector: PipelineSink {

    /// The boat speed's events (ten a second) carry nothing this sink keeps.
    public var wantsBoatSpeed: Bool { false }
    public private(set) var plan: WorkoutPlan?
    public private(set) var intervals: [WorkoutInterval] = []
    /// Each step's heart rate and oarlock figures, by step index.
    public private(set) var deviceFigures: [Int: IntervalDeviceFigures] = [:]
    private var currentStep: Int?

    public init() {}

    public var wantsRawRecords: Bool { true }

    /// Accelerometer samples carry nothing this collector keeps.
    public func receive(accel samples: UnsafeBufferPointer<AccelSample>) {}

    public func receive(_ event: PipelineEvent) {
        switch event {
        case .record(let r):
            switch r {
            case .heartRate, .oarlock:
                if let step = currentStep { deviceFigures[step, default: IntervalDeviceFigures()].add(r) }
            default: break
            }
        case .workout(let e):
            switch e {
            case .planned(let p): plan = p
            case .started(let step, _) where step < WorkoutLimits.maximumSteps: currentStep = step
            case .finished: currentStep = nil
            case .interval(let i) where intervals.count < WorkoutLimits.maximumSteps: intervals.append(i)
            default: break
            }
        default:
            break
        }
    }

    /// `"workout": {plan…}, "intervals": […]` when the run had a plan; nothing otherwise.
    public func write(into writer: inout JSONWriter) {
        guard let plan else { return }
        writer.workoutFields(plan: plan, intervals: intervals, deviceFigures: deviceFigures)
    }
}

extension JSONWriter {
    /// A report's workout: the plan as `workout` and what was rowed of it as `intervals`; with
    /// `deviceFigures` (a replay's), each interval has its heart rate and oarlock keys.
    public mutating func workoutFields(plan: WorkoutPlan, intervals: [WorkoutInterval],
                                       deviceFigures: [Int: IntervalDeviceFigures]? = nil) {
        planObject("workout", plan)
        intervalsArray(intervals, deviceFigures: deviceFigures)
    }
}
