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
/// 10 ms to each side: [1 2 1] at 100 Hz, none at 50 Hz and below); if the bottom is flat or
/// double (within a tenth of the dip's depth, across ripples of up to 30 ms and 30 % of the
/// depth), its last low point, and when the bottom outlasts
/// `riseSpan` the fit reaches two samples past it. Then the corner within `max(1.5 samples,
/// 20 ms)` of that point (to the bottom's end, if later) with the least squared error, exactly:
/// per split of the samples into fall and rise, O(1) from running sums. Runs once per stroke;
/// allocates nothing (a small stack buffer).
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
    /// A ripple on the bottom shorter than this, that stays below `bottomRise` of the dip's
    /// depth, does not end it.
    static let bottomBridge: Seconds = 0.030
    static let bottomRise: Float = 0.3
    /// The corner is searched this far either side of the lowest sample (at least 1.5 samples).
    static let cornerReach: Seconds = 0.020

    /// The catch time from the raw samples within `from...to`, the dip's lowest point sought
    /// within `margin` of the coarse estimate `near` (from the averaged signal); `nil` when the
    /// raw history does not reach back that far. `interval` is the raw sample interval, `level`
    /// the surge's running mean.
    static func catchTime(in history: StrokeRawHistory, near coarse: Seconds, margin: Seconds,
                          from: Seconds, to now: Seconds, interval: Seconds, level: Float) -> Seconds? {
        history.withReader { raw in
            catchTime(in: raw, near: coarse, margin: margin, from: from, to: now, interval: interval, level: level)
        }
    }

    private static func catchTime(in index: StrokeRawHistory.Reader, near coarse: Seconds, margin: Seconds,
                                  from: Seconds, to now: Seconds, interval: Seconds, level: Float) -> Seconds? {
        guard index.count > 0, index.count <= StrokeRawHistory.capacity || index.time(index.oldest) <= from else { return nil }
        let lo = max(from, coarse - margin, index.time(index.oldest)), hi = min(now, coarse + margin)
        guard interval > 0, hi > lo, let first = index.firstIndex(atOrAfter: lo, interval: interval), let last = index.lastIndex(atOrBefore: hi, interval: interval),
              let newest = index.lastIndex(atOrBefore: now, interval: interval), first <= last
        else { return nil }
        // Every sample read below lies within the fit's fall span (and the smoothing) before
        // `lo`. When all of those are in the attached block — the block path, nearly always —
        // they are read straight from it, without the per-sample ring-or-block choice.
        let k = Int(smoothingHalfWidth / interval + 1e-6)  // ≥ 0: truncation rounds down
        let reachBack = max(fallSpan, 2 * interval) + Double(2 * k + 4) * interval + 0.001
        if index.blockStart < index.count && index.blockTime + reachBack <= lo && first > index.blockStart + k + 1 {
            return fit(StrokeRawHistory.BlockSamples(index), index: index, first: first, last: last, newest: newest,
                       k: k, now: now, interval: interval, level: level)
        }
        return fit(index, index: index, first: first, last: last, newest: newest, k: k, now: now, interval: interval, level: level)
    }

    /// Steps 1 and 2 over the samples `raw` (numbered as in `index`, which finds samples by time).
    @inline(__always)
    private static func fit<R: StrokeRawSamples>(_ raw: R, index: StrokeRawHistory.Reader, first: Int, last: Int, newest: Int,
                                                 k: Int, now: Seconds, interval: Seconds, level: Float) -> Seconds {

        // 1. The lowest sample of the lightly smoothed signal — the last low point of the dip's
        //    bottom when it has two (a flat bottom: the catch is where the rise begins).
        //    (The lowest raw sample first, then the smoothed signal's lowest near it: cheap.)
        var lowest = first
        var lowestValue = Float.infinity
        for n in first...last {
            let v = raw.value(n)
            if v < lowestValue { lowestValue = v; lowest = n }
        }
        if k > 0 {
            lowestValue = .infinity
            for n in max(first, lowest - 2 * k)...min(last, lowest + 2 * k) {
                let v = smoothed(raw, n, k)
                if v < lowestValue { lowestValue = v; lowest = n }
            }
        }
        let depth = max(0, level - lowestValue)
        let bottom = lowestValue + bottomBand * depth
        let risen = lowestValue + bottomRise * depth
        let bridge = max(1, Int(bottomBridge / interval + 0.5))
        var n = lowest + 1
        var previous = lowestValue
        var current = n <= newest ? smoothed(raw, n, k) : .infinity
        while n < newest {
            if current > bottom {
                // A ripple on a flat bottom (light pressure, noise): the bottom goes on if it comes
                // back within `bottomBridge` without the rise out of the catch having begun.
                var back = 0
                var j = n + 1
                while j <= min(newest, n + bridge) {
                    let v = smoothed(raw, j, k)
                    if v > risen { break }
                    if v <= bottom { back = j; break }
                    j += 1
                }
                guard back > 0, current <= risen else { break }
                n = back
                previous = current
                current = smoothed(raw, n, k)
                continue
            }
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
        let a = index.firstIndex(atOrAfter: tm - fall, interval: interval) ?? lowest
        let rise = max(riseSpan, 2 * interval) + 0.5 * interval
        guard let rb = index.lastIndex(atOrBefore: min(tm + rise, now), interval: interval) else { return tm }
        let b = min(max(rb, bottomEnd + 2), newest)
        guard b - a >= 3 else { return tm }
        let reach = max(1.5 * interval, cornerReach)
        let reachLate = max(reach, raw.time(bottomEnd) - tm + interval)
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * (b - a + 1)) { buffer in
            let count = b - a + 1
            for i in 0..<count {
                buffer[i] = raw.time(a + i) - tm
                buffer[count + i] = Double(raw.value(a + i))
            }
            let fit = VFit(x: UnsafeBufferPointer(rebasing: buffer[0..<count]),
                           y: UnsafeBufferPointer(rebasing: buffer[count..<2 * count]))
            return tm + (fit.corner(within: -reach, reachLate) ?? 0)
        }
    }

    /// The sample lightly smoothed by a triangle of half-width `k` samples (none for `k` = 0).
    @inline(__always)
    private static func smoothed<R: StrokeRawSamples>(_ raw: R, _ n: Int, _ k: Int) -> Float {
        guard k > 0 else { return raw.value(n) }
        if k == 1 && n > raw.oldest && n + 1 < raw.count {
            // [1 2 1] / 4, summed in the order of the loop below (the same result).
            return (raw.value(n - 1) + 2 * raw.value(n) + raw.value(n + 1)) / 4
        }
        var sum: Float = 0, weight: Float = 0
        for j in max(-k, raw.oldest - n)...min(k, raw.count - 1 - n) {
            let w = Float(k + 1 - abs(j))
            sum += w * raw.value(n + j)
            weight += w
        }
        return sum / weight
    }

    /// Least-squares corner of two lines through points (x, y), x ascending:
    /// y = c + s₁·min(x − corner, 0) + s₂·max(x − corner, 0), falling into it (s₁ < 0). A `.dip`
    /// rises out of it (s₂ > 0: the catch); a `.knee` falls less steeply or rises after it
    /// (s₂ > s₁: the finish, where the drive's fall meets the recovery).
    struct VFit {
        enum Shape { case dip, knee }
        /// The splits tried side by side, one per lane.
        typealias V = SIMD2<Double>
        let x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>
        let shape: Shape
        // Sums over all the points: count, x, x², y, xy, y².
        var n = 0.0, sx = 0.0, sxx = 0.0, sy = 0.0, sxy = 0.0, syy = 0.0

        init(x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>, shape: Shape = .dip) {
            self.x = x; self.y = y; self.shape = shape
            for i in 0..<x.count {
                let xi = x[i], yi = y[i]
                n += 1; sx += xi; sxx += xi * xi; sy += yi; sxy += xi * yi; syy += yi * yi
            }
        }

        /// The corner within `lo...hi` of the V with the least squared error, among Vs with at
        /// least two points on each side, of the fit's shape; exact. For each split of the points
        /// into left and right, the best V is the two lines fitted separately when they cross
        /// between the split's two points (else the hinge with its corner clamped there). One
        /// sweep: the sums left of the split grow as it moves right.
        func corner(within lo: Seconds, _ hi: Seconds) -> Seconds? {
            var ln = 0.0, lx = 0.0, lxx = 0.0, ly = 0.0, lxy = 0.0, lyy = 0.0
            // The best V so far (none while `found` is false).
            var found = false, bestCorner: Seconds = 0, bestError = 0.0
            // The splits tried: p ≥ 2, x.count − p ≥ 2, x[p] > lo and x[p − 1] < hi — a
            // contiguous run, as x ascends; the sums need not go past its end.
            var p = 0
            let end = x.count - 2  // the last split with two points on the right
            while p <= end && !(p >= 2 && x[p] > lo) {
                let xi = x[p], yi = y[p]
                ln += 1; lx += xi; lxx += xi * xi; ly += yi; lxy += xi * yi; lyy += yi * yi
                p += 1
            }
            // `V.scalarCount` splits at a time, one per lane: every lane does the whole arithmetic (the
            // free fits, their crossing, the hinge) with no branches, the same operations in
            // the same order as one split alone, and the lanes are then taken in order.
            while p <= end && x[p - 1] < hi {
                var sl = (n: V(repeating: 1), x: V(), xx: V(), y: V(), xy: V(), yy: V())
                var from = V(), to = V()
                var lanes = 0
                while lanes < V.scalarCount && p <= end && x[p - 1] < hi {  // left = points before p
                    sl.n[lanes] = ln; sl.x[lanes] = lx; sl.xx[lanes] = lxx
                    sl.y[lanes] = ly; sl.xy[lanes] = lxy; sl.yy[lanes] = lyy
                    from[lanes] = max(lo, x[p - 1]); to[lanes] = min(hi, x[p])
                    let xi = x[p], yi = y[p]
                    ln += 1; lx += xi; lxx += xi * xi; ly += yi; lxy += xi * yi; lyy += yi * yi
                    p += 1
                    lanes += 1
                }
                let rn = n - sl.n, rx = sx - sl.x, rxx = sxx - sl.xx, ry = sy - sl.y, rxy = sxy - sl.xy, ryy = syy - sl.yy
                let dl = sl.n * sl.xx - sl.x * sl.x, dr = rn * rxx - rx * rx
                let bl = (sl.n * sl.xy - sl.x * sl.y) / dl, br = (rn * rxy - rx * ry) / dr
                let al = (sl.y - bl * sl.x) / sl.n, ar = (ry - br * rx) / rn
                let c = (ar - al) / (bl - br)
                let fits = (dl .> 0) .& (dr .> 0) .& (bl .< 0) .& (br .> (shape == .dip ? V() : bl))
                let inRange = (c .> from) .& (c .<= to)
                let free = sl.yy - al * sl.y - bl * sl.xy + ryy - ar * ry - br * rxy
                // The hinge at the crossing clamped into the split: `min(max(c, from), to)`.
                var clamped = c
                clamped.replace(with: from, where: from .>= c)
                clamped.replace(with: to, where: to .< clamped)
                let hinge = hingeErrors(corner: clamped, sl.n, sl.x, sl.xx, sl.y, sl.xy)
                for j in 0..<lanes where fits[j] {
                    let (corner, error): (Seconds, Double)
                    if inRange[j] {
                        (corner, error) = (c[j], free[j])
                    } else if hinge.valid[j] {
                        (corner, error) = (clamped[j], hinge.error[j])
                    } else {
                        continue
                    }
                    if !found || error < bestError { found = true; bestCorner = corner; bestError = error }
                }
            }
            return found ? bestCorner : nil
        }

        /// Squared error of the best V with its corner at `c`, given the sums of the points left
        /// of it, lane by lane; `valid` only where it has the fit's shape.
        @inline(__always)
        private func hingeErrors(corner c: V, _ ln: V, _ lx: V, _ lxx: V, _ ly: V, _ lxy: V) -> (error: V, valid: SIMDMask<V.MaskStorage>) {
            let rn = n - ln, rx = sx - lx, rxx = sxx - lxx, ry = sy - ly, rxy = sxy - lxy
            // u = x − c on the left (0 on the right), v = x − c on the right; u·v = 0.
            let su = lx - c * ln, suu = lxx - 2 * c * lx + c * c * ln, suy = lxy - c * ly
            let sv = rx - c * rn, svv = rxx - 2 * c * rx + c * c * rn, svy = rxy - c * ry
            let iu = 1 / suu, iv = 1 / svv
            let denominator = n - su * su * iu - sv * sv * iv
            let offset = (sy - su * suy * iu - sv * svy * iv) / denominator
            let s1 = (suy - su * offset) * iu, s2 = (svy - sv * offset) * iv
            let valid = (suu .> 0) .& (svv .> 0) .& (denominator .> 0) .& (s1 .< 0) .& (s2 .> (shape == .dip ? V() : s1))
            return (syy - offset * sy - s1 * suy - s2 * svy, valid)
        }

    }
}
