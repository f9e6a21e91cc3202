import OarlogCore

/// Times the catch — the bottom of the catch dip — on the raw (un-averaged) surge samples.
///
/// The dip is a lopsided V: a slow fall as the crew runs towards the stern into the catch, then
/// a rise several times steeper as the blade locks. Any symmetric smoothing, and a parabola
/// through the lowest three samples, moves the bottom of such a V towards its slow side, i.e.
/// early (by up to half the smoothing width or the sample spacing: 20–30 ms at 25 Hz). So the
/// bottom is taken as the corner of two straight lines fitted together by least squares, one to
/// the fall (`fallSpan` before the lowest sample) and one to the rise (`riseSpan` after it), the
/// corner time free. A symmetric average — the sensor's own, or a resampler's — leaves straight
/// lines straight, so it does not move the corner either.
///
/// Steps: the lowest sample of the lightly smoothed signal near the coarse estimate (a triangle
/// 10 ms to each side: [1 2 1] at 100 Hz, none at 50 Hz and below), then the corner time within
/// `max(1.5 samples, 20 ms)` of it with the least squared error (a grid, then a finer grid).
/// Only runs once per stroke; allocates nothing.
enum StrokeCatchFit {
    /// Half-width of the triangular smoothing used to find the lowest sample.
    static let smoothingHalfWidth: Seconds = 0.010
    /// The fall's line is fitted over this long before the lowest sample (at least 2 samples).
    static let fallSpan: Seconds = 0.080
    /// The rise's line is fitted over this long after it (at least 2 samples): the rise is short,
    /// the drive's own hump follows within 0.1 s.
    static let riseSpan: Seconds = 0.050
    /// The dip's bottom: within this fraction of its depth (below the running mean) of the
    /// lowest point.
    static let bottomBand: Float = 0.1
    /// The corner is searched this far either side of the lowest sample (at least 1.5 samples).
    static let cornerReach: Seconds = 0.020

    /// The catch time from the raw samples within `from...to` (the window in which the averaged
    /// signal's dip was found), or `nil` when the raw history does not reach back that far.
    /// `interval` is the raw sample interval, `level` the surge's running mean.
    static func catchTime(in raw: StrokeRawHistory, from lo: Seconds, to now: Seconds,
                          interval: Seconds, level: Float) -> Seconds? {
        guard raw.count > 0, raw.count <= StrokeRawHistory.capacity || raw.time(raw.oldest) <= lo else { return nil }
        let lo = max(lo, raw.time(raw.oldest)), hi = now  // (the start of the data may be nearer)
        guard interval > 0, hi > lo,
              let first = raw.firstIndex(atOrAfter: lo), let last = raw.lastIndex(atOrBefore: hi), first <= last
        else { return nil }

        // 1. The lowest sample of the lightly smoothed signal — the last low point of the dip's
        //    bottom when it has two (a flat bottom: the catch is where the rise begins).
        let k = Int((smoothingHalfWidth / interval + 1e-6).rounded(.down))
        var lowest = first
        var lowestValue = Float.infinity
        for n in first...last {
            let v = smoothed(raw, n, k)
            if v < lowestValue { lowestValue = v; lowest = n }
        }
        let bottom = lowestValue + bottomBand * max(0, level - lowestValue)
        var n = lowest + 1
        var previous = lowestValue
        while n < last, smoothed(raw, n, k) <= bottom {
            let v = smoothed(raw, n, k)
            if v <= previous && v <= smoothed(raw, n + 1, k) { lowest = n }
            previous = v
            n += 1
        }
        let tm = raw.time(lowest)
        // The last sample of the bottom, when it lasts longer than the rise's span.
        let bottomEnd = raw.time(n - 1) - tm > riseSpan ? n - 1 : lowest

        // 2. The corner of two lines fitted to the fall and the rise around it. A bottom longer
        //    than the rise's span (flat, or sampled coarsely) widens the fit to two samples past
        //    it and the corner's search to its end, so the steep rise is always in view.
        let fall = max(fallSpan, 2 * interval) + 0.5 * interval
        let a = raw.firstIndex(atOrAfter: tm - fall) ?? lowest
        let rise = max(riseSpan, 2 * interval) + 0.5 * interval
        guard let rb = raw.lastIndex(atOrBefore: min(tm + rise, now)), let nb = raw.lastIndex(atOrBefore: now) else { return tm }
        let b = min(max(rb, bottomEnd + 2), nb)
        guard b - a >= 3 else { return tm }
        let reach = max(1.5 * interval, cornerReach)
        let reachLate = max(reach, raw.time(bottomEnd) - tm + interval)
        var step = (reach + reachLate) / 20
        var best: (corner: Seconds, error: Double)? = nil
        for c in 0...20 {
            let corner = -reach + Double(c) * step
            if let e = fitError(raw, a, b, origin: tm, corner: corner), best.map({ e < $0.error }) ?? true { best = (corner, e) }
        }
        guard let coarseBest = best else { return tm }
        let centre = coarseBest.corner
        step /= 10
        for c in -10...10 where c != 0 {
            let corner = centre + Double(c) * step
            if let e = fitError(raw, a, b, origin: tm, corner: corner), e < best!.error { best = (corner, e) }
        }
        return tm + best!.corner
    }

    /// The sample lightly smoothed by a triangle of half-width `k` samples (none for `k` = 0).
    @inline(__always)
    private static func smoothed(_ raw: StrokeRawHistory, _ n: Int, _ k: Int) -> Float {
        guard k > 0 else { return raw.value(n) }
        var sum: Float = 0, weight: Float = 0
        for j in max(-k, raw.oldest - n)...min(k, raw.count - 1 - n) {
            let w = Float(k + 1 - abs(j))
            sum += w * raw.value(n + j)
            weight += w
        }
        return sum / weight
    }

    /// Squared error of the best V with its corner at `origin + corner` over samples `a...b`:
    /// y = c + s₁·min(t − corner, 0) + s₂·max(t − corner, 0). `nil` unless at least two samples
    /// lie on each side and the V opens upwards (falling into the corner, rising out of it).
    private static func fitError(_ raw: StrokeRawHistory, _ a: Int, _ b: Int, origin: Seconds, corner: Seconds) -> Double? {
        var n = 0.0, su = 0.0, sv = 0.0, suu = 0.0, svv = 0.0
        var sy = 0.0, suy = 0.0, svy = 0.0, syy = 0.0
        var left = 0, right = 0
        for i in a...b {
            let x = raw.time(i) - origin - corner
            let y = Double(raw.value(i))
            let u = min(x, 0), v = max(x, 0)
            if x < 0 { left += 1 } else if x > 0 { right += 1 }
            n += 1; su += u; sv += v; suu += u * u; svv += v * v
            sy += y; suy += u * y; svy += v * y; syy += y * y
        }
        guard left >= 2, right >= 2 else { return nil }
        // Normal equations; u·v = 0, so the slopes decouple given the offset c.
        let denominator = n - su * su / suu - sv * sv / svv
        guard denominator > 0 else { return nil }
        let c = (sy - su * suy / suu - sv * svy / svv) / denominator
        let s1 = (suy - su * c) / suu, s2 = (svy - sv * c) / svv
        guard s1 < 0, s2 > 0 else { return nil }
        return syy - c * sy - s1 * suy - s2 * svy
    }
}
