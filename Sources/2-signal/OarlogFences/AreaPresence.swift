import OarlogCore

/// Where the boat is relative to one area, with the hysteresis and confirmation that keep GPS
/// noise at the edge from producing enter/exit chatter.
///
/// Each fix is classified from its signed distance `d` to the boundary and its margin `m`
/// (the fence's hysteresis plus the fix's error estimate): clearly inside if d < −m, clearly
/// outside if d > m, otherwise undecided (undecided fixes change nothing). A change of side is
/// a candidate from the first clear fix on the new side and becomes final (the event is
/// emitted) once it has held for the confirmation time with no clear fix on the old side and
/// the mean signed distance of the fixes since its first clear fix is itself beyond the margin
/// (else the candidate is dropped: noise at the edge gives lone clear fixes, a boat that really
/// crossed keeps going).
/// The event's time is the latest raw boundary crossing before the first clear fix,
/// interpolated between the two fixes either side of it.
struct AreaPresence: Sendable {
    enum Side: Sendable, Equatable { case unknown, outside, inside }

    private(set) var side: Side = .unknown
    private var candidate: Side?
    private var candidateSince: Seconds = 0
    private var candidateEventTime: Seconds = 0
    /// Sum and count of the signed distances since the candidate's first clear fix.
    private var candidateSum: Metres = 0
    private var candidateCount = 0
    private var enteredAt: Seconds?
    private var dwellReported = false
    /// Last fix used: time and signed distance (for the raw crossing interpolation).
    private var lastTime: Seconds?
    private var lastDistance: Metres = 0
    /// Time of the latest raw sign change of the signed distance.
    private var lastRawCrossing: Seconds?
    /// Time of the latest fix clearly on the current side.
    private var lastClearTime: Seconds = -.infinity

    /// Whether nothing is going on for this area: known to be outside, no candidate. A fix far
    /// from such an area can be skipped.
    var isQuietOutside: Bool { side == .outside && candidate == nil }

    /// Feeds one fix. `distance` is the signed distance (negative inside); `.infinity` for a fix
    /// far away; `gapTooLong` stops interpolation across an implausible pair.
    mutating func update(time: Seconds, distance: Metres, margin: Metres, gapTooLong: Bool,
                         fence: Fence, confirmation: Seconds, emit: (FenceEvent) -> Void) {
        if let lastTime, !gapTooLong, (lastDistance < 0) != (distance < 0), distance.isFinite, lastDistance.isFinite {
            let fraction = lastDistance / (lastDistance - distance)
            lastRawCrossing = lastTime + (time - lastTime) * fraction
        } else if let lastTime, (lastDistance < 0) != (distance < 0) {
            lastRawCrossing = gapTooLong ? time : lastTime + (time - lastTime) / 2
        }
        lastTime = time
        lastDistance = distance

        let clear: Side? = distance < -margin ? .inside : (distance > margin ? .outside : nil)
        if let clear {
            if side == .unknown && clear == .outside {
                side = .outside
                lastClearTime = time
            } else if clear == side {
                candidate = nil
                lastClearTime = time
            } else if candidate != clear {
                candidate = clear
                candidateSince = time
                candidateSum = 0
                candidateCount = 0
                if let crossing = lastRawCrossing, crossing >= lastClearTime, crossing <= time {
                    candidateEventTime = crossing
                } else {
                    candidateEventTime = time
                }
            }
        }
        if let candidate {
            candidateSum += distance
            candidateCount += 1
            if time - candidateSince >= confirmation {
                // Final only if the fixes since the first clear one are, on average, beyond the
                // margin on the new side: one lucky fix at the edge is not enough.
                let mean = candidateSum / Double(candidateCount)
                if candidate == .inside ? mean < -margin : mean > margin {
                    commit(candidate, fence: fence, emit: emit)
                    lastClearTime = time
                } else {
                    self.candidate = nil
                }
            }
        }
        if side == .inside, !dwellReported, let dwell = fence.dwellTime, let enteredAt, time - enteredAt >= dwell {
            dwellReported = true
            emit(.dwell(fence: fence.id, time: enteredAt + dwell, timeInside: time - enteredAt))
        }
    }

    private mutating func commit(_ newSide: Side, fence: Fence, emit: (FenceEvent) -> Void) {
        candidate = nil
        side = newSide
        if newSide == .inside {
            enteredAt = candidateEventTime
            dwellReported = false
            emit(.enter(fence: fence.id, time: candidateEventTime))
        } else {
            emit(.exit(fence: fence.id, time: candidateEventTime, timeInside: enteredAt.map { candidateEventTime - $0 }))
            enteredAt = nil
        }
    }
}
