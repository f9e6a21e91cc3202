import OarlogCore

/// The workout plan in a FIT activity, as Garmin's devices write one they row: the `workout`
/// (sport rowing, `num_valid_steps`, `wkt_name`) and one `workout_step` per step
/// (`message_index` = the step's index, which each lap's `wkt_step_index` names):
/// - `duration_type` time (0) with `duration_value` in ms, or distance (1) in cm;
/// - `intensity` active (0) for a piece, rest (1), warmup (2), cooldown (3);
/// - `target_type` cadence (3) with `custom_target_value_low/high` the rate band in whole strokes
///   per minute (the band widened to whole numbers), or speed (0) with the split band as speeds
///   in mm/s (500 m ÷ the slower split is the low end); `target_value` 0 (a custom band, not a
///   zone). A piece with both bands has the rate as its target and the split as its secondary
///   target (`secondary_target_type` and its custom values, fields 19–22); without a band (and
///   in every rest) the target is open (2);
/// - `wkt_step_name`: the step's label, when any step has one.
extension FITExporter {
    /// A lap of a session with a plan: the lap fields and `wkt_step_index` (71).
    static let workoutLap = FITEncoder.Definition(localType: 6, globalNumber: 19, fields: lapFields + [F(71, .uint16)])

    static func workoutDefinition(_ plan: WorkoutPlan) -> FITEncoder.Definition {
        FITEncoder.Definition(localType: 7, globalNumber: 26, fields: [
            F(4, .enumeration), F(11, .enumeration), F(6, .uint16), F(8, .string, size: FITEncoder.stringSize(plan.name)),
        ])
    }

    /// The `workout_step` layout; with `wkt_step_name` sized for the longest label, if any.
    static func workoutStepDefinition(_ plan: WorkoutPlan) -> FITEncoder.Definition {
        let labels = plan.steps.compactMap(\.label).filter { !$0.isEmpty }
        var fields = [F(254, .uint16)]
        if let longest = labels.map(FITEncoder.stringSize).max() { fields.append(F(0, .string, size: longest)) }
        fields += [
            F(1, .enumeration), F(2, .uint32), F(3, .enumeration), F(4, .uint32), F(5, .uint32), F(6, .uint32),
            F(7, .enumeration), F(19, .enumeration), F(20, .uint32), F(21, .uint32), F(22, .uint32),
        ]
        return FITEncoder.Definition(localType: 8, globalNumber: 27, fields: fields)
    }

    /// A target as FIT writes it: its type, `target_value` and custom low and high.
    struct StepTarget: Equatable {
        /// nil: no target (an unused secondary target).
        var type: Int64?
        var value: Int64?
        var low: Int64?
        var high: Int64?

        static let open = StepTarget(type: Profile.targetOpen)
        static let none = StepTarget(type: nil)
    }

    /// A step's target and secondary target (`none` when it has at most one band).
    static func targets(of step: WorkoutStep) -> (primary: StepTarget, secondary: StepTarget) {
        guard step.kind != .rest else { return (.open, .none) }
        var bands: [StepTarget] = []
        if let rate = step.target.strokeRate, rate.lowerBound.isFinite, rate.upperBound.isFinite {
            bands.append(StepTarget(type: Profile.targetCadence, value: 0, low: Int64(rate.lowerBound.rounded(.down)),
                                    high: Int64(rate.upperBound.rounded(.up))))
        }
        if let split = step.target.split, split.lowerBound > 0, split.upperBound > 0 {
            bands.append(StepTarget(type: Profile.targetSpeed, value: 0, low: FITEncoder.scaled(500 / split.upperBound, 1000),
                                    high: FITEncoder.scaled(500 / split.lowerBound, 1000)))
        }
        return (bands.first ?? .open, bands.count > 1 ? bands[1] : .none)
    }

    static func intensity(_ intensity: LapIntensity) -> Int64 {
        switch intensity {
        case .active: return Profile.intensityActive
        case .rest: return Profile.intensityRest
        case .warmup: return Profile.intensityWarmup
        case .cooldown: return Profile.intensityCooldown
        }
    }

    /// The `workout` and its `workout_step`s (once a file).
    func writeWorkout(_ plan: WorkoutPlan) throws {
        guard let e = encoder, !wroteWorkout else { return }
        wroteWorkout = true
        try e.write(Self.workoutDefinition(plan)) { m in
            m.put(Profile.sportRowing); m.put(Profile.subSportGeneric); m.put(Int64(plan.steps.count))
            m.put(text: plan.name)
        }
        let definition = Self.workoutStepDefinition(plan)
        let named = definition.fields.contains { $0.number == 0 }
        for (index, step) in plan.steps.enumerated() {
            let (target, secondary) = Self.targets(of: step)
            try e.write(definition) { m in
                m.put(Int64(index))
                if named { m.put(text: step.label) }
                switch step.length {
                case .time(let seconds): m.put(Profile.durationTime); m.put(FITEncoder.scaled(seconds, 1000))
                case .distance(let metres): m.put(Profile.durationDistance); m.put(FITEncoder.scaled(metres, 100))
                }
                m.put(target.type); m.put(target.value); m.put(target.low); m.put(target.high)
                m.put(Self.intensity(LapIntensity(step.kind)))
                m.put(secondary.type); m.put(secondary.value); m.put(secondary.low); m.put(secondary.high)
            }
        }
    }
}
