import OarlogCore

/// How the simulated crew rows a `WorkoutPlan` (`SimulationConfiguration.workout`): which step
/// it is in, the rate and pressure of each rowed step, and each step's start as it becomes known
/// (semantics in docs/SIMULATOR.md, "Rowing a workout plan"):
///
/// - step 1 starts at the crew's first catch, `firstCatchTime` after t = 0, from rest;
/// - a timed rowed step ends exactly `seconds` after its start; a distance step ends at the
///   instant the true distance rowed since its start reaches its metres (the boat physics finds
///   it and calls `StrokePlanner.endStep(at:)`); no catch falls at or after a rowed step's end;
/// - a rest lasts exactly its time; the next step starts at its end, with a catch at that instant
///   (a standing start); a rowed step straight after another starts with a catch at the
///   previous one's end.
///
/// The planner works ahead of the physics, so the starts (`Boundary`) queue here until the
/// physics passes them and closes the truth's intervals.
struct WorkoutRowing: Sendable {
    /// Where step `step` (0-based) begins; `step == steps.count` marks the plan's end.
    struct Boundary: Sendable, Equatable {
        var step: Int
        var time: Seconds
    }

    /// The first catch of the plan, seconds after t = 0 (the boat starts at rest).
    static let firstCatchTime: Seconds = 0.5
    /// How long the simulation runs on after the plan's end (the boat glides), unless the
    /// configured duration is longer.
    static let glideAfterPlan: Seconds = 20
    /// Pressure limits when a split target sets it.
    static let powerRange: ClosedRange<Double> = 0.05...2

    let plan: WorkoutPlan
    private let profile: SimulationProfile
    /// The step the planner is placing catches in (0-based), its start, rate and pressure.
    private(set) var stepIndex = 0
    private(set) var stepStart: Seconds = 0
    private(set) var rate: StrokesPerMinute = 24
    private(set) var power: Double = 1
    /// Step starts not yet passed by the physics, in time order (a few at most).
    private var boundaries: [Boundary] = []
    /// The end of the plan's last step, once known.
    private(set) var planEnd: Seconds?

    init(plan: WorkoutPlan, profile: SimulationProfile) {
        self.plan = plan
        self.profile = profile
    }

    var steps: [WorkoutStep] { plan.steps }

    /// The first catch of the plan (step 1 starts there).
    mutating func firstCatch() -> StrokePlanner.RawCatch? {
        enter(step: 0, at: Self.firstCatchTime, afterRowedStep: false)
    }

    /// The step after the current one starts at `time` (the current one, rowed, ends there):
    /// its first catch, past any rests, or `nil` at the end of the plan.
    mutating func endCurrentStep(at time: Seconds) -> StrokePlanner.RawCatch? {
        enter(step: stepIndex + 1, at: time, afterRowedStep: true)
    }

    /// When the current step (rowed) ends if it is timed.
    var currentStepEnd: Seconds? {
        steps[stepIndex].length.seconds.map { stepStart + $0 }
    }

    /// Takes the next step start at or before `time`, if any.
    mutating func takeBoundary(through time: Seconds) -> Boundary? {
        guard let first = boundaries.first, first.time <= time else { return nil }
        boundaries.removeFirst()
        return first
    }

    /// Enters step `index` at `time`, passing rests (each lasts its time), and gives the first
    /// catch of the first rowed step reached; `nil` once the plan is over.
    private mutating func enter(step index: Int, at time: Seconds, afterRowedStep: Bool) -> StrokePlanner.RawCatch? {
        var index = index
        var time = time
        var fromRowing = afterRowedStep
        while index < steps.count {
            boundaries.append(Boundary(step: index, time: time))
            let step = steps[index]
            guard step.kind.isRowed else {
                // A rest is a time (SimulationConfiguration.validate refuses a distance rest).
                time += step.length.seconds ?? 0
                index += 1
                fromRowing = false
                continue
            }
            stepIndex = index
            stepStart = time
            (rate, power) = Self.rateAndPower(for: step.target, profile: profile.rowing(at: time))
            // "Go" at the start: the catch falls exactly there. Straight from another rowed step
            // there is no run towards the stern before it (the crew was still rowing).
            return StrokePlanner.RawCatch(nominal: time, time: time, rate: rate, power: power, startsPiece: true,
                                          flying: fromRowing, runIn: fromRowing ? 0 : nil)
        }
        boundaries.append(Boundary(step: steps.count, time: time))
        planEnd = time
        return nil
    }

    /// A rowed step's rate and pressure: a rate target's middle, else the profile's rate; the
    /// profile's pressure, unless a split target sets it so that the boat's steady mean speed is
    /// the split band's middle (`BoatResponse.targetSpeed`; the standing start's build-up makes
    /// the first strokes slower).
    static func rateAndPower(for target: WorkoutTarget, profile: (rate: StrokesPerMinute, power: Double))
        -> (rate: StrokesPerMinute, power: Double) {
        var rate = profile.rate
        var power = profile.power
        if let band = target.strokeRate { rate = (band.lowerBound + band.upperBound) / 2 }
        if let split = target.split {
            let speed = 500 / ((split.lowerBound + split.upperBound) / 2)
            let fullPressure = BoatResponse.targetSpeed(rate: rate, power: 1)
            power = min(powerRange.upperBound, max(powerRange.lowerBound, _pow(speed / fullPressure, 3)))
        }
        return (rate, power)
    }

    /// Why `plan` cannot be rowed by the simulator, or `nil`.
    static func problem(with plan: WorkoutPlan) -> String? {
        guard !plan.steps.isEmpty else { return "the workout has no steps" }
        guard plan.steps.count <= WorkoutLimits.maximumSteps else {
            return "the workout has \(plan.steps.count) steps (at most \(WorkoutLimits.maximumSteps))"
        }
        for (i, step) in plan.steps.enumerated() {
            let name = "workout step \(i + 1) (\(step.kind.rawValue))"
            switch step.length {
            case .time(let seconds):
                guard seconds > 0, seconds <= WorkoutLimits.maximumStepTime else { return "\(name): time \(seconds) s is out of range" }
            case .distance(let metres):
                guard step.kind.isRowed else { return "\(name): a rest is a time, not a distance" }
                guard metres > 0, metres <= WorkoutLimits.maximumStepDistance else { return "\(name): distance \(metres) m is out of range" }
            }
            if let band = step.target.strokeRate,
               !(band.lowerBound >= WorkoutLimits.strokeRateRange.lowerBound && band.upperBound <= WorkoutLimits.strokeRateRange.upperBound) {
                return "\(name): stroke-rate target outside \(WorkoutLimits.strokeRateRange) spm"
            }
            if let band = step.target.split,
               !(band.lowerBound >= WorkoutLimits.splitRange.lowerBound && band.upperBound <= WorkoutLimits.splitRange.upperBound) {
                return "\(name): split target outside \(WorkoutLimits.splitRange) s/500 m"
            }
        }
        return nil
    }
}

extension SimulationProfile {
    /// The rate and pressure the profile rows at `t`: its rowing segment there; in a rest or past
    /// its end, the last rowing segment before `t` (else the first one); 24 spm firm if it never rows.
    func rowing(at t: Seconds) -> (rate: StrokesPerMinute, power: Double) {
        var start: Seconds = 0
        var before: (rate: StrokesPerMinute, power: Double)?
        var first: (rate: StrokesPerMinute, power: Double)?
        for segment in segments {
            if case .rowing(let rate, let power) = segment.activity, segment.duration > 0 {
                if first == nil { first = (rate, power) }
                if start <= t { before = (rate, power) }
                if start <= t && t < start + segment.duration { return (rate, power) }
            }
            start += segment.duration
        }
        return before ?? first ?? (24, 1)
    }
}
