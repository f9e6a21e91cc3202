#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OarlogCore

/// Tuning of the distance accumulator. Defaults suit any rowing boat and any consumer GNSS
/// receiver from 0.2 to 10 Hz.
public struct DistanceConfiguration: Sendable, Equatable {
    /// Glitch rejection by implied speed (fastest plausible speed and speed change, re-anchoring).
    public var jumps = GPSJumpFilter.Configuration()
    /// The Kalman filter that fuses positions with the receiver's speed.
    public var track = GPSTrackFilter.Configuration()
    /// The boat starts moving when its filtered speed and its speed over the last
    /// `movingBaseline` (the straight line from where it was then) both reach `movingSpeed`, m/s.
    /// A boat at rest drifts 0.1–0.3 m/s with the wind and the stream; rowing, even light
    /// paddling, is over 1. Over 20 s the position's jitter and wander make well under 0.5 m/s.
    public var movingSpeed: MetresPerSecond = 0.5
    public var movingBaseline: Seconds = 20
    /// A moving boat counts as stopped once its filtered speed has stayed under `stationarySpeed`
    /// for `stopAfter`; its progress along its heading in that slow spell counts (the glide).
    public var stationarySpeed: MetresPerSecond = 0.4
    public var stopAfter: Seconds = 10
    /// While stopped, the boat counts as still under this filtered speed; moving off counts from
    /// where it was last still, or from `maximumMoveOffCredit` before the start is recognised if
    /// it has not been still since (a boat drifting at 0.3 m/s is credited 3 m at most).
    public var stillSpeed: MetresPerSecond = 0.25
    public var stillReceiverSpeed: MetresPerSecond = 0.15
    public var maximumMoveOffCredit: Seconds = 10
    /// Position error per axis when the fix states none, metres (a consumer receiver in the open).
    public var defaultPositionSigma: Metres = 2
    /// Position error per axis as a fraction of the receiver's stated horizontal accuracy.
    public var accuracyToSigma: Double = 0.5
    /// A coarse source's rounding error per axis is one grid step / √12; it is correlated from fix
    /// to fix (the staircase), so it counts this many times over.
    public var gridSigmaFactor: Double = 1
    /// Smallest position error per axis believed, metres.
    public var minimumPositionSigma: Metres = 0.5
    /// Positions on a grid coarser than this (metres of latitude per step) are smoothed with a
    /// centred moving average of `coarseSmoothingWindow` before filtering. 15 s is about 60 m of
    /// rowing: five grid steps of a 4-decimal source, enough to average out its staircase while
    /// keeping the chord error on bends of 100 m radius near 1 %.
    public var coarseResolutionThreshold: Metres = 2
    public var coarseSmoothingWindow: Seconds = 15
    /// The Earth the distance is measured on. WGS 84 (the default) is the truth. NK devices
    /// (SpeedCoach, LiNK Logbook) measure on a sphere of the mean radius, which reads up to 0.3 %
    /// short at mid latitudes on an east–west course; `.sphere` gives their figure, for comparing
    /// like with like.
    public var earth: EarthModel = .wgs84
    public enum EarthModel: Sendable, Equatable {
        case wgs84
        /// A sphere of this radius, metres (6,371,008.8 for the mean radius).
        case sphere(radius: Metres)
    }
    /// Number of recent fixes kept for interpolating distance at catch times.
    public var historyCapacity: Int = 1024
    public init() {}
}

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
    /// The fused track (position and velocity at the last booked fix).
    public private(set) var track: GPSTrackFilter

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
    private var previousEast: Metres = 0, previousNorth: Metres = 0, previousSpeed: MetresPerSecond = 0
    private var previousReceipt: Seconds = 0
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
    private var recent: RingBuffer<TrackPoint>
    private struct TrackPoint: Sendable { var time: Seconds; var east: Metres; var north: Metres }
    private var speedIntegral: Metres = 0
    private var intervalsWithoutSpeed = 0

    public init(configuration: DistanceConfiguration = .init()) {
        self.configuration = configuration
        jumpFilter = GPSJumpFilter(configuration: configuration.jumps)
        track = GPSTrackFilter(configuration: configuration.track)
        history = DistanceHistory(capacity: configuration.historyCapacity)
        recent = RingBuffer(capacity: 1024, filler: TrackPoint(time: 0, east: 0, north: 0))
    }

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
        var clean = fix
        clean.time = filterClock
        if let s = clean.speed, !s.isFinite || s < 0 { clean.speed = nil }
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
        let window = smoothingWindow
        let breakBefore = verdict == .acceptAfterBreak
        if breakBefore || window <= 0 { drainSmoother(window: window) }
        smoother.push(clean, breakBefore: breakBefore, receipt: receipt)
        while let (f, brk, r) = smoother.popReady(window: window) { book(f, breakBefore: brk, receipt: r) }
    }

    /// The track breaks here (`Gap.breaksTrack`): no distance across but what the device itself
    /// counted there (`deviceDistance`, within what a boat covers); the next fix starts anew.
    public mutating func breakTrack(deviceDistance: Metres? = nil) {
        jumpFilter.breakTrack()
        if let d = deviceDistance, d.isFinite, d >= 0, d <= 1_000, usedFixes > 0 { distance += d }
    }

    /// Books whatever is still held back (the coarse smoother's lag). Call at the end of a session.
    public mutating func finish() {
        drainSmoother(window: smoothingWindow)
    }

    private mutating func drainSmoother(window: Seconds) {
        while let (f, brk, r) = smoother.popAny(window: window) { book(f, breakBefore: brk, receipt: r) }
    }

    /// Position error per axis of a fix: its stated accuracy, or the default, and never finer than
    /// the source's grid allows (a uniform rounding error of one step has σ = step / √12).
    private func positionSigma(_ fix: GPSFix) -> Metres {
        let stated = fix.horizontalAccuracy.map { $0 * configuration.accuracyToSigma } ?? configuration.defaultPositionSigma
        let grid = configuration.gridSigmaFactor * (resolution.gridStep ?? 0) / 12.0.squareRoot()
        return max(configuration.minimumPositionSigma, stated, grid)
    }

    /// Books a fix: `fix.time` is on the filter's clock, `receipt` the session time it arrived
    /// (the distance history and the moving time are in session time).
    private mutating func book(_ fix: GPSFix, breakBefore: Bool, receipt: Seconds) {
        if breakBefore { track.reset() }
        guard let prev = previous, !breakBefore, track.isTracking else {
            if previous != nil { intervalsWithoutSpeed += 1 }  // no speed integral across a break
            startTrack(at: fix, receipt: receipt)
            return
        }
        let dt = max(0, receipt - previousReceipt)
        previousReceipt = receipt
        if let v0 = prev.speed, let v1 = fix.speed {
            speedIntegral += (v0 + v1) / 2 * dt
        } else {
            intervalsWithoutSpeed += 1
        }
        previous = fix

        track.update(fix, positionSigma: positionSigma(fix), positionsWander: !isSmoothingCoarsePositions)
        let here = TrackPoint(time: fix.time, east: track.east, north: track.north)
        recent.append(here)
        let v = track.speed
        if moving {
            if let slow = slowStart {
                bookSlowSpell(fix, here: here, speed: v, from: slow)
            } else {
                bookMoving(fix, here: here, speed: v, dt: dt)
            }
        } else if isStill(fix, filteredSpeed: v) {
            still = here
        } else if startsMoving(fix, filteredSpeed: v) {
            moveOff(fix, here: here, speed: v)
        }
        previousEast = here.east
        previousNorth = here.north
        previousTime = here.time
        previousSpeed = v
        if !moving || slowStart != nil { chordStart = nil }
        if let shift = track.recentreIfFar() { recentre(by: shift) }
        appendHistory(receipt)
    }

    /// The first fix of a track (at the start, or after a break): where the boat is, not yet
    /// moving (the next fix tells; a flying start counts from here).
    private mutating func startTrack(at fix: GPSFix, receipt: Seconds) {
        previous = fix
        track.update(fix, positionSigma: positionSigma(fix), positionsWander: !isSmoothingCoarsePositions)
        updateScale()
        recent.removeAll()
        let here = TrackPoint(time: fix.time, east: track.east, north: track.north)
        recent.append(here)
        still = here
        previousEast = here.east
        previousNorth = here.north
        previousTime = here.time
        previousSpeed = track.speed
        chordStart = nil
        moving = false
        slowStart = nil
        movedOffAt = nil
        previousReceipt = receipt
        appendHistory(receipt)
    }

    /// Moving, in a slow spell (the glide to a stop): only progress along the heading the boat
    /// had counts, as it is made; sideways drift, jitter and the filter's return from an
    /// overshoot at the stop are not distance rowed.
    private mutating func bookSlowSpell(_ fix: GPSFix, here: TrackPoint, speed v: MetresPerSecond, from slow: TrackPoint) {
        let c = configuration
        let forward = (here.east - slow.east) * slowHeading.east + (here.north - slow.north) * slowHeading.north
        // Looked at every `minimumChord` (and when the spell ends): the most forward of ten
        // noisy positions a second would be booked, not the boat's progress.
        let due = here.time - slowCheckedAt >= Self.minimumChord || v >= c.stationarySpeed || fix.time - slow.time >= c.stopAfter
        if due { slowCheckedAt = here.time }
        if due && forward > slowForwardBooked && v >= c.stillSpeed {  // under it: drifting, not gliding
            let gain = forward - slowForwardBooked
            distance += stepLength(east: gain * slowHeading.east, north: gain * slowHeading.north)
            slowForwardBooked = forward
        }
        if v >= c.stationarySpeed {
            movingTime += fix.time - slow.time
            slowStart = nil
        } else if fix.time - slow.time >= c.stopAfter {
            moving = false  // the glide to a stop is not moving time
            still = here
            slowStart = nil
        }
    }

    /// Moving: the step from the last fix is distance rowed; a stop, or the start of a slow
    /// spell, is looked for.
    private mutating func bookMoving(_ fix: GPSFix, here: TrackPoint, speed v: MetresPerSecond, dt: Seconds) {
        let c = configuration
        let start = chordStart ?? TrackPoint(time: previousTime, east: previousEast, north: previousNorth)
        let chord = stepLength(east: here.east - start.east, north: here.north - start.north)
        distance += chord - (chordStart == nil ? 0 : chordBooked)
        (chordStart, chordBooked) = here.time - start.time >= Self.minimumChord ? (nil, 0) : (start, chord)
        movingTime += dt
        if v >= c.stationarySpeed { movedOffAt = nil }
        if let off = movedOffAt, fix.time - off >= c.stopAfter {
            // Moved off by the receiver's speed, but the track never got going: stopped.
            moving = false
            still = here
            movedOffAt = nil
        } else if v < c.stationarySpeed && movedOffAt == nil {
            slowStart = here
            slowForwardBooked = 0
            slowCheckedAt = here.time
            let ve = track.velocityEast, vn = track.velocityNorth
            slowHeading = v > 0 ? (ve / v, vn / v) : (0, 0)
        }
    }

    /// Moving off: counted from where the boat was last still (at most a baseline ago).
    private mutating func moveOff(_ fix: GPSFix, here: TrackPoint, speed v: MetresPerSecond) {
        let c = configuration
        var from = still
        if from.time < fix.time - c.maximumMoveOffCredit,
           let then = recentPoint(atOrBefore: fix.time - c.maximumMoveOffCredit) {
            from = then
        }
        distance += stepLength(east: here.east - from.east, north: here.north - from.north)
        movingTime += fix.time - from.time
        moving = true
        slowStart = nil
        // Until the filtered speed catches up with a start (it lags the receiver's), no slow spell.
        movedOffAt = v >= c.stationarySpeed ? nil : fix.time
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

    /// While stopped: whether the boat moves off at this fix. With the receiver's speed, when it
    /// reaches `movingSpeed`; with positions alone, when the filtered speed and the speed over the
    /// last `movingBaseline` do (jitter makes the filtered speed alone jumpy).
    private func startsMoving(_ fix: GPSFix, filteredSpeed v: MetresPerSecond) -> Bool {
        let c = configuration
        if let s = fix.speed { return s >= c.movingSpeed }  // Doppler is reliable at once
        guard v >= c.movingSpeed else { return false }
        guard let baseline = baselineSpeed(at: fix.time) else { return false }
        return baseline >= c.movingSpeed
    }

    /// While stopped: whether the boat is still at this fix. The receiver's speed says so when it
    /// has one (under `stillReceiverSpeed`); else the filtered speed, under `stillSpeed` at this
    /// fix and under `stationarySpeed` at the one before (a dip at the catch of a first stroke is
    /// not a rest).
    private func isStill(_ fix: GPSFix, filteredSpeed v: MetresPerSecond) -> Bool {
        if let s = fix.speed { return s < configuration.stillReceiverSpeed && v < configuration.stationarySpeed }
        return v < configuration.stillSpeed && previousSpeed < configuration.stationarySpeed
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

    /// Speed of the filtered track over the last `movingBaseline` (straight line); `nil` while the
    /// kept track spans less than half of it.
    private func baselineSpeed(at time: Seconds) -> MetresPerSecond? {
        guard let newest = recent.last, let oldest = recent.first else { return nil }
        let then = recentPoint(atOrBefore: time - configuration.movingBaseline) ?? oldest
        let span = newest.time - then.time
        guard span >= configuration.movingBaseline / 2 else { return nil }
        let de = newest.east - then.east, dn = newest.north - then.north
        return (de * de + dn * dn).squareRoot() / span
    }

    /// The newest kept track point at or before `time`.
    private func recentPoint(atOrBefore time: Seconds) -> TrackPoint? {
        guard let first = recent.first, first.time <= time else { return nil }
        var lo = 0, hi = recent.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if recent[mid].time <= time { lo = mid } else { hi = mid - 1 }
        }
        return recent[lo]
    }

    private mutating func appendHistory(_ time: Seconds) {
        history.append(.init(time: time, distance: distance, speedIntegral: speedIntegral,
                             intervalsWithoutSpeed: intervalsWithoutSpeed))
    }
}
