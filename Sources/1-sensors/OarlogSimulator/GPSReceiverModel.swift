import OarlogCore

/// A GPS receiver's view of the true track: the position with a slowly wandering error (a
/// first-order Gauss–Markov process, correlated over about a minute, like multipath and the
/// atmosphere) plus white jitter, a horizontal accuracy estimate of the size real receivers
/// report, Doppler speed with a small noise (or none, for a receiver or export that gives
/// positions only), course over ground (none when nearly stopped or without speed), and
/// occasional outages with no fixes.
struct GPSReceiverModel: Sendable {
    private var random: Xoshiro256StarStar
    private let wanderCorrelationTime: Seconds
    private let reportsSpeed: Bool
    private let wander: Metres
    private let jitter: Metres
    private let speedNoise: MetresPerSecond
    private let dropoutsPerSecond: Double
    private var wanderEast: Metres = 0
    private var wanderNorth: Metres = 0
    private var lastFixTime: Seconds?
    private var outageEnd: Seconds = -1
    private let startUTC: Double

    init(configuration: SimulationConfiguration) {
        random = Xoshiro256StarStar(seed: configuration.seed, stream: 3)
        wander = configuration.gpsWander
        jitter = configuration.gpsJitter
        speedNoise = configuration.gpsSpeedNoise
        wanderCorrelationTime = configuration.gpsWanderCorrelationTime
        reportsSpeed = configuration.gpsReportsSpeed
        dropoutsPerSecond = configuration.gpsDropoutsPerHour / 3600
        startUTC = configuration.startUTC
        wanderEast = wander * random.normal()
        wanderNorth = wander * random.normal()
    }

    /// The fix the receiver reports at `t` for the true state, or `nil` during an outage.
    /// Call with non-decreasing `t`, once per fix slot.
    mutating func fix(at t: Seconds, east: Metres, north: Metres, speed: MetresPerSecond, bearing: Double,
                      course: CoursePlane) -> GPSFix? {
        let interval = lastFixTime.map { t - $0 } ?? 1
        lastFixTime = t
        // Draw every random number every slot, outage or not, so the stream stays in step.
        let decay = _exp(-interval / wanderCorrelationTime)
        let innovation = wander * (1 - decay * decay).squareRoot()
        wanderEast = decay * wanderEast + innovation * random.normal()
        wanderNorth = decay * wanderNorth + innovation * random.normal()
        let jitterEast = jitter * random.normal()
        let jitterNorth = jitter * random.normal()
        let speedError = speedNoise * random.normal()
        let courseError = random.normal()
        let accuracyWobble = random.normal()
        let outageDraw = random.uniform()
        let outageLength = random.uniform(3, 20)
        if t < outageEnd { return nil }
        if dropoutsPerSecond > 0, outageDraw < dropoutsPerSecond * interval {
            outageEnd = t + outageLength
            return nil
        }
        let position = course.coordinates(east: east + wanderEast + jitterEast, north: north + wanderNorth + jitterNorth)
        let reportedSpeed = max(0, speed + speedError)
        var reportedCourse: Degrees?
        if reportsSpeed && speed >= 0.3 {
            // Doppler course error: the speed error turned sideways, as an angle.
            var degrees = bearing * radiansToDegrees + courseError * speedNoise / speed * radiansToDegrees
            degrees = degrees.truncatingRemainder(dividingBy: 360)
            if degrees < 0 { degrees += 360 }
            reportedCourse = degrees
        }
        let sigma = (wander * wander + jitter * jitter).squareRoot()
        let accuracy = max(0.5, (0.8 + 2.0 * sigma) * (1 + 0.1 * accuracyWobble))
        return GPSFix(time: t, utc: startUTC + t, latitude: position.latitude, longitude: position.longitude,
                      speed: reportsSpeed ? reportedSpeed : nil, course: reportedCourse, horizontalAccuracy: accuracy,
                      altitude: 5 + 0.5 * sigma * accuracyWobble, mode: .threeD,
                      satellitesUsed: max(4, 9 + Int((2 * accuracyWobble).rounded())))
    }
}
