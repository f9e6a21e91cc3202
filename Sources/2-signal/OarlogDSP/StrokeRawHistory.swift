import OarlogCore

/// The last few thousand surge samples exactly as they came in (before any averaging), with
/// their times, so the catch can be timed at the input's full resolution. A fixed-size ring
/// (`TimeValueRing`, shared with `StrokeSignalHistory`): it never allocates after `init`. 4,096 samples cover the catch search (≤ 1.2 s back, plus
/// the fit's reach) up to about 3 kHz input; at higher rates the catch falls back to the
/// averaged signal's timing.
///
/// The block path does not copy every sample: while a block is processed it is *attached*, and
/// samples numbered from `blockStart` on are read from it directly; when the block is done,
/// only its last `capacity` samples are copied into the ring.
struct StrokeRawHistory: @unchecked Sendable {  // the attached block's pointer lives only within one call
    enum Size: TimeValueRingSize { static var capacity: Int { 4096 } }
    static var capacity: Int { Size.capacity }
    static var mask: Int { Size.capacity - 1 }
    /// The ring; its count numbers the attached block's samples too (they are written to it
    /// when the block is detached).
    private var ring = TimeValueRing<Size>()
    /// Total number of samples ever appended (the newest has number `count - 1`).
    var count: Int { ring.count }
    // The attached block: samples blockStart..<count are block[n - blockStart].
    private var block: UnsafeBufferPointer<Float>? = nil
    private var blockStart = Int.max
    private var blockTime: Seconds = 0
    private var blockInterval: Seconds = 0

    init() {}

    @inline(__always)
    mutating func append(time: Seconds, value: Float) { ring.append(time: time, value: value) }

    /// `append(time: times[k], value: values[k])` for each `k` in `0..<count`, in one copy (with
    /// no block attached).
    mutating func append(times: UnsafePointer<Seconds>, values: UnsafePointer<Float>, count n: Int) {
        ring.append(times: times, values: values, count: n)
    }

    /// Runs `body` with the ring's storage (times, values) and the sample count, so a hot loop
    /// can append without a uniqueness check per sample (sample `n` at `[n & mask]`). Only with
    /// no block attached.
    @inline(__always)
    mutating func withUnsafeRing<R>(_ body: (UnsafeMutablePointer<Seconds>, UnsafeMutablePointer<Float>, inout Int) -> R) -> R {
        ring.withUnsafeRing(body)
    }

    /// Makes a block of uniformly spaced samples (`block[i]` at `startTime + i · interval`) the
    /// newest samples, read in place until `detach()`, which must be called before the block's
    /// memory goes away.
    mutating func attach(_ block: UnsafeBufferPointer<Float>, startTime: Seconds, interval: Seconds) {
        self.block = block
        blockStart = count
        blockTime = startTime
        blockInterval = interval
        ring.advance(by: block.count)
    }

    /// Copies the attached block's last `capacity` samples into the ring and lets go of it.
    mutating func detach() {
        guard let b = block, let source = b.baseAddress else { block = nil; blockStart = .max; return }
        let n = min(b.count, Self.capacity)
        let firstNumber = count - n        // number of the first sample copied
        let offset = b.count - n           // its index in the block
        let start = firstNumber & Self.mask
        let first = min(n, Self.capacity - start)  // up to the end of the ring, then from its start
        let t0 = blockTime + Double(offset) * blockInterval
        let interval = blockInterval
        ring.withUnsafeRing { t, v, _ in
            (v + start).update(from: source + offset, count: first)
            if first < n { v.update(from: source + offset + first, count: n - first) }
            Self.fillTimes(t + start, count: first, startTime: t0, interval: interval)
            if first < n {
                Self.fillTimes(t, count: n - first, startTime: t0 + Double(first) * interval, interval: interval)
            }
        }
        block = nil
        blockStart = .max
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

    mutating func removeAll() {
        ring.removeAll()
        block = nil
        blockStart = .max
    }

    /// Number of the oldest sample still held.
    var oldest: Int { max(0, min(count, blockStart) - Self.capacity) }
    @inline(__always) func time(_ n: Int) -> Seconds {
        n >= blockStart ? blockTime + Double(n - blockStart) * blockInterval : ring.time(n)
    }
    @inline(__always) func value(_ n: Int) -> Float {
        n >= blockStart ? block.unsafelyUnwrapped[n - blockStart] : ring.value(n)
    }

    /// Runs `body` with a reader of the samples held (valid only within `body`): the same
    /// numbering, times and values as `time(_:)` and `value(_:)`, read through plain pointers.
    @inline(__always)
    func withReader<R>(_ body: (Reader) -> R) -> R {
        ring.withUnsafeStorage { t, v in
            body(Reader(ringTimes: t, ringValues: v, block: block?.baseAddress ?? v, blockStart: blockStart,
                        blockTime: blockTime, blockInterval: blockInterval, count: count, oldest: oldest))
        }
    }

    /// The samples from the attached block on, read from it without asking whether a sample is
    /// in the ring: only for numbers `blockStart...` (the caller checks). The same times and
    /// values as `Reader`'s; `oldest` and `count` are the history's.
    struct BlockSamples: StrokeRawSamples {
        let block: UnsafePointer<Float>
        let blockStart: Int, blockTime: Seconds, blockInterval: Seconds
        let count: Int, oldest: Int

        @inline(__always) init(_ reader: Reader) {
            block = reader.block; blockStart = reader.blockStart; blockTime = reader.blockTime
            blockInterval = reader.blockInterval; count = reader.count; oldest = reader.oldest
        }
        @inline(__always) func time(_ n: Int) -> Seconds { blockTime + Double(n &- blockStart) * blockInterval }
        @inline(__always) func value(_ n: Int) -> Float { block[n &- blockStart] }
    }

    /// The samples held, read through pointers (see `withReader`).
    struct Reader: StrokeRawSamples {
        let ringTimes: UnsafePointer<Seconds>, ringValues: UnsafePointer<Float>
        let block: UnsafePointer<Float>
        let blockStart: Int, blockTime: Seconds, blockInterval: Seconds
        /// Total number of samples (the newest is `count - 1`) and the oldest still held.
        let count: Int, oldest: Int

        @inline(__always) func time(_ n: Int) -> Seconds {
            n >= blockStart ? blockTime + Double(n &- blockStart) * blockInterval : ringTimes[n & StrokeRawHistory.mask]
        }
        @inline(__always) func value(_ n: Int) -> Float {
            n >= blockStart ? block[n &- blockStart] : ringValues[n & StrokeRawHistory.mask]
        }

        /// The first sample at or after `time`, or `nil` if none. Within the attached block the
        /// number follows from the uniform spacing (checked against the neighbours); elsewhere
        /// `interval` (the typical spacing) gives a first guess, walked from; a binary search if
        /// the guess is far off.
        @inline(__always)
        func firstIndex(atOrAfter time: Seconds, interval: Seconds) -> Int? {
            guard count > 0, self.time(count - 1) >= time else { return nil }
            if time > blockTime && blockStart < count {
                // The answer is in the block: the ring's times are all before the block's start.
                // A few steps at most from the guess (a fixed count: not worth a vectorised search).
                var n = blockGuess(time)
                for _ in 0..<4 {
                    if n > blockStart && self.time(n - 1) >= time { n -= 1 }  // too late
                    else if self.time(n) < time { n += 1 }                    // too early
                    else { return n }
                }
            }
            return searchBoundary(time, interval: interval, including: false)
        }

        /// The last sample at or before `time`, or `nil` if none (see `firstIndex`).
        @inline(__always)
        func lastIndex(atOrBefore time: Seconds, interval: Seconds) -> Int? {
            guard count > 0, self.time(oldest) <= time else { return nil }
            if time >= blockTime && blockStart < count {
                // The answer is in the block (its first sample is at `blockTime`).
                var n = blockGuess(time)
                for _ in 0..<4 {
                    if n > blockStart && self.time(n) > time { n -= 1 }                  // too late
                    else if n + 1 < count && self.time(n + 1) <= time { n += 1 }        // too early
                    else { return n }
                }
            }
            return searchBoundary(time, interval: interval, including: true) - 1
        }

        /// `firstIndex` and `lastIndex` outside the block, or when the guess is off: the first
        /// sample later than `time` (`including`: the samples at `time` are before it) or at or
        /// after it (not `including`), `count` if none; guess, walk, bisect.
        @inline(never)
        private func searchBoundary(_ time: Seconds, interval: Seconds, including: Bool) -> Int {
            @inline(__always) func isAfter(_ n: Int) -> Bool { including ? self.time(n) > time : self.time(n) >= time }
            if let n = walk(from: guess(time, interval), past: isAfter) { return n }
            var lo = oldest, hi = count
            while lo < hi {
                let mid = (lo + hi) / 2
                if isAfter(mid) { hi = mid } else { lo = mid + 1 }
            }
            return lo
        }

        /// The block's sample at `time` by its uniform spacing (rounded down; the newest if later).
        @inline(__always)
        private func blockGuess(_ time: Seconds) -> Int {
            min(count - 1, blockStart + Int(min((time - blockTime) / blockInterval, Double(count - blockStart))))
        }

        /// The sample number `time` would have with samples every `interval` back from the newest.
        @inline(__always)
        private func guess(_ time: Seconds, _ interval: Seconds) -> Int {
            let back = interval > 0 ? (self.time(count - 1) - time) / interval : .infinity
            guard back.isFinite, back < Double(count) else { return oldest }
            // Any rounding will do (the walk finds the exact sample): truncation is one instruction.
            return min(count - 1, max(oldest, count - 1 - Int(back)))
        }

        /// From sample `start`, a few steps to the first sample `isAfter` holds for (it holds from
        /// some sample on; `count` if for none), or `nil` after 16 steps.
        @inline(__always)
        private func walk(from start: Int, past isAfter: (Int) -> Bool) -> Int? {
            var n = start
            let first = oldest, last = count - 1
            for _ in 0..<16 {
                if isAfter(n) {
                    if n == first || !isAfter(n - 1) { return n }
                    n -= 1
                } else {
                    if n == last || isAfter(n + 1) { return n + 1 }
                    n += 1
                }
            }
            return nil
        }
    }
}

/// Numbered raw samples to time the catch on: the history's `Reader`, or its attached block alone.
protocol StrokeRawSamples {
    /// Total number of samples (the newest is `count - 1`) and the oldest still held.
    var count: Int { get }
    var oldest: Int { get }
    func time(_ n: Int) -> Seconds
    func value(_ n: Int) -> Float
}
