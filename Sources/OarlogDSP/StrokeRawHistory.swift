import OarlogCore

/// The last few thousand surge samples exactly as they came in (before any averaging), with
/// their times, so the catch can be timed at the input's full resolution. A fixed-size ring:
/// it never allocates after `init`. 4,096 samples cover the catch search (≤ 1.2 s back, plus
/// the fit's reach) up to about 2.5 kHz input (3 kHz for samples fed one by one); at higher
/// rates the catch falls back to the averaged signal's timing.
struct StrokeRawHistory: Sendable {
    static let capacity = 4096
    static let mask = capacity - 1
    /// The block path copies at most this many samples before processing them, so the ring
    /// always holds the `capacity − blockChunk` samples before the chunk in hand.
    static let blockChunk = 1024
    private var times: [Seconds]
    private var values: [Float]
    /// Total number of samples ever appended (the newest has number `count - 1`).
    private(set) var count = 0

    init() {
        times = [Seconds](repeating: 0, count: Self.capacity)
        values = [Float](repeating: 0, count: Self.capacity)
    }

    @inline(__always)
    mutating func append(time: Seconds, value: Float) {
        times[count & Self.mask] = time
        values[count & Self.mask] = value
        count &+= 1
    }

    /// Appends uniformly spaced samples (`block[i]` at `startTime + i · interval`) in bulk.
    /// `block.count` must not exceed `blockChunk`.
    mutating func append(block: UnsafeBufferPointer<Float>, startTime: Seconds, interval: Seconds) {
        let n = block.count
        guard n > 0, let source = block.baseAddress else { return }
        let start = count & Self.mask
        let first = min(n, Self.capacity - start)  // up to the end of the ring, then from its start
        values.withUnsafeMutableBufferPointer { v in
            (v.baseAddress! + start).update(from: source, count: first)
            if first < n { v.baseAddress!.update(from: source + first, count: n - first) }
        }
        times.withUnsafeMutableBufferPointer { t in
            Self.fillTimes(t.baseAddress! + start, count: first, startTime: startTime, interval: interval)
            if first < n {
                Self.fillTimes(t.baseAddress!, count: n - first, startTime: startTime + Double(first) * interval, interval: interval)
            }
        }
        count &+= n
    }

    /// `out[i] = startTime + i · interval`, four at a time.
    @inline(__always)
    private static func fillTimes(_ out: UnsafeMutablePointer<Seconds>, count: Int, startTime: Seconds, interval: Seconds) {
        var i = 0
        let raw = UnsafeMutableRawPointer(out)
        var lanes = SIMD4<Double>(0, 1, 2, 3) * interval + startTime
        let stride4 = SIMD4<Double>(repeating: 4 * interval)
        while i + 4 <= count {
            raw.storeBytes(of: lanes, toByteOffset: i * 8, as: SIMD4<Double>.self)
            lanes += stride4
            i += 4
        }
        while i < count { out[i] = startTime + Double(i) * interval; i += 1 }
    }

    mutating func removeAll() { count = 0 }

    /// Number of the oldest sample still held.
    var oldest: Int { max(0, count - Self.capacity) }
    @inline(__always) func time(_ n: Int) -> Seconds { times[n & Self.mask] }
    @inline(__always) func value(_ n: Int) -> Float { values[n & Self.mask] }

    /// The first sample at or after `time` (binary search; times increase), or `nil` if none.
    func firstIndex(atOrAfter time: Seconds) -> Int? {
        guard count > 0, self.time(count - 1) >= time else { return nil }
        var lo = oldest, hi = count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if self.time(mid) >= time { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    /// The last sample at or before `time`, or `nil` if none.
    func lastIndex(atOrBefore time: Seconds) -> Int? {
        guard count > 0, self.time(oldest) <= time else { return nil }
        var lo = oldest, hi = count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if self.time(mid) <= time { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}
