import OarlogCore

/// Times the finish — the end of the drive — on the raw (un-averaged) surge samples.
///
/// At the finish the blade leaves the water: the boat stops being pushed, and its acceleration,
/// falling steeply from the drive, meets the level it has with no blade force, the glide's
/// deceleration by drag (gravity and mounting removed, that is below zero: about −0.2 m/s² in a
/// single at 3 m/s, −0.35 in a crew boat at 4 m/s). The surge's running mean (zero acceleration)
/// is crossed earlier, where the push only equals the drag — 15–20 ms before the finish in a
/// steady stroke, more in light paddling, where the fall is gentler — and any smoothing of the
/// corner (the averaged signal's boxes and [1 2 1]) pulls that crossing earlier still. So the
/// finish is taken as the corner of two straight lines fitted together by least squares to the
/// raw samples: one to the drive's steep fall, one to what follows it (the glide, or the small
/// dip of the release, falling less steeply or rising), the corner time free — as the catch is
/// timed (`StrokeCatchFit`), with no delay and at the input's full time resolution.
///
/// The fall is fitted from `fallSpan` before the coarse finish (the averaged surge's crossing of
/// its running mean) and the corner sought from `earlyReach` before it to `lateReach` after it;
/// the line after the corner reaches `glideSpan` past the corner's latest place, or to the
/// newest sample. Runs once per stroke; allocates nothing (a stack buffer).
enum StrokeFinishFit {
    /// The fall's line starts this long before the coarse finish (at least 3 samples).
    static let fallSpan: Seconds = 0.100
    /// The corner is sought from this long before the coarse finish…
    static let earlyReach: Seconds = 0.040
    /// …to this long after it (where the fall has ended, in light paddling too).
    static let lateReach: Seconds = 0.100
    /// The line after the corner reaches this far past the corner's latest place (at least 2 samples).
    static let glideSpan: Seconds = 0.060

    /// The finish from the raw samples around `coarse` (the averaged surge's crossing of its
    /// running mean after the drive's peak at `peak`), samples up to `now`; `nil` when the raw
    /// history does not reach back that far or no corner fits. `interval` is the raw sample
    /// interval.
    static func finishTime(in history: StrokeRawHistory, near coarse: Seconds, after peak: Seconds,
                           to now: Seconds, interval: Seconds) -> Seconds? {
        history.withReader { raw in
            finishTime(in: raw, near: coarse, after: peak, to: now, interval: interval)
        }
    }

    private static func finishTime(in raw: StrokeRawHistory.Reader, near coarse: Seconds, after peak: Seconds,
                                   to now: Seconds, interval: Seconds) -> Seconds? {
        guard interval > 0, raw.count > 0 else { return nil }
        let lo = max(peak, coarse - max(fallSpan, 3 * interval))
        let hi = min(now, coarse + lateReach + max(glideSpan, 2 * interval))
        guard raw.time(raw.oldest) <= lo, hi > lo,
              let a = raw.firstIndex(atOrAfter: lo, interval: interval),
              let b = raw.lastIndex(atOrBefore: hi, interval: interval), b - a >= 4
        else { return nil }
        let count = b - a + 1
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * count) { buffer in
            for i in 0..<count {
                buffer[i] = raw.time(a + i) - coarse
                buffer[count + i] = Double(raw.value(a + i))
            }
            let fit = StrokeCatchFit.VFit(x: UnsafeBufferPointer(rebasing: buffer[0..<count]),
                                          y: UnsafeBufferPointer(rebasing: buffer[count..<2 * count]), shape: .knee)
            return fit.corner(within: -earlyReach, lateReach).map { coarse + $0 }
        }
    }
}
