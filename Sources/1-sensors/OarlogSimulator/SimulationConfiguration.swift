import OarlogCore

/// A configuration value the simulator could not accept; the message says which and why.
public struct SimulationConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Everything that defines a simulated session. The same configuration (seed included) always
/// gives the same records and the same ground truth.
public struct SimulationConfiguration: Sendable, Equatable {
    /// The course the boat follows.
    public enum Course: Sendable, Equatable {
        /// A straight line at `heading` from the start point.
        case straight
        /// A river-like meander: the heading swings ±`amplitude` degrees about `heading` with a
        /// period of `wavelength` metres along the course.
        case curving(amplitude: Degrees, wavelength: Metres)
        /// A measured course rowed up and down for the whole session: the boat starts a lead-in
        /// before the start gate, rows through every gate centre to past the finish, turns, rows
        /// back down the course, and so on (`GatePath`; `startLatitude`, `startLongitude` and
        /// `heading` are then not used). The truth lists every gate crossing.
        case gates(GatePath)
    }

    /// Session length. With a `workout`, the least length (0 allowed): the session runs to 20 s
    /// after the plan's end if that is later.
    public var duration: Seconds
    /// What the crew rows; with a `workout`, only the rate and pressure of steps without a rate
    /// or split target (the profile's at the step's start; see `WorkoutRowing`).
    public var profile: SimulationProfile
    /// A workout plan the crew rows from its first catch (docs/SIMULATOR.md, "Rowing a workout
    /// plan"); the truth then lists its intervals (`GroundTruth.intervals`).
    public var workout: WorkoutPlan?
    /// Accelerometer sample rate; sample k is at exactly k / accelRate seconds.
    public var accelRate: Hertz = 100
    /// GPS fix rate; fix j is at exactly j / gpsRate seconds (unless it drops out).
    public var gpsRate: Hertz = 1
    public var mounting: Mounting = .flat
    public var seed: UInt64 = 1

    // Accelerometer errors.
    /// White noise standard deviation per axis, m/s².
    public var accelNoise: Double = 0.05
    /// Standard deviation of the constant per-axis bias drawn from the seed, m/s².
    public var accelBias: Double = 0.08

    /// Boat motion besides surge: heave at the stroke frequency and its harmonic, pitch with the
    /// stroke, slow roll and wave chop. Off gives a level boat with surge only.
    public var boatMotion: Bool = true

    // GPS errors.
    /// Standard deviation of the slowly wandering (Gauss–Markov) position error per axis, metres.
    public var gpsWander: Metres = 1.5
    /// Correlation time of the wandering error, seconds (about a minute for a consumer receiver).
    public var gpsWanderCorrelationTime: Seconds = 60
    /// Standard deviation of the white position error per axis (fix-to-fix jitter), metres.
    public var gpsJitter: Metres = 0.3
    /// Standard deviation of the receiver's (Doppler) speed error, m/s; 0.05–0.1 for consumer
    /// receivers.
    public var gpsSpeedNoise: MetresPerSecond = 0.07
    /// Whether fixes carry the receiver's speed and course; off simulates a positions-only trace
    /// (an NMEA GGA/GLL stream, a track export).
    public var gpsReportsSpeed: Bool = true
    /// Mean number of GPS outages per hour (0: none). Each lasts 3–20 s; no fixes come in it.
    public var gpsDropoutsPerHour: Double = 4

    // Place and time.
    public var startLatitude: Degrees = 51.4873
    public var startLongitude: Degrees = -0.2241
    /// Course at the start, degrees clockwise from true north.
    public var heading: Degrees = 92.5
    public var course: Course = .straight
    /// UTC of t = 0, seconds since 1970-01-01.
    public var startUTC: Double = UTCTime.epochSeconds(year: 2026, month: 5, day: 2, hour: 7)

    public init(duration: Seconds, profile: SimulationProfile) {
        self.duration = duration
        self.profile = profile
    }

    /// Rowing `workout` from rest: steps without a rate target at `rate`, without a split target
    /// at pressure `power`; the session ends 20 s after the plan.
    public init(workout: WorkoutPlan, rate: StrokesPerMinute = 24, power: Double = 1) {
        self.init(duration: 0, profile: .constant(rate: rate, power: power, duration: 60))
        self.workout = workout
    }

    /// Rowing at `rate` for `minutes`, flying start.
    public init(minutes: Double, rate: StrokesPerMinute = 24) {
        self.init(duration: minutes * 60, profile: .constant(rate: rate, duration: minutes * 60))
    }

    public var minutes: Double {
        get { duration / 60 }
        set { duration = newValue * 60 }
    }

    /// Multiplies every noise level (accelerometer noise and bias, GPS position, speed) by
    /// `scale`; 0 makes the sensors perfect (GPS outages are set separately).
    public func withNoise(scale: Double) -> SimulationConfiguration {
        var copy = self
        copy.accelNoise *= scale
        copy.accelBias *= scale
        copy.gpsWander *= scale
        copy.gpsJitter *= scale
        copy.gpsSpeedNoise *= scale
        return copy
    }

    /// Parses a noise level: `none` (0), `low` (0.5), `normal` (1), `high` (2.5) or a number
    /// (a multiplier on the default noise levels).
    public static func parseNoiseScale(_ text: String) throws -> Double {
        switch text.trimmingWhitespace().lowercased() {
        case "none", "off": return 0
        case "low": return 0.5
        case "normal", "default": return 1
        case "high": return 2.5
        case let other:
            guard let value = Double(other), value >= 0, value.isFinite else {
                throw SimulationConfigurationError("noise '\(text)': expected none, low, normal, high or a multiplier ≥ 0")
            }
            return value
        }
    }

    /// Checks the values make a session the simulator can produce.
    public func validate() throws {
        guard duration > 0 || (workout != nil && duration == 0), duration.isFinite else {
            throw SimulationConfigurationError("duration must be > 0 s")
        }
        if let workout, let problem = WorkoutRowing.problem(with: workout) { throw SimulationConfigurationError(problem) }
        if case .gates(let path) = course, let problem = path.problem { throw SimulationConfigurationError(problem) }
        guard accelRate >= 1, accelRate <= 10_000 else {
            throw SimulationConfigurationError("accelerometer rate \(accelRate) Hz is outside 1–10000 Hz")
        }
        guard gpsRate > 0, gpsRate <= 50 else { throw SimulationConfigurationError("GPS rate \(gpsRate) Hz is outside (0, 50] Hz") }
        guard abs(startLatitude) < 85, abs(startLongitude) <= 180 else {
            throw SimulationConfigurationError("start position \(startLatitude), \(startLongitude) is out of range")
        }
        for value in [accelNoise, accelBias, gpsWander, gpsJitter, gpsSpeedNoise, gpsDropoutsPerHour] {
            guard value >= 0, value.isFinite else { throw SimulationConfigurationError("noise levels must be ≥ 0") }
        }
        guard gpsWanderCorrelationTime > 0, gpsWanderCorrelationTime.isFinite else {
            throw SimulationConfigurationError("GPS wander correlation time must be > 0 s")
        }
        for segment in profile.segments {
            guard segment.duration >= 0 else { throw SimulationConfigurationError("profile segment with negative duration") }
            if case .rowing(let rate, let power) = segment.activity {
                guard rate >= 10, rate <= 60 else { throw SimulationConfigurationError("rate \(rate) spm is outside 10–60") }
                guard power > 0, power <= 2 else { throw SimulationConfigurationError("power \(power) is outside (0, 2]") }
            }
        }
    }

    /// The `# key: value` lines a trace of this session carries.
    public var metadata: [(key: String, value: String)] {
        var entries: [(key: String, value: String)] = [
            ("start_utc", UTCTime.iso8601(startUTC)),
            ("device", "oarlog-simulator"),
            ("accel_hz", DecimalText.fixed(accelRate, places: accelRate.rounded() == accelRate ? 0 : 3, nonFinite: "")),
            ("gps_hz", DecimalText.fixed(gpsRate, places: gpsRate.rounded() == gpsRate ? 0 : 3, nonFinite: "")),
            ("mounting", mounting.description),
            ("profile", profile.name),
            ("seed", String(seed)),
            ("duration_s", DecimalText.fixed(duration, places: 3, nonFinite: "")),
        ]
        if let workout { entries.append(("workout", workout.name)) }
        if case .gates(let path) = course { entries.append(("course", Self.oneLine(path.name))) }
        return entries
    }
}

extension SimulationConfiguration {
    /// Whether `text` names a course shape (`straight`, `curving`) rather than a course file.
    public static func isCourseShape(_ text: String) -> Bool {
        ["straight", "curving", "curved", "river"].contains(text.trimmingWhitespace().lowercased())
    }

    /// `text` on one line (a metadata value): control characters become spaces.
    static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }

    /// Builds a configuration from the `oarlog simulate` options (strings as typed; `nil` means
    /// the option was not given): `--minutes`, `--rate`, `--accel-hz`, `--gps-hz`, `--profile`
    /// (`constant`, `constant:24`, `workout`, `ladder` or a segment list), `--mounting` (a preset
    /// or `yaw=…,pitch=…,roll=…`), `--seed`, `--noise` (`none`, `low`, `normal`, `high` or a
    /// multiplier), `--start-utc` (ISO 8601), `--heading` (degrees), `--course` (`straight` or
    /// `curving`), `--dropouts` (GPS outages per hour), `--start` (`LAT,LON` in degrees),
    /// `--workout` (a plan already read; then `minutes` is the least length and may be 0),
    /// `measuredCourse` (`--course FILE`, the file already read: then `course`, `start` and
    /// `heading` must be `nil`).
    public static func fromOptions(minutes: Double, rate: StrokesPerMinute = 24, accelHz: Hertz = 100,
                                   gpsHz: Hertz = 1, profile: String? = nil, mounting: String? = nil,
                                   seed: UInt64? = nil, noise: String? = nil, startUTC: String? = nil,
                                   heading: Degrees? = nil, course: String? = nil,
                                   dropoutsPerHour: Double? = nil, start: String? = nil,
                                   workout: WorkoutPlan? = nil, measuredCourse: GatePath? = nil) throws -> SimulationConfiguration {
        let duration = minutes * 60
        guard duration > 0 || (workout != nil && duration == 0), duration.isFinite else {
            throw SimulationConfigurationError("--minutes must be > 0")
        }
        // With a plan the profile only gives rates: long enough for any plan's steps to look up.
        let profileDuration = workout == nil ? duration : max(duration, 6 * 3600)
        var configuration = SimulationConfiguration(
            duration: duration, profile: try SimulationProfile.parse(profile ?? "constant", duration: profileDuration, rate: rate))
        configuration.workout = workout
        configuration.accelRate = accelHz
        configuration.gpsRate = gpsHz
        if let mounting { configuration.mounting = try Mounting.parse(mounting) }
        if let seed { configuration.seed = seed }
        if let noise { configuration = configuration.withNoise(scale: try parseNoiseScale(noise)) }
        if let startUTC {
            guard let epoch = UTCTime.parseTypedUTC(startUTC) else {
                throw SimulationConfigurationError("--start-utc '\(startUTC)': expected YYYY-MM-DDTHH:MM:SS[.fff]Z")
            }
            configuration.startUTC = epoch
        }
        if let heading { configuration.heading = heading }
        if let start {
            let parts = start.split(separator: ",").map { Double($0.trimmingWhitespace()) }
            guard parts.count == 2, let lat = parts[0], let lon = parts[1] else {
                throw SimulationConfigurationError("--start '\(start)': expected LAT,LON in degrees, e.g. 51.4873,-0.2241")
            }
            configuration.startLatitude = lat
            configuration.startLongitude = lon
        }
        switch course?.trimmingWhitespace().lowercased() {
        case nil, "straight": break
        case "curving", "curved", "river": configuration.course = .curving(amplitude: 25, wavelength: 3000)
        case let other?: throw SimulationConfigurationError("--course '\(other)': expected straight, curving or a course file")
        }
        if let measuredCourse {
            guard course == nil, start == nil, heading == nil else {
                throw SimulationConfigurationError(
                    "--start and --heading do not go with a course file: the boat starts \(Int(measuredCourse.leadIn)) m before its start gate")
            }
            configuration.course = .gates(measuredCourse)
        }
        if let dropoutsPerHour { configuration.gpsDropoutsPerHour = dropoutsPerHour }
        try configuration.validate()
        return configuration
    }
}
