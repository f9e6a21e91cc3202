import OarlogCore

/// The last few seconds of the (decimated) surge signal with its times, kept so that the catch,
/// the drive's peak and the finish can be timed precisely once a stroke has been recognised.
/// A fixed-size ring (`TimeValueRing`): it never allocates after `init`.
struct StrokeSignalHistory: Sendable {
    enum Size: TimeValueRingSize { static var capacity: Int { 512 } }  // ≥ 10 s at the internal rate (< 50 Hz)
    static var capacity: Int { Size.capacity }
    static var mask: Int { Size.capacity - 1 }
    private var ring = TimeValueRing<Size>()
    /// Total number of samples ever appended (the newest has number `count - 1`).
    var count: Int { ring.count }

    init() {}

    @inline(__always)
    mutating func append(time: Seconds, value: Float) { ring.append(time: time, value: value) }

    mutating func removeAll() { ring.removeAll() }

    /// Runs `body` with the rings' storage (times, values) and the sample count, so a hot loop
    /// can append without a uniqueness check per sample (sample `n` lives at `[n & mask]`).
    @inline(__always)
    mutating func withUnsafeRing<R>(_ body: (UnsafeMutablePointer<Seconds>, UnsafeMutablePointer<Float>, inout Int) -> R) -> R {
        ring.withUnsafeRing(body)
    }

    /// Number of the oldest sample still held.
    var oldest: Int { ring.oldest }
    func time(_ n: Int) -> Seconds { ring.time(n) }
    func value(_ n: Int) -> Float { ring.value(n) }

    /// The value lightly smoothed with a symmetric [1 2 1]/4 kernel (zero delay).
    func smoothed(_ n: Int) -> Float {
        let lo = max(oldest, n - 1), hi = min(count - 1, n + 1)
        return (value(lo) + 2 * value(n) + value(hi)) * 0.25
    }

    /// The first sample at or after `time`, or `nil` if none (the times ascend): a guess from
    /// the ring's mean spacing, a few steps from there, a binary search if that is far off.
    func firstIndex(atOrAfter time: Seconds) -> Int? {
        guard count > 0 else { return nil }
        let last = count - 1, first = oldest
        return ring.withUnsafeTimes { e -> Int? in
            let newest = e[last & Self.mask]
            guard newest >= time else { return nil }
            let oldestTime = e[first & Self.mask]
            if oldestTime >= time { return first }
            // Now time(first) < time <= time(last): the answer is in first+1...last.
            let back = (newest - time) / (newest - oldestTime) * Double(last - first)
            var n = back < Double(last - first) ? last - Int(back) : first + 1  // truncation: n ≤ exact
            n = max(first + 1, min(last, n))
            for _ in 0..<8 {
                if e[(n - 1) & Self.mask] >= time { n -= 1 }            // too late
                else if e[n & Self.mask] < time { n += 1 }              // too early
                else { return n }
            }
            var lo = first + 1, hi = last
            while lo < hi {
                let mid = (lo + hi) / 2
                if e[mid & Self.mask] >= time { hi = mid } else { lo = mid + 1 }
            }
            return lo
        }
    }

    /// Time and value of the extreme (minimum if `sign` = -1, maximum if +1) within
    /// `from...to`: located on the [1 2 1]-smoothed signal (robust to noise), then refined on the
    /// samples themselves — the largest of the three around it and a parabola through its
    /// neighbours (the smoothing would pull the extreme of an asymmetric dip towards its slow
    /// side).
    func extremum(from: Seconds, to: Seconds, sign: Float) -> (time: Seconds, value: Float, index: Int)? {
        guard let first = firstIndex(atOrAfter: from) else { return nil }
        // The smoothed values from a sliding window of three (the same sums as `smoothed`).
        var best = first
        let last = count - 1
        // The scan's end: the last sample at or before `to` (usually the newest).
        var end = last
        while end >= first && time(end) > to { end -= 1 }
        let n = max(end + 1, first + 1)  // one past the last sample scanned
        // The extreme of sign · (p + 2c + n) / 4 is that of p + 2c + n (the scaling is exact),
        // so the scan compares the sums: larger ones for a maximum, smaller for a minimum.
        ring.withUnsafeValues { e in
            let m = Self.mask
            var previous = e[max(oldest, first - 1) & m], current = e[first & m]
            var next = first < last ? e[(first + 1) & m] : current
            var bestSum = previous + 2 * current + next
            var k = first + 1
            // The sample after each one scanned exists except after the newest.
            let inner = min(n, last)
            if k < inner && (first & m) + (inner - first) < Self.capacity {
                // The samples k − 1 ... inner lie in one run of the ring: vectorised, the same sums.
                let base = e.baseAddress.unsafelyUnwrapped + (first & m)  // base[j] = sample first + j
                let found = Self.extremeSum(base, from: k - first, to: inner - first, initial: bestSum, sign: sign)
                if let index = found.index { best = first + index; bestSum = found.sum }
                k = inner
            } else if sign > 0 {
                while k < inner {
                    previous = current; current = next; next = e[(k &+ 1) & m]
                    let sum = previous + 2 * current + next
                    if sum > bestSum { bestSum = sum; best = k }
                    k &+= 1
                }
            } else {
                while k < inner {
                    previous = current; current = next; next = e[(k &+ 1) & m]
                    let sum = previous + 2 * current + next
                    if sum < bestSum { bestSum = sum; best = k }
                    k &+= 1
                }
            }
            if k < n {  // k == last: the newest sample, no sample after it
                previous = e[(k - 1) & m]  // as the scan leaves them: the two newest samples
                current = e[k & m]
                let sum = previous + 2 * current + current
                if sign > 0 ? sum > bestSum : sum < bestSum { best = k }
            }
        }
        // The larger of the raw samples either side, if larger (as `for k in [best - 1, best + 1]`).
        // With selects rather than branches (the ring's mask keeps every read in bounds).
        let best0 = best, lowest = max(oldest, first)
        let before = sign * value(best0 - 1), here = sign * value(best0), after = sign * value(best0 + 1)
        let takeBefore = best0 - 1 >= lowest && best0 - 1 < n && before > here
        best = takeBefore ? best0 - 1 : best0
        let kept = takeBefore ? before : here
        let takeAfter = best0 + 1 >= lowest && best0 + 1 < n && after > kept
        best = takeAfter ? best0 + 1 : best
        let y1 = Double(sign * value(best))
        guard best > oldest, best < count - 1 else { return (time(best), value(best), best) }
        // Parabola through (t0,y0) (0,y1) (t2,y2), possibly unevenly spaced.
        let t0 = time(best - 1) - time(best), t2 = time(best + 1) - time(best)
        let y0 = Double(sign * value(best - 1)), y2 = Double(sign * value(best + 1))
        let slopes = (SIMD2(y0, y2) - y1) / SIMD2(t0, t2)   // from the centre, side by side
        let d0 = slopes[0], d2 = slopes[1]
        let a = (d2 - d0) / (t2 - t0)
        guard a < 0 else { return (time(best), value(best), best) }
        let b = d0 - a * t0  // y = y1 + b·t + a·t²
        let tv = min(max(-b / (2 * a), t0 / 2), t2 / 2)
        let peak = y1 + b * tv + a * tv * tv
        return (time(best) + tv, sign * Float(peak), best)
    }

    /// The first sample `k` in `from..<to` whose sum `base[k − 1] + 2·base[k] + base[k + 1]` is
    /// beyond `initial` and every sum before it (below for `sign` < 0, above for > 0), and that
    /// sum; `nil` if none is. What the scalar scan finds — the first of equal extremes — from
    /// the same sums, eight at a time: the extreme first, then where it first occurs.
    @inline(__always)
    private static func extremeSum(_ base: UnsafePointer<Float>, from: Int, to: Int, initial: Float,
                                   sign: Float) -> (index: Int?, sum: Float) {
        @inline(__always) func sums(_ k: Int) -> SIMD8<Float> {
            let raw = UnsafeRawPointer(base + k)
            let before = raw.loadUnaligned(fromByteOffset: -4, as: SIMD8<Float>.self)
            let here = raw.loadUnaligned(as: SIMD8<Float>.self)
            let after = raw.loadUnaligned(fromByteOffset: 4, as: SIMD8<Float>.self)
            return before + 2 * here + after
        }
        @inline(__always) func sum(_ k: Int) -> Float { base[k - 1] + 2 * base[k] + base[k + 1] }
        var extreme = initial
        var k = from
        if sign > 0 {
            var lanes = SIMD8<Float>(repeating: initial)
            while k + 8 <= to { let v = sums(k); lanes.replace(with: v, where: v .> lanes); k += 8 }
            var half = lanes.lowHalf, other = lanes.highHalf  // the largest lane (exact in any order)
            half.replace(with: other, where: other .> half)
            var pair = half.lowHalf, rest = half.highHalf
            pair.replace(with: rest, where: rest .> pair)
            extreme = max(extreme, max(pair[0], pair[1]))
            while k < to { extreme = max(extreme, sum(k)); k += 1 }
            guard extreme > initial else { return (nil, initial) }
        } else {
            var lanes = SIMD8<Float>(repeating: initial)
            while k + 8 <= to { let v = sums(k); lanes.replace(with: v, where: v .< lanes); k += 8 }
            var half = lanes.lowHalf, other = lanes.highHalf  // the smallest lane (exact in any order)
            half.replace(with: other, where: other .< half)
            var pair = half.lowHalf, rest = half.highHalf
            pair.replace(with: rest, where: rest .< pair)
            extreme = min(extreme, min(pair[0], pair[1]))
            while k < to { extreme = min(extreme, sum(k)); k += 1 }
            guard extreme < initial else { return (nil, initial) }
        }
        k = from
        while k + 8 <= to {
            let hits = sums(k) .== SIMD8<Float>(repeating: extreme)
            if any(hits) {
                for lane in 0..<8 where hits[lane] { return (k + lane, extreme) }
            }
            k += 8
        }
        while k < to {
            if sum(k) == extreme { return (k, extreme) }
            k += 1
        }
        return (nil, initial)  // not reached for finite sums
    }

    /// The first downward crossing of `level` by the smoothed signal after sample `start`,
    /// linearly interpolated; `nil` if it has not happened yet.
    func downwardCrossing(of level: Float, after start: Int) -> Seconds? {
        var n = max(start, oldest)
        guard n < count else { return nil }
        var previous = smoothed(n) - level
        // The smoothed values from a sliding window of three (the same sums as `smoothed`).
        let last = count - 1
        var before = value(n), current = n < last ? value(n + 1) : before
        n += 1
        while n < count {
            let after = n < last ? value(n + 1) : current
            let v = (before + 2 * current + after) * 0.25 - level
            if previous >= 0 && v < 0 {
                let f = Double(previous / (previous - v))
                return time(n - 1) + f * (time(n) - time(n - 1))
            }
            previous = v
            before = current
            current = after
            n += 1
        }
        return nil
    }
}
