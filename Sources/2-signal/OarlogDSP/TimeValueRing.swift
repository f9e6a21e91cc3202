import OarlogCore

/// The size of a `TimeValueRing`, a power of two, as a type: the ring's mask is then a constant
/// in its specialised code (no load, no shift by a stored count in the hot loops).
protocol TimeValueRingSize {
    static var capacity: Int { get }
}

/// The last `capacity` samples of a signal with their times, numbered from 0 as they were
/// appended (sample `n` lives at slot `n & mask`): the storage the stroke detector's histories
/// share (`StrokeRawHistory`, the input as it came; `StrokeSignalHistory`, the averaged signal).
/// Times and values in separate rings, so the scans over the values read them contiguously.
/// Fixed size: it never allocates after `init`.
struct TimeValueRing<Size: TimeValueRingSize>: Sendable {
    static var capacity: Int { Size.capacity }
    static var mask: Int { Size.capacity - 1 }
    private var times: [Seconds]
    private var values: [Float]
    /// Total number of samples ever appended (the newest has number `count - 1`).
    private(set) var count = 0

    init() {
        times = [Seconds](repeating: 0, count: Size.capacity)
        values = [Float](repeating: 0, count: Size.capacity)
    }

    @inline(__always)
    mutating func append(time: Seconds, value: Float) {
        times[count & Self.mask] = time
        values[count & Self.mask] = value
        count &+= 1
    }

    mutating func removeAll() { count = 0 }

    /// Numbers the next `n` samples without writing them (their slots are written later through
    /// `withUnsafeRing`, or never: see `StrokeRawHistory.attach`).
    mutating func advance(by n: Int) { count &+= n }

    /// Number of the oldest sample still held.
    var oldest: Int { max(0, count - Self.capacity) }
    @inline(__always) func time(_ n: Int) -> Seconds { times[n & Self.mask] }
    @inline(__always) func value(_ n: Int) -> Float { values[n & Self.mask] }

    /// Runs `body` with the rings' storage (times, values) and the sample count, so a hot loop
    /// can append without a uniqueness check per sample (sample `n` at `[n & mask]`).
    @inline(__always)
    mutating func withUnsafeRing<R>(_ body: (UnsafeMutablePointer<Seconds>, UnsafeMutablePointer<Float>, inout Int) -> R) -> R {
        times.withUnsafeMutableBufferPointer { t in
            values.withUnsafeMutableBufferPointer { v in
                body(t.baseAddress.unsafelyUnwrapped, v.baseAddress.unsafelyUnwrapped, &count)
            }
        }
    }

    /// Runs `body` with the rings' storage to read (times, values; sample `n` at `[n & mask]`).
    @inline(__always)
    func withUnsafeStorage<R>(_ body: (UnsafePointer<Seconds>, UnsafePointer<Float>) -> R) -> R {
        times.withUnsafeBufferPointer { t in
            values.withUnsafeBufferPointer { v in
                body(t.baseAddress.unsafelyUnwrapped, v.baseAddress.unsafelyUnwrapped)
            }
        }
    }

    /// Runs `body` with the times' storage to read (sample `n` at `[n & mask]`).
    @inline(__always)
    func withUnsafeTimes<R>(_ body: (UnsafeBufferPointer<Seconds>) -> R) -> R {
        times.withUnsafeBufferPointer(body)
    }

    /// Runs `body` with the values' storage to read (sample `n` at `[n & mask]`).
    @inline(__always)
    func withUnsafeValues<R>(_ body: (UnsafeBufferPointer<Float>) -> R) -> R {
        values.withUnsafeBufferPointer(body)
    }

    /// `append(time: newTimes[k], value: newValues[k])` for each `k` in `0..<total`, in one copy.
    mutating func append(times newTimes: UnsafePointer<Seconds>, values newValues: UnsafePointer<Float>, count total: Int) {
        guard total > 0 else { return }
        // More than the ring holds: the first ones would be overwritten at once.
        let skip = max(0, total - Self.capacity)
        count &+= skip
        withUnsafeRing { t, v, count in
            let n = total - skip
            let start = count & Self.mask
            let first = min(n, Self.capacity - start)  // up to the end of the ring, then from its start
            (t + start).update(from: newTimes + skip, count: first)
            (v + start).update(from: newValues + skip, count: first)
            if first < n {
                t.update(from: newTimes + skip + first, count: n - first)
                v.update(from: newValues + skip + first, count: n - first)
            }
            count &+= n
        }
    }
}
