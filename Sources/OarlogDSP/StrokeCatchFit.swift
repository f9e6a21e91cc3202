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
/// `max(1.5 samples, 20 ms)` of it with the least squared error (a grid, then a finer grid;
/// each candidate costs O(1) from running sums). Runs once per stroke; allocates nothing.
nonisolated(unsafe) public var benchDisableFit = false
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

    /// The catch time from the raw samples within `from...to`, the dip's lowest point sought
    /// within `margin` of the coarse estimate `near` (from the averaged signal); `nil` when the
    /// raw history does not reach back that far. `interval` is the raw sample interval, `level`
    /// the surge's running mean.
    static func catchTime(in raw: StrokeRawHistory, near coarse: Seconds, margin: Seconds,
                          from: Seconds, to now: Seconds, interval: Seconds, level: Float) -> Seconds? {
        if benchDisableFit { return nil }
        guard raw.count > 0, raw.count <= StrokeRawHistory.capacity || raw.time(raw.oldest) <= from else { return nil }
        let lo = max(from, coarse - margin, raw.time(raw.oldest)), hi = min(now, coarse + margin)
        guard interval > 0, hi > lo, let first = raw.firstIndex(atOrAfter: lo), let last = raw.lastIndex(atOrBefore: hi),
              let newest = raw.lastIndex(atOrBefore: now), first <= last
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
        var current = n <= newest ? smoothed(raw, n, k) : .infinity
        while n < newest, current <= bottom {
            let next = smoothed(raw, n + 1, k)
            if current <= previous && current <= next { lowest = n }
            previous = current
            current = next
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
        guard let rb = raw.lastIndex(atOrBefore: min(tm + rise, now)) else { return tm }
        let b = min(max(rb, bottomEnd + 2), newest)
        guard b - a >= 3 else { return tm }
        let reach = max(1.5 * interval, cornerReach)
        let reachLate = max(reach, raw.time(bottomEnd) - tm + interval)
        let fit = VFit(raw, a, b, origin: tm)
        let coarseStep = (reach + reachLate) / 20
        guard let coarseBest = fit.best(from: -reach, step: coarseStep, count: 21) else { return tm }
        let fine = fit.best(from: coarseBest - coarseStep, step: coarseStep / 10, count: 21) ?? coarseBest
        return tm + fine
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

    /// Least-squares V over samples `a...b` (times relative to `origin`):
    /// y = c + s₁·min(x − corner, 0) + s₂·max(x − corner, 0).
    private struct VFit {
        let raw: StrokeRawHistory
        let a: Int, b: Int
        let origin: Seconds
        // Sums over all the samples: count, x, x², y, xy, y².
        var n = 0.0, sx = 0.0, sxx = 0.0, sy = 0.0, sxy = 0.0, syy = 0.0

        init(_ raw: StrokeRawHistory, _ a: Int, _ b: Int, origin: Seconds) {
            self.raw = raw; self.a = a; self.b = b; self.origin = origin
            for i in a...b {
                let x = raw.time(i) - origin, y = Double(raw.value(i))
                n += 1; sx += x; sxx += x * x; sy += y; sxy += x * y; syy += y * y
            }
        }

        /// The corner among `from + j·step` (j < count) with the least squared error, among
        /// those with at least two samples on each side and a V opening upwards. One sweep:
        /// the sums left of the corner grow as it moves right.
        func best(from: Seconds, step: Seconds, count: Int) -> Seconds? {
            var i = a
            var ln = 0.0, lx = 0.0, lxx = 0.0, ly = 0.0, lxy = 0.0
            var result: (corner: Seconds, error: Double)? = nil
            for j in 0..<count {
                let c = from + Double(j) * step
                while i <= b {
                    let x = raw.time(i) - origin
                    guard x < c else { break }
                    let y = Double(raw.value(i))
                    ln += 1; lx += x; lxx += x * x; ly += y; lxy += x * y
                    i += 1
                }
                let rn = n - ln
                guard ln >= 2, rn >= 2 else { continue }
                // u = x − c on the left (0 on the right), v = x − c on the right; u·v = 0.
                let rx = sx - lx, rxx = sxx - lxx, ry = sy - ly, rxy = sxy - lxy
                let su = lx - c * ln, suu = lxx - 2 * c * lx + c * c * ln, suy = lxy - c * ly
                let sv = rx - c * rn, svv = rxx - 2 * c * rx + c * c * rn, svy = rxy - c * ry
                // A sample exactly at the corner counts right with v = 0: at least one more must.
                guard suu > 0, svv > 0 else { continue }
                let denominator = n - su * su / suu - sv * sv / svv
                guard denominator > 0 else { continue }
                let offset = (sy - su * suy / suu - sv * svy / svv) / denominator
                let s1 = (suy - su * offset) / suu, s2 = (svy - sv * offset) / svv
                guard s1 < 0, s2 > 0 else { continue }
                let error = syy - offset * sy - s1 * suy - s2 * svy
                if result.map({ error < $0.error }) ?? true { result = (c, error) }
            }
            return result?.corner
        }
    }
}
