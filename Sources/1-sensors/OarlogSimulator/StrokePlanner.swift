import OarlogCore

/// Turns the profile into a sequence of catches, one at a time, with realistic stroke-to-stroke
/// variation: the period jitters by about 2 % (a mean-reverting offset from the nominal rhythm,
/// so the stroke count over a piece stays duration × rate / 60), the drive by 3 %, the catch
/// depth by 5 % and the drive force by 4 %. The first strokes after a standing start build up.
///
/// It works one catch ahead: a stroke's period (and so its force, which must balance the drag
/// over the period) is known only once the following catch is placed.
struct StrokePlanner: Sendable {
    /// A catch placed in time, before its stroke is shaped.
    struct RawCatch: Sendable {
        var nominal: Seconds
        var time: Seconds
        var rate: StrokesPerMinute
        var power: Double
        var startsPiece: Bool
        var flying: Bool
        /// The run towards the stern before the catch, if not the usual one.
        var runIn: Seconds? = nil
    }

    private let segments: [SimulationProfile.Segment]
    private let segmentStarts: [Seconds]
    private let duration: Seconds
    private let flyingStart: Bool
    private var random: Xoshiro256StarStar
    /// Mean-reverting offset of the catch from its nominal time.
    private var timingOffset: Seconds = 0
    private var lookahead: RawCatch?
    private var started = false
    private var previous: PlannedCatch?
    private var plannedCount = 0
    private var strokeInPiece = 0
    private var pieceFromStandingStart = false
    /// The plan the crew rows, if any (then the profile only gives rates and pressures).
    private(set) var workout: WorkoutRowing?

    init(profile: SimulationProfile, duration: Seconds, seed: UInt64, workout plan: WorkoutPlan? = nil) {
        workout = plan.map { WorkoutRowing(plan: $0, profile: profile) }
        let cut = plan == nil ? profile.truncated(to: duration) : profile
        segments = cut.segments
        var starts: [Seconds] = []
        var start: Seconds = 0
        for segment in cut.segments {
            starts.append(start)
            start += segment.duration
        }
        segmentStarts = starts
        self.duration = duration
        flyingStart = plan == nil && cut.flyingStart
        random = Xoshiro256StarStar(seed: seed, stream: 1)
    }

    /// Target speed at t = 0 if the profile starts flying, else 0.
    var initialSpeed: MetresPerSecond {
        guard flyingStart, let first = segments.first, case .rowing(let rate, let power) = first.activity else { return 0 }
        return BoatResponse.targetSpeed(rate: rate, power: power)
    }

    var initialMotionLevel: Double {
        guard flyingStart, let first = segments.first, case .rowing(let rate, let power) = first.activity else { return 0 }
        return BoatResponse.motionLevel(rate: rate, power: power)
    }

    /// The next catch of the session, or `nil` when no more catches fall before the end.
    mutating func next() -> PlannedCatch? {
        if !started {
            started = true
            lookahead = firstRawCatch()
        }
        guard let raw = lookahead else { return nil }
        let following = nextRawCatch(after: raw)
        lookahead = following
        var period: Seconds?
        if let following, !following.startsPiece { period = following.time - raw.time }

        plannedCount += 1
        strokeInPiece = raw.startsPiece ? 1 : strokeInPiece + 1
        let nominalPeriod = 60 / raw.rate
        let cycle = period ?? nominalPeriod
        let drive = min(max(BoatResponse.driveDuration(rate: raw.rate) * (1 + 0.03 * boundedNormal()), 0.45),
                        cycle - 0.45)
        let runIn: Seconds
        if let given = raw.runIn {
            runIn = given
        } else if raw.startsPiece && !raw.flying {
            runIn = 0.15  // standing start: the crew is already forward, no run
        } else if let previous, !raw.startsPiece {
            let previousRecovery = raw.time - previous.time - previous.driveDuration
            runIn = min(0.7, 0.75 * previousRecovery)
        } else {
            runIn = 0.7
        }
        if raw.startsPiece { pieceFromStandingStart = !raw.flying }
        let buildUp = pieceFromStandingStart && strokeInPiece <= 3 ? [0.6, 0.8, 0.92][strokeInPiece - 1] : 1.0
        let depth = BoatResponse.catchDepth(rate: raw.rate, power: raw.power) * (1 + 0.05 * boundedNormal()) * buildUp
        let early = 0.45 * depth
        let release = 0.1 * depth
        let targetSpeed = BoatResponse.targetSpeed(rate: raw.rate, power: raw.power)
        // Impulse balance over the cycle: drive pulses − catch dip − release dip = drag × period.
        // (1.5 % on v² for the speed fluctuation within the stroke.)
        let dragImpulse = cycle * (BoatResponse.drag(targetSpeed) + BoatResponse.quadraticDrag * targetSpeed * targetSpeed * 0.015)
        let dipImpulse = depth * (PlannedCatch.recoveryWidth + runIn) / 3
        let releaseImpulse = release * PlannedCatch.releaseLength / 2
        let earlyImpulse = early * 0.15 * drive
        let mainShapeImpulse = 0.9 * drive * 2 / Double.pi
        let main = max(0, (dragImpulse + dipImpulse + releaseImpulse - earlyImpulse) / mainShapeImpulse)
            * (1 + 0.04 * boundedNormal())

        let planned = PlannedCatch(
            index: plannedCount, time: raw.time, startsPiece: raw.startsPiece, rate: raw.rate, power: raw.power,
            previousCatchTime: raw.startsPiece ? nil : previous?.time, period: period, driveDuration: drive,
            catchDepth: depth, runIn: runIn, earlyAmplitude: early, mainAmplitude: main, releaseAmplitude: release,
            motionLevel: BoatResponse.motionLevel(rate: raw.rate, power: raw.power), targetSpeed: targetSpeed)
        previous = planned
        return planned
    }

    /// A normal deviate clipped to ±3 so no stroke is absurd.
    private mutating func boundedNormal() -> Double {
        min(3, max(-3, random.normal()))
    }

    private func rowingSegment(from index: Int) -> Int? {
        var i = index
        while i < segments.count {
            if case .rowing = segments[i].activity, segments[i].duration > 0 { return i }
            i += 1
        }
        return nil
    }

    private func segmentIndex(containing t: Seconds) -> Int? {
        var i = segments.count - 1
        while i >= 0 {
            if segmentStarts[i] <= t { return t < segmentStarts[i] + segments[i].duration ? i : nil }
            i -= 1
        }
        return nil
    }

    private func pieceStart(segment index: Int, flying: Bool) -> RawCatch? {
        guard case .rowing(let rate, let power) = segments[index].activity else { return nil }
        let nominal = segmentStarts[index] + 0.5
        guard nominal < duration else { return nil }
        return RawCatch(nominal: nominal, time: nominal, rate: rate, power: power, startsPiece: true, flying: flying)
    }

    private mutating func firstRawCatch() -> RawCatch? {
        if workout != nil { return workout?.firstCatch() }
        guard let index = rowingSegment(from: 0) else { return nil }
        return pieceStart(segment: index, flying: flyingStart && segmentStarts[index] == 0)
    }

    private mutating func nextRawCatch(after raw: RawCatch) -> RawCatch? {
        if workout != nil { return nextWorkoutCatch(after: raw) }
        let candidate = raw.nominal + 60 / raw.rate
        guard candidate < duration else { return nil }
        // A rest anywhere between this catch and the candidate ends the piece.
        var i = segmentIndex(containing: raw.nominal) ?? 0
        var restIndex: Int?
        while i < segments.count, segmentStarts[i] <= candidate {
            if case .rest = segments[i].activity, segments[i].duration > 0,
               segmentStarts[i] + segments[i].duration > raw.nominal {
                restIndex = i
                break
            }
            i += 1
        }
        if let restIndex {
            timingOffset = 0
            guard let next = rowingSegment(from: restIndex + 1) else { return nil }
            return pieceStart(segment: next, flying: false)
        }
        guard let index = segmentIndex(containing: candidate),
              case .rowing(let rate, let power) = segments[index].activity else { return nil }
        let spread = 0.02 * 60 / rate
        timingOffset = min(3 * spread, max(-3 * spread, 0.5 * timingOffset + 0.866 * spread * random.normal()))
        return RawCatch(nominal: candidate, time: candidate + timingOffset, rate: rate, power: power,
                        startsPiece: false, flying: false)
    }

    // MARK: Rowing a workout plan

    /// The next catch in a workout: the rhythm of the step goes on (with the usual jitter) while
    /// it falls before a timed step's end; otherwise the next step's first catch. A distance
    /// step goes on until the physics ends it (`endStep(at:)`).
    private mutating func nextWorkoutCatch(after raw: RawCatch) -> RawCatch? {
        let candidate = raw.nominal + 60 / raw.rate
        let spread = 0.02 * 60 / raw.rate
        let offset = min(3 * spread, max(-3 * spread, 0.5 * timingOffset + 0.866 * spread * random.normal()))
        if let end = workout?.currentStepEnd, candidate + offset >= end {
            timingOffset = 0
            return workout?.endCurrentStep(at: end)
        }
        timingOffset = offset
        return RawCatch(nominal: candidate, time: candidate + offset, rate: raw.rate, power: raw.power,
                        startsPiece: false, flying: false)
    }

    /// The catch after the one `next()` returned last, if it continues the same piece.
    var followingCatchInPiece: Seconds? {
        guard let lookahead, !lookahead.startsPiece else { return nil }
        return lookahead.time
    }

    /// The workout's current (distance) step ends at `time`, before the catch it had planned
    /// next: that catch is dropped and the next step's first catch comes instead.
    mutating func endStep(at time: Seconds) {
        guard workout != nil else { return }
        timingOffset = 0
        lookahead = workout?.endCurrentStep(at: time)
    }

    /// Takes the next workout step start at or before `time`, if any.
    mutating func takeBoundary(through time: Seconds) -> WorkoutRowing.Boundary? {
        workout?.takeBoundary(through: time)
    }
}
