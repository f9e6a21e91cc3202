import OarlogCore

/// A simulated rowing session as a `RecordSource`: first the `.metadata` records, then
/// accelerometer samples (k / accelRate s, sensor axes per the mounting, with bias and noise)
/// and GPS fixes (j / gpsRate s, some lost to outages) merged in time order (an accelerometer
/// sample first at equal times). Everything is generated on the fly: memory does not grow with
/// the session's length (keep the truth with `.recent(n)` retention for that).
///
/// The ground truth grows as the session runs: `groundTruth` holds every catch passed so far
/// (and the true distance and speed), complete once `next()` has returned `nil`.
public struct BoatSimulator: RecordSource, Sendable {
    /// What the accelerometer's last sample was, before the mounting, bias and noise: for tests
    /// and for checking a detector against the signal it was given.
    public struct BoatFrameSample: Sendable, Equatable {
        public var time: Seconds
        /// Noise-free surge acceleration along the boat (bow positive), gravity excluded, m/s².
        public var surge: Double
        /// Noise-free specific force in the boat frame (x bow, y port, z up), gravity included.
        public var specificForce: SIMD3<Double>
        public var speed: MetresPerSecond
        public var distance: Metres
    }

    public let configuration: SimulationConfiguration
    /// The session's length: `configuration.duration`, or with a workout plan the later of that
    /// and 20 s after the plan's end (found when the simulator is made).
    public let sessionDuration: Seconds
    private var physics: BoatPhysics
    private var motion: BoatMotion
    private var gps: GPSReceiverModel
    private var accelNoise: Xoshiro256StarStar
    private let boatToSensor: Rotation3
    private let bias: SIMD3<Double>
    private let metadataEntries: [(key: String, value: String)]
    private var metadataIndex = 0
    private var accelIndex: Int64 = 0
    private var gpsIndex: Int64 = 0
    private var finished = false

    /// The last accelerometer sample in the boat frame, noise-free.
    public private(set) var lastBoatFrame: BoatFrameSample?

    /// Builds the session; throws if the configuration is not usable.
    public init(configuration: SimulationConfiguration, truthRetention: GroundTruth.Retention = .all) throws {
        try configuration.validate()
        self.configuration = configuration
        physics = BoatPhysics(configuration: configuration, retention: truthRetention)
        motion = BoatMotion(enabled: configuration.boatMotion, seed: configuration.seed)
        gps = GPSReceiverModel(configuration: configuration)
        var biasRandom = Xoshiro256StarStar(seed: configuration.seed, stream: 5)
        bias = SIMD3(biasRandom.normal(), biasRandom.normal(), biasRandom.normal()) * configuration.accelBias
        accelNoise = Xoshiro256StarStar(seed: configuration.seed, stream: 2)
        boatToSensor = configuration.mounting.sensorToBoat.transposed
        if let planEnd = BoatPhysics.workoutEnd(configuration: configuration) {
            sessionDuration = max(configuration.duration, planEnd + WorkoutRowing.glideAfterPlan)
        } else {
            sessionDuration = configuration.duration
        }
        let duration = DecimalText.fixed(sessionDuration, places: 3, nonFinite: "")
        metadataEntries = configuration.metadata.map { $0.key == "duration_s" ? ($0.key, duration) : $0 }
    }

    /// The `# key: value` lines of the trace and the truth: `configuration.metadata`, with the
    /// session's actual length as `duration_s`.
    public var metadata: [(key: String, value: String)] { metadataEntries }

    /// The truth so far: every catch passed, the true distance and speed.
    public var groundTruth: GroundTruth { physics.truth }

    /// The accelerometer's constant bias per sensor axis, m/s².
    public var accelerometerBias: SIMD3<Double> { bias }

    public mutating func next() throws -> TraceRecord? {
        if metadataIndex < metadataEntries.count {
            let entry = metadataEntries[metadataIndex]
            metadataIndex += 1
            return .metadata(key: entry.key, value: entry.value)
        }
        let end = sessionDuration
        while true {
            let accelTime = Double(accelIndex) / configuration.accelRate
            let gpsTime = Double(gpsIndex) / configuration.gpsRate
            if accelTime >= end && gpsTime >= end {
                if !finished {
                    finished = true
                    physics.finish(at: end)
                }
                return nil
            }
            if accelTime <= gpsTime {
                accelIndex += 1
                return .accel(accelSample(at: accelTime))
            }
            gpsIndex += 1
            if let fix = gpsFix(at: gpsTime) { return .fix(fix) }
        }
    }

    private mutating func accelSample(at t: Seconds) -> AccelSample {
        physics.advance(to: t)
        let state = physics.state(at: t)
        var phase = 0.0
        if let stroke = physics.latestCatch(at: t) {
            phase = (t - stroke.time) / stroke.period
            phase -= phase.rounded(.down)
        }
        let attitude = motion.attitude(at: t, phase: phase, level: physics.motionLevel)
        let cosPitch = _cos(attitude.pitch)
        let g = Double(standardGravity)
        let boatFrame = SIMD3(state.surge + g * _sin(attitude.pitch),
                              -g * cosPitch * _sin(attitude.roll),
                              g * cosPitch * _cos(attitude.roll) + attitude.heave)
        lastBoatFrame = BoatFrameSample(time: t, surge: state.surge, specificForce: boatFrame,
                                        speed: state.speed, distance: state.distance)
        let noise = configuration.accelNoise
        var sensor = boatToSensor.apply(boatFrame) + bias
        if noise > 0 {
            sensor += SIMD3(accelNoise.normal(), accelNoise.normal(), accelNoise.normal()) * noise
        }
        return AccelSample(time: t, x: MetresPerSecondSquared(sensor.x), y: MetresPerSecondSquared(sensor.y),
                           z: MetresPerSecondSquared(sensor.z))
    }

    private mutating func gpsFix(at t: Seconds) -> GPSFix? {
        physics.advance(to: t)
        let state = physics.state(at: t)
        return gps.fix(at: t, east: state.east, north: state.north, speed: state.speed,
                       bearing: physics.course.bearing(atDistance: state.distance), course: physics.course)
    }
}

extension BoatSimulator {
    /// Runs the session to its end, handing every record to `body` (for example a trace
    /// writer's `write`) and, if `truthPath` is given, writing the ground truth there as it
    /// goes. Memory stays bounded if the simulator was made with `.recent(n)` retention.
    /// Returns the final truth (totals complete).
    @discardableResult
    public mutating func run(truthPath: String? = nil, _ body: (TraceRecord) throws -> Void) throws -> GroundTruth {
        var writer = try truthPath.map { try GroundTruthWriter(path: $0, metadata: metadataEntries) }
        while let record = try next() {
            try body(record)
            try writer?.writeNew(from: groundTruth)
        }
        try writer?.finish(truth: groundTruth)
        return groundTruth
    }
}
