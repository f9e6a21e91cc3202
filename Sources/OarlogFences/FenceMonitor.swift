import OarlogCore

/// Counts of what the monitor did with its input, for reports and tests.
public struct FenceStatistics: Sendable, Equatable {
    /// Fixes handed to the monitor.
    public var fixes = 0
    /// Fixes ignored because their time did not move forward (duplicates, out of order).
    public var outOfOrderFixes = 0
    /// Fixes ignored as unusable (no fix, error estimate too large, position out of range).
    public var unusableFixes = 0
    /// Fixes set aside as GPS jumps (too far from both neighbours).
    public var jumpFixes = 0
    /// Pairs of consecutive fixes not trusted for timing (gap or jump).
    public var rejectedPairs = 0
    /// Gate crossings found between such pairs: counted, not timed.
    public var rejectedCrossings = 0
    /// Gate crossings timed.
    public var crossings = 0
    /// Fence checks that went past the latitude/longitude prefilter (cost indicator).
    public var nearChecks = 0
    public init() {}
}

/// The streaming geofence stage: fed GPS fixes (and strokes, for course legs) in time order, it
/// emits area events (enter, exit, dwell), gate crossings and course results as they happen.
///
/// - Areas: hysteresis and the fix's own error estimate keep noise at an edge from chattering
///   (see `AreaPresence`).
/// - Gates: a gate is crossed when the straight track between two consecutive fixes meets the
///   line, even if no fix is near it; the time is interpolated along that pair. Pairs with a gap
///   longer than `maximumFixGap` or implying more than `maximumSpeed` are rejected and every
///   crossing they would have made is counted (`rejectedCrossing` events).
/// - Fixes whose time does not move forward are ignored: time never runs backward.
/// - Every fence has its own tangent plane; a cheap latitude/longitude box skips far fences, so
///   hundreds of fences cost little per fix.
///
/// Memory is fixed by the number of fences. Value type: copy it to fork the state.
public struct FenceMonitor: Sendable {
    public let configuration: FenceMonitorConfiguration
    public let fences: [Fence]
    public private(set) var statistics = FenceStatistics()
    public private(set) var courseTracker: CourseTracker?

    private let projected: [ProjectedFence]
    private var presence: [AreaPresence]
    /// The last fix accepted (the start of the next pair).
    private var previous: GPSFix?
    /// A fix that jumped away from `previous`: kept aside until the next fix tells which was wrong.
    private var suspect: GPSFix?
    private var latestTime: Seconds = -.infinity

    public init(fences: [Fence], course: Course? = nil, configuration: FenceMonitorConfiguration = .init()) {
        self.configuration = configuration
        self.fences = fences
        let margin = max(configuration.hysteresis, fences.compactMap(\.hysteresis).max() ?? 0)
            + configuration.maximumAccuracy
            + configuration.maximumSpeed * configuration.maximumFixGap
        projected = fences.map { ProjectedFence($0, margin: margin) }
        presence = Array(repeating: AreaPresence(), count: fences.count)
        courseTracker = course.map { CourseTracker(course: $0, strokeLatency: configuration.strokeLatency) }
    }

    /// A monitor for everything a fence file defines (its fences and its course, if any).
    public init(_ file: FenceFile, configuration: FenceMonitorConfiguration = .init()) {
        self.init(fences: file.fences, course: file.course, configuration: configuration)
    }

    /// Processes one fix.
    public mutating func process(_ fix: GPSFix, emit: (FenceEvent) -> Void) {
        statistics.fixes += 1
        guard fix.time.isFinite, fix.time > latestTime else {
            statistics.outOfOrderFixes += 1
            return
        }
        guard fix.mode != .noFix, fix.latitude.isFinite, fix.longitude.isFinite, abs(fix.latitude) <= 90,
              abs(fix.longitude) <= 180, (fix.horizontalAccuracy ?? 0) <= configuration.maximumAccuracy
        else {
            statistics.unusableFixes += 1
            return
        }
        latestTime = fix.time
        courseTracker?.advance(to: fix.time, emit: emit)

        guard let p = previous else {
            accept(fix, pairFrom: nil, emit: emit)
            return
        }
        if let s = suspect {
            // The last fix jumped away from `p`. If this one follows on from `p`, the suspect was a
            // lone outlier and is dropped; if it follows on from the suspect, the boat really is
            // there: the jump pair is rejected and the suspect accepted.
            suspect = nil
            if rejection(from: p, to: fix) == nil {
                statistics.jumpFixes += 1
                accept(fix, pairFrom: p, emit: emit)
                return
            }
            accept(s, pairFrom: p, emit: emit)
            accept(fix, pairFrom: s, emit: emit)
            return
        }
        if case .jump = rejection(from: p, to: fix) {
            suspect = fix
            return
        }
        accept(fix, pairFrom: p, emit: emit)
    }

    /// Takes `fix` as the boat's position: times or rejects the pair from `start`, updates the
    /// areas, and makes it the start of the next pair.
    private mutating func accept(_ fix: GPSFix, pairFrom start: GPSFix?, emit: (FenceEvent) -> Void) {
        var rejected: RejectionReason?
        if let start {
            rejected = rejection(from: start, to: fix)
            if rejected != nil { statistics.rejectedPairs += 1 }
            checkGates(from: start, to: fix, rejected: rejected, emit: emit)
        }
        updateAreas(fix, gapTooLong: rejected != nil, emit: emit)
        previous = fix
    }

    /// Feeds a stroke to the course tracker (its catch time and rate).
    public mutating func stroke(catchTime: Seconds, rate: StrokesPerMinute?) {
        courseTracker?.stroke(catchTime: catchTime, rate: rate)
    }

    /// Feeds a stroke the analyzer completed.
    public mutating func stroke(_ metrics: StrokeMetrics) {
        stroke(catchTime: metrics.stroke.catchTime, rate: metrics.stroke.strokeRate ?? metrics.smoothedRate)
    }

    /// End of the session: pending course legs are reported, a piece under way is incomplete.
    public mutating func finish(emit: (FenceEvent) -> Void) {
        courseTracker?.finish(at: latestTime.isFinite ? latestTime : 0, emit: emit)
    }

    // MARK: - Pairs and gates

    private func rejection(from a: GPSFix, to b: GPSFix) -> RejectionReason? {
        let dt = b.time - a.time
        if dt > configuration.maximumFixGap { return .gap(dt) }
        let distance = Geodesy.distance(from: a.point, to: b.point)
        let speed = distance / dt
        if speed > configuration.maximumSpeed { return .jump(speed) }
        return nil
    }

    private mutating func checkGates(from a: GPSFix, to b: GPSFix, rejected: RejectionReason?, emit: (FenceEvent) -> Void) {
        let pa = a.point, pb = b.point
        for k in projected.indices {
            guard case .gate(let line, let forward) = projected[k].shape else { continue }
            let fence = projected[k]
            guard fence.mayBeNear(pb) || fence.mayBeNear(pa) else { continue }
            statistics.nearChecks += 1
            let p0 = fence.project(pa), p1 = fence.project(pb)
            // The first edge of the gate line the pair meets (a gate is normally one edge).
            var hit: (alongPair: Double, edge: Int)?
            for e in 0..<(line.count - 1) {
                if let x = PlaneGeometry.segmentIntersection(p0, p1, line[e], line[e + 1]),
                   hit == nil || x.alongFirst < hit!.alongPair {
                    hit = (x.alongFirst, e)
                }
            }
            guard let hit else { continue }
            if let rejected {
                statistics.rejectedCrossings += 1
                emit(.rejectedCrossing(RejectedCrossing(gate: fence.fence.id, after: a.time, before: b.time, reason: rejected)))
                continue
            }
            // Interpolate along the pair by the signed distances to the crossed edge's line
            // (the same fraction as the intersection, computed robustly for nearly parallel pairs).
            let e0 = line[hit.edge], e1 = line[hit.edge + 1]
            let s0 = PlaneGeometry.cross(e0, e1, p0), s1 = PlaneGeometry.cross(e0, e1, p1)
            let fraction = s0 != s1 ? min(1, max(0, s0 / (s0 - s1))) : hit.alongPair
            let dt = b.time - a.time
            let time = a.time + dt * fraction
            let step = p1 - p0
            let stepSpeed = step.length / dt
            var speed = stepSpeed
            if let va = a.speed, let vb = b.speed { speed = va + (vb - va) * fraction }
            let heading = PlaneGeometry.bearing(of: step)
            var wrongWay = false
            if let forward { wrongWay = step.east * forward.east + step.north * forward.north < 0 }
            let at = p0 + step * fraction
            let position = fence.plane.unproject(east: at.east, north: at.north)
            let crossing = GateCrossing(gate: fence.fence.id, time: time, position: position, speed: speed,
                                        heading: heading, wrongWay: wrongWay, fixInterval: dt)
            statistics.crossings += 1
            emit(.cross(crossing))
            courseTracker?.crossed(crossing, emit: emit)
        }
    }

    // MARK: - Areas

    private mutating func updateAreas(_ fix: GPSFix, gapTooLong: Bool, emit: (FenceEvent) -> Void) {
        let point = fix.point
        let accuracy = fix.horizontalAccuracy ?? configuration.assumedAccuracy
        for k in projected.indices where fences[k].isArea {
            let fence = projected[k]
            let near = fence.mayBeNear(point)
            if !near && presence[k].isQuietOutside { continue }
            var distance = Metres.infinity
            if near {
                statistics.nearChecks += 1
                distance = fence.signedDistance(fence.project(point))
            }
            let margin = (fences[k].hysteresis ?? configuration.hysteresis) + accuracy
            presence[k].update(time: fix.time, distance: distance, margin: margin, gapTooLong: gapTooLong,
                               fence: fences[k], confirmation: configuration.confirmationTime, emit: emit)
        }
    }
}
