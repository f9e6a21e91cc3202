import OarlogCore

/// The last few seconds of the (decimated) surge signal with its times, kept so that the catch,
/// the drive's peak and the finish can be timed precisely once a stroke has been recognised.
/// A fixed-size ring: it never allocates after `init`.
struct StrokeSignalHistory: Sendable {
    static let capacity = 512  // ≥ 10 s at the internal rate (< 50 Hz)
    static let mask = capacity - 1
    private struct Entry: Sendable { var time: Seconds; var value: Float }
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

    /// Number of the oldest sample still held.
    var oldest: Int { max(0, count - Self.capacity) }
    func time(_ n: Int) -> Seconds { entries[n & Self.mask].time }
    func value(_ n: Int) -> Float { entries[n & Self.mask].value }

    /// The value lightly smoothed with a symmetric [1 2 1]/4 kernel (zero delay).
    func smoothed(_ n: Int) -> Float {
        let lo = max(oldest, n - 1), hi = min(count - 1, n + 1)
        return (value(lo) + 2 * value(n) + value(hi)) * 0.25
    }

    /// The first sample at or after `time` (searching back from the newest), or `nil` if none.
    func firstIndex(atOrAfter time: Seconds) -> Int? {
        guard count > 0 else { return nil }
        var n = count - 1
        guard self.time(n) >= time else { return nil }
        while n > oldest && self.time(n - 1) >= time { n -= 1 }
        return n
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
        var previous = value(max(oldest, first - 1)), current = value(first)
        var next = first < last ? value(first + 1) : current
        var bestValue = sign * ((previous + 2 * current + next) * 0.25)
        var n = first + 1
        entries.withUnsafeBufferPointer { e in
            while n < count && e[n & Self.mask].time <= to {
                previous = current
                current = next
                next = n < last ? e[(n + 1) & Self.mask].value : current
                let v = sign * ((previous + 2 * current + next) * 0.25)
                if v > bestValue { bestValue = v; best = n }
                n += 1
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
