import OarlogCore

/// The boat's motion along the course: surge acceleration = stroke force − drag, integrated
/// on a fixed 4 ms grid (Heun's rule for speed, trapezoid for distance), so the speed
/// is exactly what the acceleration says and the truth does not depend on the sensor rates.
/// Samples between grid points are taken with a partial step from the last grid point.
///
/// It also places the catches (from the `StrokePlanner`) and records each into the
/// `GroundTruth` as the boat passes it.
struct BoatPhysics: Sendable {
    static let step: Seconds = 0.004

    /// The boat's state at one instant.
    struct State: Sendable {
        var speed: MetresPerSecond
        var distance: Metres
        var east: Metres
        var north: Metres
        /// Noise-free surge acceleration, m/s².
        var surge: Double
    }

    private var stepIndex: Int64 = 0
    /// Stroke force at the last grid point.
    private var strokeForceNow: Double = 0
    private(set) var speed: MetresPerSecond
    private(set) var distance: Metres = 0
    private(set) var east: Metres = 0
    private(set) var north: Metres = 0
    /// Size of the stroke-driven heave and pitch, following the crew's effort with a 3 s lag.
    private(set) var motionLevel: Double
    var planner: StrokePlanner
    private(set) var current: PlannedCatch?
    var upcoming: PlannedCatch?
    /// Last known stroke period, to carry the stroke phase through rests.
    private(set) var lastPeriod: Seconds = 2.5
    let course: CoursePlane
    private let straightSin: Double
    private let straightCos: Double
    private let isStraight: Bool
    var truth: GroundTruth
    /// The true speed since the latest catch: lowest, highest, its integral, and that catch.
    private var strokeSpeed = (minimum: Double.infinity, maximum: -Double.infinity, integral: 0.0, catchTime: Seconds.nan)
    /// With a workout plan: the step being rowed, closed into the truth at its end.
    var openInterval: OpenInterval?
    /// A copy running ahead to see where a distance piece ends (BoatPhysicsWorkout): it takes no
    /// more catches from the planner and keeps no workout truth.
    var isProbe = false
    /// On a measured course: its gates (names and course distances, for the truth), the gate
    /// crossings of the loop passed so far (BoatPhysicsCourse), and whether the boat is in a turn
    /// (decided at each grid point: the crew rows light and the boat is steered hard).
    let gatePath: GatePath?
    var gateMarksPassed = 0
    private(set) var isTurning = false

    init(configuration: SimulationConfiguration, retention: GroundTruth.Retention) {
        planner = StrokePlanner(profile: configuration.profile, duration: configuration.duration, seed: configuration.seed,
                                workout: configuration.workout)
        speed = planner.initialSpeed
        motionLevel = planner.initialMotionLevel
        course = CoursePlane(configuration: configuration)
        isStraight = configuration.course == .straight
        if case .gates(let path) = configuration.course { gatePath = path } else { gatePath = nil }
        straightSin = _sin(course.heading)
        straightCos = _cos(course.heading)
        truth = GroundTruth(retention: retention)
        if let start = course.loop?.place(atDistance: 0) { (east, north) = (start.east, start.north) }
        upcoming = planner.next()
        strokeForceNow = upcoming?.strokeAcceleration(at: 0) ?? 0
        truth.update(elapsed: 0, distance: 0, speed: speed)
    }

    /// Time of the last grid point reached.
    var time: Seconds { Double(stepIndex) * Self.step }
    /// Time of the next grid point.
    var nextGridTime: Seconds { Double(stepIndex + 1) * Self.step }

    /// Stroke force per unit mass at `t` (drag excluded).
    @inline(__always)
    func strokeAcceleration(at t: Seconds) -> Double {
        let force = (current?.strokeAcceleration(at: t) ?? 0) + (upcoming?.strokeAcceleration(at: t) ?? 0)
        return isTurning ? force * BoatResponse.turnPressure : force
    }

    /// Drag deceleration at `v`, larger in a turn.
    @inline(__always)
    func drag(_ v: MetresPerSecond) -> Double {
        isTurning ? BoatResponse.turnDrag * BoatResponse.drag(v) : BoatResponse.drag(v)
    }

    private func isForceFree(at t: Seconds) -> Bool {
        (current.map { $0.isFinished(at: t) } ?? true) && (upcoming.map { t <= $0.time - $0.runIn } ?? true)
    }

    /// Speed `dt` after the last grid point (0 ≤ dt ≤ step), by Heun's rule (second order;
    /// the stroke force at the grid point is kept from the step before, so a step costs one
    /// evaluation of the stroke shape).
    @inline(__always)
    private func speed(after dt: Seconds, strokeForceAtEnd: Double) -> MetresPerSecond {
        let a0 = strokeForceNow - drag(speed)
        let predicted = speed + dt * a0
        let a1 = strokeForceAtEnd - drag(predicted)
        return speed + 0.5 * dt * (a0 + a1)
    }

    /// The state at `t`, which must lie in [time, time + step].
    func state(at t: Seconds) -> State {
        let dt = t - time
        let force = strokeAcceleration(at: t)
        let v = dt > 0 ? speed(after: dt, strokeForceAtEnd: force) : speed
        let ds = dt * (speed + v) / 2
        if let loop = course.loop {
            let place = loop.place(atDistance: distance + ds)
            return State(speed: v, distance: distance + ds, east: place.east, north: place.north, surge: force - drag(v))
        }
        let bearingSin: Double, bearingCos: Double
        if isStraight {
            bearingSin = straightSin
            bearingCos = straightCos
        } else {
            let b = course.bearing(atDistance: distance + ds / 2)
            bearingSin = _sin(b)
            bearingCos = _cos(b)
        }
        return State(speed: v, distance: distance + ds, east: east + ds * bearingSin, north: north + ds * bearingCos,
                     surge: force - drag(v))
    }

    /// Runs the grid forward to the last grid point at or before `t`.
    mutating func advance(to t: Seconds) {
        while Double(stepIndex + 1) * Self.step <= t {
            stepOnce()
        }
    }

    /// Runs to `end` exactly (the session's end), records any catch left, and closes the truth.
    mutating func finish(at end: Seconds) {
        advance(to: end)
        if let up = upcoming, up.time <= end { recordCatch(up) }
        if followsWorkout { passBoundaries(through: end) }
        let final = state(at: end)
        truth.update(elapsed: end, distance: final.distance, speed: final.speed)
        truth.markComplete()
    }

    private mutating func recordCatch(_ stroke: PlannedCatch) {
        let atCatch = state(at: stroke.time)
        // The previous stroke of the piece ends here: its speed through the stroke (on the grid).
        if let previous = stroke.previousCatchTime, previous == strokeSpeed.catchTime, stroke.time > previous,
           truth.lastStroke?.index == stroke.index - 1 {
            truth.completeLastStroke(minimumSpeed: min(strokeSpeed.minimum, atCatch.speed),
                                     maximumSpeed: max(strokeSpeed.maximum, atCatch.speed),
                                     meanSpeed: strokeSpeed.integral / (stroke.time - previous))
        }
        strokeSpeed = (atCatch.speed, atCatch.speed, 0, stroke.time)
        openInterval?.count(catchAt: stroke.time)
        // The stroke's own rate: its planned next catch is `period` away.
        let rate = stroke.period.map { 60 / $0 }
        truth.record(GroundTruthStroke(
            index: stroke.index, catchTime: stroke.time, strokeRate: rate, driveDuration: stroke.driveDuration,
            recoveryDuration: stroke.period.map { $0 - stroke.driveDuration }, distance: atCatch.distance,
            catchAcceleration: MetresPerSecondSquared(atCatch.surge), profileRate: stroke.rate))
    }

    mutating func stepOnce() {
        let nextTime = Double(stepIndex + 1) * Self.step
        if let up = upcoming, up.time <= nextTime {
            if followsWorkout { prepareWorkoutCatch() }
            recordCatch(upcoming ?? up)
        }
        if followsWorkout { passBoundaries(through: nextTime) }
        let forceAtEnd = strokeAcceleration(at: nextTime)
        let v1 = speed(after: Self.step, strokeForceAtEnd: forceAtEnd)
        let ds = Self.step * (speed + v1) / 2
        if let loop = course.loop {
            recordGateCrossings(reaching: distance + ds)
            let place = loop.place(atDistance: distance + ds)
            (east, north) = (place.east, place.north)
        } else if isStraight {
            east += ds * straightSin
            north += ds * straightCos
        } else {
            let b = course.bearing(atDistance: distance + ds / 2)
            east += ds * _sin(b)
            north += ds * _cos(b)
        }
        distance += ds
        if strokeSpeed.catchTime.isFinite {
            strokeSpeed.minimum = min(strokeSpeed.minimum, v1)
            strokeSpeed.maximum = max(strokeSpeed.maximum, v1)
            strokeSpeed.integral += ds
        }
        speed = v1
        stepIndex += 1
        if let up = upcoming, up.time <= nextTime {
            current = up
            upcoming = isProbe ? nil : planner.next()
            if let period = up.period { lastPeriod = period }
        }
        // The same value after the swap: the old stroke has finished, the new one is far ahead.
        strokeForceNow = forceAtEnd
        // (A standing start may back a few centimetres: that is not the turn behind the lead-in point.)
        if let loop = course.loop, (distance > 0 && loop.place(atDistance: distance).isTurning) != isTurning {
            isTurning.toggle()
            strokeForceNow = strokeAcceleration(at: nextTime)
        }
        if abs(speed) < BoatResponse.stopSpeed && isForceFree(at: nextTime) { speed = 0 }
        var target = 0.0
        if let current, current.period != nil || !current.isFinished(at: nextTime) { target = current.motionLevel }
        motionLevel += (target - motionLevel) * Self.step / 3
        truth.update(elapsed: nextTime, distance: distance, speed: speed)
    }

    /// The catch at or before `t` (looking at the upcoming one too, for a sample just past it),
    /// and the period to use for the stroke phase.
    func latestCatch(at t: Seconds) -> (time: Seconds, period: Seconds)? {
        if let up = upcoming, up.time <= t { return (up.time, up.period ?? lastPeriod) }
        if let current { return (current.time, current.period ?? lastPeriod) }
        return nil
    }
}
