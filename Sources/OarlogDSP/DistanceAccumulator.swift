import OarlogCore

/// Tuning of the distance accumulator. Defaults suit any rowing boat and any consumer GNSS
/// receiver from 0.2 to 10 Hz.
public struct DistanceConfiguration: Sendable, Equatable {
    /// Jump rejection (fastest plausible speed, accuracy slack, re-anchoring).
    public var jumps = GPSJumpFilter.Configuration()
    /// Below this receiver (Doppler) speed the boat counts as stopped, m/s. Doppler speed of a
    /// stationary receiver is typically under 0.1 m/s; a drifting boat is around 0.1–0.3.
    public var stationarySpeed: MetresPerSecond = 0.3
    /// While stopped (or with no receiver speed), positions within this radius of where the boat
    /// stopped add no distance: `max(minimumHoldRadius, holdAccuracyFactor × accuracy,
    /// holdResolutionFactor × position grid step)`.
    public var minimumHoldRadius: Metres = 10
    public var holdAccuracyFactor: Double = 2
    public var holdResolutionFactor: Double = 1.5
    /// Below this mean speed, position jitter is comparable to the true movement between fixes, so
    /// the distance added is capped at `slowSpeedTolerance` × the receiver's speed integral (with no
    /// receiver speed: × the speed from positions over `positionSpeedBaseline`). Above it, fixes are
    /// summed as they are (the plain geodesic sum).
    public var slowSpeed: MetresPerSecond = 1.5
    public var slowSpeedTolerance: Double = 1.1
    /// Positions on a grid coarser than this (metres of latitude per step) are smoothed with a
    /// centred moving average of `coarseSmoothingWindow` before summing. 15 s is about 60 m of
    /// rowing: five grid steps of a 4-decimal source, enough to average out its staircase while
    /// keeping the chord error on bends of 100 m radius near 1 %.
    public var coarseResolutionThreshold: Metres = 2
    public var coarseSmoothingWindow: Seconds = 15
    /// With no receiver speed, the boat counts as moving while it is at least the hold radius away
    /// from where it was this long ago (a position-based stand-in for the Doppler speed test).
    public var positionSpeedBaseline: Seconds = 10
    /// Number of recent fixes kept for interpolating distance at catch times.
    public var historyCapacity: Int = 1024
    public init() {}
}

/// Session distance from GPS fixes: the geodesic sum between fixes, made robust to what real
/// receivers do.
///
/// Pipeline per fix: (1) unusable fixes are ignored (no fix, non-finite or out-of-range position,
/// time not after the previous fix — gpsd's repeated epochs, a receiver's time going backwards);
/// (2) implausible jumps are rejected (`GPSJumpFilter`); (3) coarse positions are smoothed
/// (`GPSCoarsePositionSmoother`, only for sources whose grid is coarser than
/// `coarseResolutionThreshold`); (4) the fix is booked:
/// - moving (receiver speed ≥ `stationarySpeed`, or the position has left the hold radius):
///   the geodesic distance from the previous booked fix is added — for clean moving fixes this is
///   exactly the plain geodesic sum of positions — except that below `slowSpeed` it is capped at
///   `slowSpeedTolerance` × the speed integral (slow paddling still counts, jitter does not);
/// - stopped (receiver speed below `stationarySpeed` — or, with no receiver speed, less than the
///   hold radius from where the boat was `positionSpeedBaseline` ago — and within the hold radius
///   of the centroid of the fixes since the boat stopped): nothing is added, so metre-level jitter
///   does not creep into the distance.
///
/// Gaps: a dropout (with or without a `.gap` record) adds the straight line across it only when
/// the positions before and after are plausible for a boat (step 2); otherwise the track is broken
/// there and nothing is added across it. The straight line is a lower bound of the true path.
public struct DistanceAccumulator: Sendable {
    public var configuration: DistanceConfiguration
    /// Total distance booked so far, metres.
    public private(set) var distance: Metres = 0
    /// Time during which the boat was judged moving (intervals whose distance was booked and whose
    /// receiver speed, where known, was at least `stationarySpeed`), seconds.
    public private(set) var movingTime: Seconds = 0
    /// Fixes ignored as unusable (no fix, bad values, time not increasing).
    public private(set) var ignoredFixes = 0
    public private(set) var usedFixes = 0
    public private(set) var resolution = GPSPositionResolution()
    public private(set) var history: DistanceHistory

    private var jumpFilter: GPSJumpFilter
    private var smoother = GPSCoarsePositionSmoother()
    private var lastInputTime: Seconds?

    // Booking state (on the smoothed stream).
    private var previous: GPSFix?
    private var anchor: GPSFix?
    private var centroidLatitudeSum = 0.0, centroidLongitudeSum = 0.0, centroidCount = 0.0
    private var speedIntegralSinceAnchor: Metres = 0
    private var speedKnownSinceAnchor = true
    private var movingTimeSinceAnchor: Seconds = 0
    private var recent: RingBuffer<GeoFixTime>
    private struct GeoFixTime: Sendable { var time: Seconds; var point: GeoPoint }
    private var speedIntegral: Metres = 0
    /// Speed from positions over the baseline, when the receiver gives none.
    private var baselineSpeed: MetresPerSecond?
    private var intervalsWithoutSpeed = 0

    public init(configuration: DistanceConfiguration = .init()) {
        self.configuration = configuration
        jumpFilter = GPSJumpFilter(configuration: configuration.jumps)
        history = DistanceHistory(capacity: configuration.historyCapacity)
        recent = RingBuffer(capacity: 256, filler: GeoFixTime(time: 0, point: GeoPoint(latitude: 0, longitude: 0)))
    }

    /// Fixes rejected as implausible jumps.
    public var rejectedFixes: Int { jumpFilter.rejectedIncludingPending }
    /// Times the track was re-anchored after a run of rejected fixes that agreed with each other.
    public var reanchors: Int { jumpFilter.reanchors }
    /// Distance is final up to this time (the coarse-position smoother holds fixes back).
    public var settledTime: Seconds? { history.newestTime }
    /// Whether positions are being smoothed as coarse.
    public var isSmoothingCoarsePositions: Bool { smoothingWindow > 0 }

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
        lastInputTime = fix.time
        var clean = fix
        if let s = clean.speed, !s.isFinite || s < 0 { clean.speed = nil }
        if let a = clean.horizontalAccuracy, !a.isFinite || a < 0 { clean.horizontalAccuracy = nil }
        resolution.observe(latitude: clean.latitude, longitude: clean.longitude)

        let verdict = jumpFilter.check(clean)
        guard verdict != .reject else { return }
        usedFixes += 1
        let window = smoothingWindow
        let breakBefore = verdict == .acceptAfterBreak
        if breakBefore || window <= 0 { drainSmoother(window: window) }
        smoother.push(clean, breakBefore: breakBefore)
        while let (f, brk) = smoother.popReady(window: window) { book(f, breakBefore: brk) }
    }

    /// Books whatever is still held back (smoothing lag; a final movement smaller than the hold
    /// radius when the boat was clearly moving). Call at the end of a session.
    public mutating func finish() {
        drainSmoother(window: smoothingWindow)
        guard let a = anchor, let p = previous, p.time > a.time else { return }
        let stoppedBySpeed = p.speed.map { $0 < configuration.stationarySpeed } ?? false
        let d = Geodesy.distance(from: a.point, to: p.point)
        if !stoppedBySpeed && d / (p.time - a.time) >= configuration.stationarySpeed {
            bookMovement(to: p, rawDistance: d)
            appendHistory(p.time)
        }
    }

    private mutating func drainSmoother(window: Seconds) {
        while let (f, brk) = smoother.popAny(window: window) { book(f, breakBefore: brk) }
    }

    private mutating func book(_ fix: GPSFix, breakBefore: Bool) {
        guard let prev = previous, !breakBefore else {
            if previous != nil { intervalsWithoutSpeed += 1 }  // no speed integral across a break
            previous = fix
            recent.removeAll()
            recent.append(GeoFixTime(time: fix.time, point: fix.point))
            resetAnchor(fix)
            appendHistory(fix.time)
            return
        }
        recent.append(GeoFixTime(time: fix.time, point: fix.point))
        let dt = fix.time - prev.time
        if let v0 = prev.speed, let v1 = fix.speed {
            let mean = (v0 + v1) / 2
            speedIntegral += mean * dt
            speedIntegralSinceAnchor += mean * dt
            if mean >= configuration.stationarySpeed { movingTimeSinceAnchor += dt }
        } else {
            intervalsWithoutSpeed += 1
            speedKnownSinceAnchor = false
            movingTimeSinceAnchor += dt
        }
        previous = fix

        let anchorFix = anchor ?? fix
        let stopped: Bool
        if let v = fix.speed {
            stopped = v < configuration.stationarySpeed
            baselineSpeed = nil
        } else {
            stopped = !movingByPosition(fix)
        }
        if stopped {
            // Stopped: hold while within the radius of the stop's centroid.
            let centroid = GeoPoint(latitude: anchorFix.latitude + centroidLatitudeSum / centroidCount,
                                    longitude: anchorFix.longitude + centroidLongitudeSum / centroidCount)
            if Geodesy.distance(from: centroid, to: fix.point) < holdRadius(fix) {
                centroidLatitudeSum += fix.latitude - anchorFix.latitude
                centroidLongitudeSum += Geodesy.normalizedLongitudeDifference(fix.longitude - anchorFix.longitude)
                centroidCount += 1
                movingTimeSinceAnchor = 0
                appendHistory(fix.time)
                return
            }
        }
        bookMovement(to: fix, rawDistance: Geodesy.distance(from: anchorFix.point, to: fix.point))
        appendHistory(fix.time)
    }

    private mutating func bookMovement(to fix: GPSFix, rawDistance: Metres) {
        var added = rawDistance
        if let a = anchor, fix.time > a.time {
            let span = fix.time - a.time
            let integral: Metres? = speedKnownSinceAnchor ? speedIntegralSinceAnchor : baselineSpeed.map { $0 * span }
            if let i = integral, i / span < configuration.slowSpeed {
                added = min(added, configuration.slowSpeedTolerance * i)
            }
        }
        distance += added
        movingTime += movingTimeSinceAnchor
        resetAnchor(fix)
    }

    private mutating func resetAnchor(_ fix: GPSFix) {
        anchor = fix
        centroidLatitudeSum = 0
        centroidLongitudeSum = 0
        centroidCount = 1
        speedIntegralSinceAnchor = 0
        speedKnownSinceAnchor = true
        movingTimeSinceAnchor = 0
    }

    /// With no receiver speed: whether the boat is at least the hold radius from where it was
    /// `positionSpeedBaseline` ago (unknown early in a track piece counts as not moving).
    private mutating func movingByPosition(_ fix: GPSFix) -> Bool {
        var i = recent.count - 1
        while i > 0 && recent[i].time > fix.time - configuration.positionSpeedBaseline { i -= 1 }
        let then = recent[i]
        guard fix.time - then.time >= configuration.positionSpeedBaseline / 2 else {
            baselineSpeed = nil
            return false
        }
        let d = Geodesy.distance(from: then.point, to: fix.point)
        baselineSpeed = d / (fix.time - then.time)
        return d >= holdRadius(fix)
    }

    private func holdRadius(_ fix: GPSFix) -> Metres {
        max(configuration.minimumHoldRadius,
            configuration.holdAccuracyFactor * (fix.horizontalAccuracy ?? 0),
            configuration.holdResolutionFactor * (resolution.gridStep ?? 0))
    }

    private mutating func appendHistory(_ time: Seconds) {
        history.append(.init(time: time, distance: distance, speedIntegral: speedIntegral,
                             intervalsWithoutSpeed: intervalsWithoutSpeed))
    }
}
