import OarlogCore

/// The last few seconds of the (decimated) surge signal with its times, kept so that the catch,
/// the drive's peak and the finish can be timed precisely once a stroke has been recognised.
/// A fixed-size ring: it never allocates after `init`.
struct StrokeSignalHistory: Sendable {
    static let capacity = 512  // ≥ 10 s at the internal rate (< 50 Hz)
    static let mask = capacity - 1
    struct Entry: Sendable { var time: Seconds; var value: Float }
    private var entries: [Entry]
    /// Total number of samples ever appended (the newest has number `count - 1`).
    private(set) var count = 0

    init() {
        entries = [Entry](repeating: Entry(time: 0, value: 0), count: Self.capacity)
    }

    @inline(__always)
    mutating func append(time: Seconds, value: Float) {
        entries[count & Self.mask] = Entry(time: time, value: value)
        count &+= 1
    }

    mutating func removeAll() { count = 0 }

    /// Runs `body` with the ring's storage and its sample count, so a hot loop can append
    /// without a uniqueness check per sample (entry `n` lives at `ring[n & mask]`).
    @inline(__always)
    mutating func withUnsafeRing<R>(_ body: (UnsafeMutablePointer<Entry>, inout Int) -> R) -> R {
        entries.withUnsafeMutableBufferPointer { body($0.baseAddress.unsafelyUnwrapped, &count) }
    }

    /// Number of the oldest sample still held.
    var oldest: Int { max(0, count - Self.capacity) }
    func time(_ n: Int) -> Seconds { entries[n & Self.mask].time }
    func value(_ n: Int) -> Float { entries[n & Self.mask].value }

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
        return entries.withUnsafeBufferPointer { e -> Int? in
            let newest = e[last & Self.mask].time
            guard newest >= time else { return nil }
            let oldestTime = e[first & Self.mask].time
            if oldestTime >= time { return first }
            // Now time(first) < time <= time(last): the answer is in first+1...last.
            let back = (newest - time) / (newest - oldestTime) * Double(last - first)
            var n = back < Double(last - first) ? last - Int(back) : first + 1  // truncation: n ≤ exact
            n = max(first + 1, min(last, n))
            for _ in 0..<8 {
                if e[(n - 1) & Self.mask].time >= time { n -= 1 }            // too late
                else if e[n & Self.mask].time < time { n += 1 }              // too early
                else { return n }
            }
            var lo = first + 1, hi = last
            while lo < hi {
                let mid = (lo + hi) / 2
                if e[mid & Self.mask].time >= time { hi = mid } else { lo = mid + 1 }
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
        entries.withUnsafeBufferPointer { e in
            let m = Self.mask
            var previous = e[max(oldest, first - 1) & m].value, current = e[first & m].value
            var next = first < last ? e[(first + 1) & m].value : current
            var bestSum = previous + 2 * current + next
            var k = first + 1
            // The sample after each one scanned exists except after the newest.
            let inner = min(n, last)
            if sign > 0 {
                while k < inner {
                    previous = current; current = next; next = e[(k &+ 1) & m].value
                    let sum = previous + 2 * current + next
                    if sum > bestSum { bestSum = sum; best = k }
                    k &+= 1
                }
            } else {
                while k < inner {
                    previous = current; current = next; next = e[(k &+ 1) & m].value
                    let sum = previous + 2 * current + next
                    if sum < bestSum { bestSum = sum; best = k }
                    k &+= 1
                }
            }
            if k < n {  // k == last: the newest sample, no sample after it
                previous = current
                current = next
                let sum = previous + 2 * current + current
                if sign > 0 ? sum > bestSum : sum < bestSum { best = k }
            }
        }
        // The larger of the raw samples either side, if larger (as `for k in [best - 1, best + 1]`).
        let best0 = best
        if best0 - 1 >= max(oldest, first) && best0 - 1 < n && sign * value(best0 - 1) > sign * value(best) { best = best0 - 1 }
        if best0 + 1 >= max(oldest, first) && best0 + 1 < n && sign * value(best0 + 1) > sign * value(best) { best = best0 + 1 }
        let y1 = Double(sign * value(best))
        guard best > oldest, best < count - 1 else { return (time(best), value(best), best) }
        // Parabola through (t0,y0) (0,y1) (t2,y2), possibly unevenly spaced.
        let t0 = time(best - 1) - time(best), t2 = time(best + 1) - time(best)
        let y0 = Double(sign * value(best - 1)), y2 = Double(sign * value(best + 1))
        let d0 = (y0 - y1) / t0, d2 = (y2 - y1) / t2   // slopes from the centre
        let a = (d2 - d0) / (t2 - t0)
        guard a < 0 else { return (time(best), value(best), best) }
        let b = d0 - a * t0  // y = y1 + b·t + a·t²
        let tv = min(max(-b / (2 * a), t0 / 2), t2 / 2)
        let peak = y1 + b * tv + a * tv * tv
        return (time(best) + tv, sign * Float(peak), best)
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
