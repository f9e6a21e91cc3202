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
    private var passages: [GatePassage]
    private var recent = RecentFixes(capacity: 128)
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
        passages = Array(repeating: GatePassage(), count: fences.count)
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
        recent.append(fix)
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
            guard fence.mayBeNear(pb) || fence.mayBeNear(pa) else {
                passages[k].reset()
                continue
            }
            statistics.nearChecks += 1
            let p0 = fence.project(pa), p1 = fence.project(pb)
            // Does the pair meet the gate line within its ends?
            var met = false
            for e in 0..<(line.count - 1) where PlaneGeometry.segmentIntersection(p0, p1, line[e], line[e + 1]) != nil {
                met = true
                break
            }
            let chordStart = line[0], chordEnd = line[line.count - 1]
            let chordLength = (chordEnd - chordStart).length
            let s0 = PlaneGeometry.cross(chordStart, chordEnd, p0) / chordLength
            let s1 = PlaneGeometry.cross(chordStart, chordEnd, p1) / chordLength
            let margin = fence.fence.hysteresis ?? configuration.gateHysteresis
            if let rejected {
                if met {
                    statistics.rejectedCrossings += 1
                    emit(.rejectedCrossing(RejectedCrossing(gate: fence.fence.id, after: a.time, before: b.time, reason: rejected)))
                }
                passages[k].reset()
                if abs(s1) > margin { passages[k].clearSide = s1 > 0 ? 1 : -1 }
                continue
            }
            if met && (s0 > 0) != (s1 > 0) {
                let fraction = min(1, max(0, s0 / (s0 - s1)))
                if !passages[k].pending {
                    passages[k].pending = true
                    passages[k].firstPairStart = a.time
                    if passages[k].clearSide == 0 { passages[k].clearSide = s0 > 0 ? 1 : -1 }
                }
                passages[k].lastPairEnd = b.time
                passages[k].lastRawTime = a.time + (b.time - a.time) * fraction
                passages[k].lastRawFraction = fraction
            }
            guard abs(s1) > margin else { continue }
            let side = s1 > 0 ? 1 : -1
            if side == passages[k].clearSide || passages[k].clearSide == 0 {
                passages[k].pending = false  // back where it was: the zigzag was noise
                passages[k].clearSide = side
                continue
            }
            passages[k].clearSide = side
            guard passages[k].pending else { continue }  // went round the end of the line
            passages[k].pending = false
            let crossing = fitCrossing(fence: fence, chordStart: chordStart, chordEnd: chordEnd,
                                       passage: passages[k], a: a, b: b, forward: forward, side: side)
            statistics.crossings += 1
            emit(.cross(crossing))
            courseTracker?.crossed(crossing, emit: emit)
        }
    }

    /// The crossing time from a straight-line fit of the signed distance to the gate line against
    /// time, over the recent fixes from 0.5 s before the first raw crossing's pair to 0.5 s after
    /// the last one (at 10 Hz about ten fixes, which averages out the jitter). With only the two
    /// fixes either side (1–2 Hz), a cubic through both that also matches their Doppler speeds
    /// (the boat surges and slows within a stroke). Falls back to the last raw crossing's linear
    /// interpolation if the fit is degenerate.
    private func fitCrossing(fence: ProjectedFence, chordStart: PlanePoint, chordEnd: PlanePoint, passage: GatePassage,
                             a: GPSFix, b: GPSFix, forward: PlanePoint?, side: Int) -> GateCrossing {
        let from = passage.firstPairStart - 0.5, to = passage.lastPairEnd + 0.5
        let chordLength = (chordEnd - chordStart).length
        var n = 0.0, st = 0.0, ss = 0.0, stt = 0.0, sts = 0.0
        var first: (time: Seconds, point: PlanePoint)?
        var last: (time: Seconds, point: PlanePoint)?
        var before: RecentFixes.Entry?, after: RecentFixes.Entry?
        let t0 = passage.lastRawTime
        recent.forEach { entry in
            guard entry.time >= from, entry.time <= to else { return }
            let p = fence.project(entry.point)
            let s = PlaneGeometry.cross(chordStart, chordEnd, p) / chordLength
            let t = entry.time - t0
            n += 1; st += t; ss += s; stt += t * t; sts += t * s
            if first == nil { first = (entry.time, p) }
            last = (entry.time, p)
            if entry.time <= t0 { before = entry } else if after == nil { after = entry }
        }
        var time = passage.lastRawTime
        let denominator = n * stt - st * st
        if n == 2, let before, let after, let cubic = Self.hermiteRoot(fence: fence, chordStart: chordStart, chordEnd: chordEnd,
                                                                        before, after) {
            time = cubic
        } else if n >= 2, denominator > 1e-12 {
            let slope = (n * sts - st * ss) / denominator
            let intercept = (ss - slope * st) / n
            if slope != 0, (slope > 0) == (side > 0) {
                let fitted = t0 - intercept / slope
                if fitted >= from, fitted <= to { time = fitted }
            }
        }
        var step = PlanePoint(east: 0, north: 0)
        var stepTime: Seconds = 0
        if let first, let last, last.time > first.time {
            step = last.point - first.point
            stepTime = last.time - first.time
        }
        var speed = stepTime > 0 ? step.length / stepTime : 0
        if let before, let after, let va = before.speed, let vb = after.speed, after.time > before.time {
            let f = min(1, max(0, (time - before.time) / (after.time - before.time)))
            speed = va + (vb - va) * f
        }
        var wrongWay = false
        if let forward {
            // Which side is "ahead" for this gate: the side the required bearing points to.
            let ahead = PlaneGeometry.cross(chordStart, chordEnd, chordStart + forward) > 0 ? 1 : -1
            wrongWay = side != ahead
        }
        // Where the fitted crossing lies on the pair that met the line last.
        let pa = fence.project(a.point), pb = fence.project(b.point)
        let f = b.time > a.time ? min(1, max(0, (time - a.time) / (b.time - a.time))) : 0.5
        let at = pa + (pb - pa) * f
        return GateCrossing(gate: fence.fence.id, time: time, position: fence.plane.unproject(east: at.east, north: at.north),
                            speed: speed, heading: PlaneGeometry.bearing(of: step), wrongWay: wrongWay,
                            fixInterval: passage.lastPairEnd - passage.firstPairStart)
    }

    /// The time the cubic Hermite curve of the signed distance between two fixes (values and
    /// slopes from their positions and Doppler speeds along the pair's direction) is zero; `nil`
    /// without speeds or without a sign change.
    private static func hermiteRoot(fence: ProjectedFence, chordStart: PlanePoint, chordEnd: PlanePoint,
                                    _ a: RecentFixes.Entry, _ b: RecentFixes.Entry) -> Seconds? {
        guard let va = a.speed, let vb = b.speed else { return nil }
        let pa = fence.project(a.point), pb = fence.project(b.point)
        let chord = chordEnd - chordStart
        let chordLength = chord.length
        let s0 = PlaneGeometry.cross(chordStart, chordEnd, pa) / chordLength
        let s1 = PlaneGeometry.cross(chordStart, chordEnd, pb) / chordLength
        guard (s0 > 0) != (s1 > 0) else { return nil }
        let step = pb - pa
        let stepLength = step.length
        let dt = b.time - a.time
        guard stepLength > 0, dt > 0 else { return nil }
        // Rate of change of the signed distance per unit speed along the step's direction.
        let normalRate = (chord.east * step.north - chord.north * step.east) / (chordLength * stepLength)
        let m0 = va * normalRate * dt, m1 = vb * normalRate * dt
        // Keep the curve monotonic (a noisy speed must not fold it back over the line).
        let secant = s1 - s0
        guard m0 * secant > 0, m1 * secant > 0, m0 / secant < 3, m1 / secant < 3 else { return nil }
        func h(_ u: Double) -> Double {
            let u2 = u * u, u3 = u2 * u
            return (2 * u3 - 3 * u2 + 1) * s0 + (u3 - 2 * u2 + u) * m0 + (-2 * u3 + 3 * u2) * s1 + (u3 - u2) * m1
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<40 {
            let mid = (lo + hi) / 2
            if (h(mid) > 0) == (s0 > 0) { lo = mid } else { hi = mid }
        }
        return a.time + dt * (lo + hi) / 2
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
