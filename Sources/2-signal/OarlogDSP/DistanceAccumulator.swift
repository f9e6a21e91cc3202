#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OarlogCore

/// Session distance from GPS fixes, as a rowing device measures it: the length of the filtered
/// track while the boat moves.
///
/// Pipeline per fix: (1) unusable fixes are ignored (no fix, non-finite or out-of-range position,
/// time not after the previous fix — gpsd's repeated epochs, a receiver's time going backwards);
/// (2) glitches are rejected by the speed they imply (`GPSJumpFilter`, against the filtered
/// velocity); (3) coarse positions are smoothed (`GPSCoarsePositionSmoother`, only for sources
/// whose grid is coarser than `coarseResolutionThreshold`); (4) the fix updates the track filter
/// (`GPSTrackFilter`: positions fused with the receiver's speed where the fix has one, positions
/// alone where not); (5) while the boat moves the step of the filtered position is added. It
/// starts moving when both its filtered speed and its speed over the last `movingBaseline` reach
/// `movingSpeed` (the first step then counts from where it was last still), and stops once its
/// filtered speed has stayed under `stationarySpeed` for `stopAfter` (the glide counts).
///
/// So position jitter and the receiver's slow wander do not make the distance read long (the
/// filtered track is smooth), a boat at rest or drifting adds nothing, and moving off after a rest
/// counts from where the boat is, not from where it stopped (the drift is never credited).
/// Gaps: a dropout (with or without a `.gap` record) adds the straight line across it when the
/// positions before and after are plausible for a boat (step 2); otherwise the track is broken
/// there and nothing is added across it. The straight line is a lower bound of the true path.
public struct DistanceAccumulator: Sendable {
    public var configuration: DistanceConfiguration
    /// Total distance booked so far, metres.
    public private(set) var distance: Metres = 0
    /// Time during which the boat was judged moving (the intervals whose distance was booked),
    /// seconds.
    public private(set) var movingTime: Seconds = 0
    /// Fixes ignored as unusable (no fix, bad values, time not increasing).
    public private(set) var ignoredFixes = 0
    public private(set) var usedFixes = 0
    public private(set) var resolution = GPSPositionResolution()
    public private(set) var history: DistanceHistory
    /// The booked track's positions (smoothed in replay): what maps and exports draw.
    public private(set) var positions: TrackPositionHistory
    /// The fused track, forward only (position and velocity at the last fix used).
    public private(set) var track: GPSTrackFilter
    /// The backward pass over `track`: booking takes its states, each with what it needs of its fix.
    private var trackSmoother: GPSTrackSmoother<BookingTag>
    private struct BookingTag: Sendable {
        var receipt: Seconds = 0
        var receiverSpeed: MetresPerSecond?
        var speedIntegral: Metres = 0
        var intervalsWithoutSpeed = 0
        /// Where a track starts by its first fix, when coarse or moving (one-sided averaging pulls it on).
        var startEast: Metres?, startNorth: Metres?
        /// The track starts with the receiver's speed already over `movingSpeed` (a device's first
        /// row at the end of a first stroke, an interval spliced on): it is moving from there.
        var startsMoving = false
    }
    /// The first fix of a track that starts coarse or moving (see `BookingTag`).
    private var coarseTrackStart: GeoPoint?
    private var trackStartsMoving = false
    /// The device's distance when the first fix was used (see `noteDeviceDistance`).
    private var startCredit = DeviceStartCredit()

    private var jumpFilter: GPSJumpFilter
    private var smoother = GPSCoarsePositionSmoother()
    private var lastInputTime: Seconds?
    /// The filter's clock: the receiver's own time steps while it runs forward (fixes that
    /// arrive in a burst are still a second apart), else the steps of arrival.
    private var filterClock: Seconds = 0
    private var lastUTC: Double?
    /// The receiver's usual step between fixes (its own clock), once seen.
    private var receiverStep: Seconds?

    // Booking state (on the smoothed stream).
    private var previous: GPSFix?
    private var previousEast: Metres = 0, previousNorth: Metres = 0
    private(set) var previousSpeed: MetresPerSecond = 0
    private var previousReceipt: Seconds = 0, bookedReceipt: Seconds = 0
    private var previousTime: Seconds = 0
    /// Moving: where the step being booked starts, and how much of it is in `distance` so far.
    /// Steps are chords of at least `minimumChord` of the receiver's time: at 5–10 Hz the
    /// filtered position's fix-to-fix noise would otherwise add its own length to every step.
    private var chordStart: TrackPoint?
    private var chordBooked: Metres = 0
    private static let minimumChord: Seconds = 0.75
    private var moving = false
    /// Metres on the chosen Earth per metre east and north in the filter's plane.
    private var scaleEast = 1.0, scaleNorth = 1.0
    /// Where the moving boat fell under `stationarySpeed` (a slow spell: the glide to a stop).
    private var slowStart: TrackPoint?
    private var slowHeading: (east: Double, north: Double) = (0, 0)
    private var slowForwardBooked: Metres = 0
    /// When the slow spell's progress was last looked at (every `minimumChord`, as the chords).
    private var slowCheckedAt: Seconds = 0
    /// When the boat moved off, while its filtered speed has not yet reached `stationarySpeed`.
    private var movedOffAt: Seconds?
    /// While stopped: the filtered position when the boat was last still (under
    /// `stationarySpeed`); moving off counts from there, so a drift during the rest is not counted.
    private var still = TrackPoint(time: 0, east: 0, north: 0)
    /// Recent filtered positions, for the speed over `movingBaseline`.
    private(set) var recent: RingBuffer<TrackPoint>
    struct TrackPoint: Sendable { var time: Seconds; var east: Metres; var north: Metres }
    private var speedIntegral: Metres = 0
    private var intervalsWithoutSpeed = 0

    public init(configuration: DistanceConfiguration = .init()) {
        self.configuration = configuration
        jumpFilter = GPSJumpFilter(configuration: configuration.jumps)
        track = GPSTrackFilter(configuration: configuration.track)
        history = DistanceHistory(capacity: configuration.historyCapacity)
        positions = TrackPositionHistory(capacity: configuration.historyCapacity)
        recent = RingBuffer(capacity: 1024, filler: TrackPoint(time: 0, east: 0, north: 0))
        trackSmoother = GPSTrackSmoother(lag: configuration.smoothing.lag, filler: BookingTag())
    }

    /// How long distance waits behind the last fix for the smoother, seconds.
    public var smoothingLag: Seconds { configuration.smoothing.lag }
    /// The distance with what the smoother still holds: while moving, the forward track's line on
    /// from the last booked position (a display's figure in replay; `distance` is the final one).
    public var provisionalDistance: Metres {
        guard moving, trackSmoother.heldStates > 0 else { return distance }
        return distance + stepLength(east: track.east - previousEast, north: track.north - previousNorth)
    }
    /// Forward states held by the smoother (bounded, whatever the session's length).
    public var heldTrackStates: Int { trackSmoother.heldStates }

    /// Fixes rejected as implausible jumps.
    public var rejectedFixes: Int { jumpFilter.rejectedIncludingPending }
    /// Times the track was re-anchored after a run of rejected fixes that agreed with each other.
    public var reanchors: Int { jumpFilter.reanchors }
    /// Distance is final up to this time (the coarse-position smoother holds fixes back).
    public var settledTime: Seconds? { history.newestTime }
    /// Whether positions are being smoothed as coarse.
    public var isSmoothingCoarsePositions: Bool { smoothingWindow > 0 }
    /// Whether the boat counts as moving at the last booked fix.
    public var isMoving: Bool { moving }

    private var smoothingWindow: Seconds {
        guard let step = resolution.gridStep, step > configuration.coarseResolutionThreshold else { return 0 }
        return configuration.coarseSmoothingWindow
    }

    public mutating func process(_ fix: GPSFix) {
        guard fix.mode != .noFix, fix.latitude.isFinite, fix.longitude.isFinite, fix.time.isFinite,
              abs(fix.latitude) <= 90, abs(fix.longitude) <= 360,
              !(fix.latitude == 0 && fix.longitude == 0) else {
            ignoredFixes += 1
            return
        }
        if let t = lastInputTime, fix.time <= t {
            ignoredFixes += 1
            return
        }
        var step = fix.time - (lastInputTime ?? fix.time)
        if let u = fix.utc, let lu = lastUTC, u.isFinite, u > lu, u - lu <= 30 {
            step = u - lu
            receiverStep = receiverStep.map { $0 + 0.2 * (step - $0) } ?? step
        } else if let typical = receiverStep, step < 0.5 * typical {
            // The receiver's clock stepped back (or gave no time) and the fix came in a burst:
            // it is taken as one of the receiver's usual steps after the last, not milliseconds.
            step = typical
        }
        lastUTC = fix.utc.flatMap { $0.isFinite ? $0 : nil }
        filterClock = lastInputTime == nil ? fix.time : filterClock + step
        lastInputTime = fix.time
        let receipt = fix.time
        var clean = configuration.withPlausibleSpeed(fix)
        clean.time = filterClock
        if let c = clean.course, !c.isFinite { clean.course = nil }
        if let a = clean.horizontalAccuracy, !a.isFinite || a < 0 { clean.horizontalAccuracy = nil }
        let velocity = track.last.map {
            GPSJumpFilter.Velocity(east: $0.velocityEast, north: $0.velocityNorth, variance: $0.velocityVariance)
        }
        let verdict = jumpFilter.check(clean, positionSigma: positionSigma(clean), velocity: velocity)
        guard verdict != .reject else { return }
        // The grid is learnt from accepted fixes only: a glitch must not make a coarse source fine.
        resolution.observe(latitude: clean.latitude, longitude: clean.longitude)
        usedFixes += 1
        if usedFixes == 1 { applyStartCredit(startCredit.firstFix(at: receipt)) }
        let window = smoothingWindow
        let breakBefore = verdict == .acceptAfterBreak
        if breakBefore || window <= 0 { drainSmoother(window: window) }
        // A track whose first fix is coarse or already moving (a device's first row) starts there.
        if breakBefore || usedFixes == 1 {
            trackStartsMoving = (clean.speed ?? 0) >= configuration.movingSpeed
            coarseTrackStart = window > 0 || trackStartsMoving ? clean.point : nil
        }
        smoother.push(clean, breakBefore: breakBefore, receipt: receipt)
        while let (f, brk, r) = smoother.popReady(window: window) {
            book(f, breakBefore: brk, receipt: r, speedAided: smoother.lastWasSpeedAided)
        }
    }

    /// The track breaks here (`Gap.breaksTrack`): no distance across but what the device itself
    /// counted there (`deviceDistance`, within what a boat covers); the next fix starts anew.
    public mutating func breakTrack(deviceDistance: Metres? = nil) {
        jumpFilter.breakTrack()
        drainSmoother(window: smoothingWindow)  // the track's last fixes, held by the coarse averager, come first
        flushTrackSmoother()
        if let d = deviceDistance, d.isFinite, d >= 0, d <= 1_000, usedFixes > 0 { distance += d }
    }

    /// Books whatever is still held back (the coarse smoother's lag). Call at the end of a session.
    public mutating func finish() {
        drainSmoother(window: smoothingWindow)
        flushTrackSmoother()
    }

    /// The device's own cumulative distance at `time` (a reference stroke of a device export):
    /// the device counts from its start, so the distance it had at the first fix used is the
    /// session's there (a standing start's first stroke, before the first row was written).
    public mutating func noteDeviceDistance(time: Seconds, distance d: Metres) {
        applyStartCredit(startCredit.deviceFigure(time: time, distance: d))
    }

    private mutating func applyStartCredit(_ credit: Metres?) {
        guard let credit, credit > 0 else { return }
        distance += credit
        history.shiftDistances(by: credit)
    }

    private mutating func flushTrackSmoother() {
        trackSmoother.flush()
        while let s = trackSmoother.pop() { bookSmoothed(s) }
    }

    private mutating func drainSmoother(window: Seconds) {
        while let (f, brk, r) = smoother.popAny(window: window) {
            book(f, breakBefore: brk, receipt: r, speedAided: smoother.lastWasSpeedAided)
        }
    }

    /// Position error per axis of a fix: its stated accuracy, or the default, and never finer than
    /// the source's grid allows (a uniform rounding error of one step has σ = step / √12).
    private func positionSigma(_ fix: GPSFix) -> Metres {
        let stated = fix.horizontalAccuracy.map { $0 * configuration.accuracyToSigma } ?? configuration.defaultPositionSigma
        let grid = configuration.gridSigmaFactor * (resolution.gridStep ?? 0) / 12.0.squareRoot()
        return max(configuration.minimumPositionSigma, stated, grid)
    }

    /// Takes a fix into the track: `fix.time` is on the filter's clock, `receipt` the session time
    /// it arrived (the distance history and the moving time are in session time). The filtered
    /// state goes to the smoother; the states it releases are booked.
    private mutating func book(_ fix: GPSFix, breakBefore: Bool, receipt: Seconds, speedAided: Bool = false) {
        if breakBefore {
            flushTrackSmoother()
            track.reset()
        }
        if let prev = previous, !breakBefore, track.isTracking {
            let dt = max(0, receipt - previousReceipt)
            if let v0 = prev.speed, let v1 = fix.speed {
                speedIntegral += (v0 + v1) / 2 * dt
            } else {
                intervalsWithoutSpeed += 1
            }
        } else if previous != nil {
            intervalsWithoutSpeed += 1  // no speed integral across a break
        }
        previous = fix
        previousReceipt = receipt
        track.update(fix, positionSigma: positionSigma(fix), positionsWander: !isSmoothingCoarsePositions)
        var tag = BookingTag(receipt: receipt, receiverSpeed: fix.speed, speedIntegral: speedIntegral,
                             intervalsWithoutSpeed: intervalsWithoutSpeed)
        // A coarse track's first fix averaged with the receiver's speed is unbiased: it starts there.
        if track.lastStep.startsTrack, !speedAided, let start = coarseTrackStart.flatMap({ track.offset(of: $0) }) {
            (tag.startEast, tag.startNorth) = (start.east, start.north)
        }
        if track.lastStep.startsTrack {
            tag.startsMoving = trackStartsMoving
            coarseTrackStart = nil
            trackStartsMoving = false
        }
        trackSmoother.push(track.lastStep, tag: tag)
        while let s = trackSmoother.pop() { bookSmoothed(s) }
        if let shift = track.recentreIfFar() {
            trackSmoother.shift(by: shift)
            recentre(by: shift)
        }
    }

    /// Books a (smoothed) state of the track: while the boat moves, its step is distance rowed.
    private mutating func bookSmoothed(_ s: GPSTrackSmoother<BookingTag>.State) {
        let here = TrackPoint(time: s.time, east: s.east, north: s.north)
        let receipt = s.tag.receipt
        guard !s.startsTrack else {
            let start = TrackPoint(time: s.time, east: s.tag.startEast ?? s.east, north: s.tag.startNorth ?? s.north)
            startTrack(at: start, speed: s.speed, receipt: receipt)
            if s.tag.startsMoving {
                // Already moving at its first fix: every step on counts (a moving-off test would
                // credit at most `maximumMoveOffCredit` of it); no slow spell until the filtered
                // speed has caught up, as after moving off.
                moving = true
                movedOffAt = s.speed >= configuration.stationarySpeed ? nil : s.time
            }
            appendHistory(s.tag, at: start)
            return
        }
        let dt = max(0, receipt - bookedReceipt)
        bookedReceipt = receipt
        recent.append(here)
        let v = s.speed
        if moving {
            if let slow = slowStart {
                bookSlowSpell(time: s.time, here: here, speed: v, from: slow, receiverSpeed: s.tag.receiverSpeed)
            } else {
                bookMoving(time: s.time, here: here, speed: v, velocity: (s.velocityEast, s.velocityNorth), dt: dt)
            }
        } else if isStill(receiverSpeed: s.tag.receiverSpeed, filteredSpeed: v) {
            still = here
        } else if startsMoving(receiverSpeed: s.tag.receiverSpeed, time: s.time, filteredSpeed: v) {
            moveOff(time: s.time, here: here, speed: v)
        }
        previousEast = here.east
        previousNorth = here.north
        previousTime = here.time
        previousSpeed = v
        if !moving || slowStart != nil { chordStart = nil }
        appendHistory(s.tag, at: here)
    }

    /// The first state of a track (at the start, or after a break): where the boat is, not yet
    /// moving (the next state tells; a flying start counts from here).
    private mutating func startTrack(at here: TrackPoint, speed: MetresPerSecond, receipt: Seconds) {
        updateScale()
        recent.removeAll()
        recent.append(here)
        still = here
        previousEast = here.east
        previousNorth = here.north
        previousTime = here.time
        previousSpeed = speed
        chordStart = nil
        moving = false
        slowStart = nil
        movedOffAt = nil
        bookedReceipt = receipt
    }

    /// Moving, in a slow spell (the glide to a stop): only progress along the heading the boat
    /// had counts, as it is made; sideways drift, jitter and the filter's return from an
    /// overshoot at the stop are not distance rowed.
    private mutating func bookSlowSpell(time: Seconds, here: TrackPoint, speed v: MetresPerSecond, from slow: TrackPoint,
                                        receiverSpeed: MetresPerSecond?) {
        let c = configuration
        // With the receiver's speed the glide is measured down to `glideSpeed` and for
        // `glideStopAfter`, at up to 2 Hz: at 5–10 Hz the most forward of the noisy positions
        // looked at every `minimumChord` over that longer spell would be booked (+0.2 % on
        // DistanceTenHertzTests' stop and go), so there the positions' rule is kept.
        let dopplerGlide = receiverSpeed != nil && (receiverStep ?? 1) >= 0.5
        let (gliding, stopAfter) = dopplerGlide ? (c.glideSpeed, c.glideStopAfter) : (c.stillSpeed, c.stopAfter)
        let forward = (here.east - slow.east) * slowHeading.east + (here.north - slow.north) * slowHeading.north
        // Looked at every `minimumChord` (and when the spell ends): the most forward of ten
        // noisy positions a second would be booked, not the boat's progress.
        let due = here.time - slowCheckedAt >= Self.minimumChord || v >= c.stationarySpeed || time - slow.time >= stopAfter
        if due { slowCheckedAt = here.time }
        if due && forward > slowForwardBooked && v >= gliding {  // under it: drifting, not gliding
            let gain = forward - slowForwardBooked
            distance += stepLength(east: gain * slowHeading.east, north: gain * slowHeading.north)
            slowForwardBooked = forward
        }
        if v >= c.stationarySpeed {
            movingTime += time - slow.time
            slowStart = nil
        } else if time - slow.time >= stopAfter {
            moving = false  // the glide to a stop is not moving time
            still = here
            slowStart = nil
        }
    }

    /// Moving: the step from the last fix is distance rowed; a stop, or the start of a slow
    /// spell, is looked for.
    private mutating func bookMoving(time: Seconds, here: TrackPoint, speed v: MetresPerSecond,
                                     velocity: (east: MetresPerSecond, north: MetresPerSecond), dt: Seconds) {
        let c = configuration
        let start = chordStart ?? TrackPoint(time: previousTime, east: previousEast, north: previousNorth)
        let chord = stepLength(east: here.east - start.east, north: here.north - start.north)
        distance += chord - (chordStart == nil ? 0 : chordBooked)
        (chordStart, chordBooked) = here.time - start.time >= Self.minimumChord ? (nil, 0) : (start, chord)
        movingTime += dt
        if v >= c.stationarySpeed { movedOffAt = nil }
        if let off = movedOffAt, time - off >= c.stopAfter {
            // Moved off by the receiver's speed, but the track never got going: stopped.
            moving = false
            still = here
            movedOffAt = nil
        } else if v < c.stationarySpeed && movedOffAt == nil {
            slowStart = here
            slowForwardBooked = 0
            slowCheckedAt = here.time
            slowHeading = v > 0 ? (velocity.east / v, velocity.north / v) : (0, 0)
        }
    }

    /// Moving off: counted from where the boat was last still (at most a baseline ago).
    private mutating func moveOff(time: Seconds, here: TrackPoint, speed v: MetresPerSecond) {
        let c = configuration
        var from = still
        if from.time < time - c.maximumMoveOffCredit,
           let then = recentPoint(atOrBefore: time - c.maximumMoveOffCredit) {
            from = then
        }
        distance += stepLength(east: here.east - from.east, north: here.north - from.north)
        movingTime += time - from.time
        moving = true
        slowStart = nil
        // Until the filtered speed catches up with a start (it lags the receiver's), no slow spell.
        movedOffAt = v >= c.stationarySpeed ? nil : time
    }

    /// The track filter moved its plane's origin by `shift`: the points kept move with it.
    private mutating func recentre(by shift: (east: Metres, north: Metres)) {
        previousEast -= shift.east
        previousNorth -= shift.north
        still.east -= shift.east
        still.north -= shift.north
        slowStart?.east -= shift.east
        slowStart?.north -= shift.north
        chordStart?.east -= shift.east
        chordStart?.north -= shift.north
        for i in 0..<recent.count {
            recent[i].east -= shift.east
            recent[i].north -= shift.north
        }
        updateScale()
    }

    private func stepLength(east: Metres, north: Metres) -> Metres {
        let e = east * scaleEast, n = north * scaleNorth
        return (e * e + n * n).squareRoot()
    }

    /// On a sphere of radius R a step of dn metres north on the ellipsoid is R/M·dn, and of de
    /// metres east R/N·de (M, N: the ellipsoid's meridional and prime-vertical radii there).
    private mutating func updateScale() {
        guard case .sphere(let radius) = configuration.earth, let latitude = track.originLatitude else {
            scaleEast = 1
            scaleNorth = 1
            return
        }
        let s = sin(latitude * Double.pi / 180)
        let w = 1 - WGS84.eccentricitySquared * s * s
        let n = WGS84.semiMajorAxis / w.squareRoot()
        let m = WGS84.semiMajorAxis * (1 - WGS84.eccentricitySquared) / (w * w.squareRoot())
        scaleEast = radius / n
        scaleNorth = radius / m
    }

    private mutating func appendHistory(_ tag: BookingTag, at point: TrackPoint) {
        if let p = track.point(east: point.east, north: point.north) { positions.append(time: tag.receipt, position: p) }
        history.append(.init(time: tag.receipt, distance: distance, speedIntegral: tag.speedIntegral,
                             intervalsWithoutSpeed: tag.intervalsWithoutSpeed))
    }
}
