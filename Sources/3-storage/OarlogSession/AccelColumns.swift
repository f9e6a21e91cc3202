import OarlogCore

/// Accelerometer samples held column by column: the writer's open block and the reader's decoded
/// block. Buffers are kept between blocks, so steady-state recording and playback allocate nothing.
///
/// On disk (record kind `accelBlock`):
///
///     count            varint
///     encoding         u8: bit 0 time (0 = nanosecond ticks, 1 = raw float64),
///                          bit 1 values (0 = float32, 1 = int16 counts × scale)
///     scale            f32, only with int16 counts (m/s² per count)
///     time             ticks: zigzag first tick, varint run count, runs of (zigzag Δ of the
///                      interval, varint repeat) — a steady 100 Hz block is one or two runs;
///                      raw: count × f64
///     x[count], y[count], z[count]   f32 or i16, little-endian
///
/// Times are stored as nanosecond ticks only when every time in the block reads back bit-exact
/// from `Double(tick) / 1e9` (true for times computed as `n / rate` or from nanosecond clocks);
/// otherwise the block stores raw float64 times. Values are stored as int16 counts only when a
/// scale was given and every value is exactly `Float(count) * scale`.
///
/// The columns live in storage arrays that only ever grow (to the largest block met); `count`
/// says how much of them is the current block, so a block of a new size costs nothing (a chunk
/// with a GPS fix holds blocks of different sizes).
public struct AccelColumns: Sendable {
    private var timeStorage: [Seconds] = []
    private var xStorage: [MetresPerSecondSquared] = []
    private var yStorage: [MetresPerSecondSquared] = []
    private var zStorage: [MetresPerSecondSquared] = []
    /// Samples in the block.
    public private(set) var count = 0

    public init(capacity: Int = 0) {
        timeStorage.reserveCapacity(capacity)
        xStorage.reserveCapacity(capacity)
        yStorage.reserveCapacity(capacity)
        zStorage.reserveCapacity(capacity)
    }

    /// The block's sample times (indices 0..<count).
    public var times: ArraySlice<Seconds> { timeStorage[0..<count] }
    public var x: ArraySlice<MetresPerSecondSquared> { xStorage[0..<count] }
    public var y: ArraySlice<MetresPerSecondSquared> { yStorage[0..<count] }
    public var z: ArraySlice<MetresPerSecondSquared> { zStorage[0..<count] }

    public var isEmpty: Bool { count == 0 }

    public subscript(i: Int) -> AccelSample {
        precondition(i >= 0 && i < count, "sample index out of range")
        return AccelSample(time: timeStorage[i], x: xStorage[i], y: yStorage[i], z: zStorage[i])
    }

    @inline(__always)
    mutating func append(_ s: AccelSample) {
        if count < timeStorage.count {
            timeStorage[count] = s.time
            xStorage[count] = s.x
            yStorage[count] = s.y
            zStorage[count] = s.z
        } else {
            timeStorage.append(s.time)
            xStorage.append(s.x)
            yStorage.append(s.y)
            zStorage.append(s.z)
        }
        count += 1
    }

    /// Empties the block, keeping the storage.
    mutating func removeAll() { count = 0 }

    static let ticksPerSecond = 1e9

    /// The nanosecond tick of `t` if it reads back bit-exact.
    @inline(__always)
    static func exactTick(_ t: Seconds) -> Int64? {
        guard t.isFinite, abs(t) < 9.0e9 else { return nil }
        let k = Int64((t * ticksPerSecond).rounded())
        return (Double(k) / ticksPerSecond).bitPattern == t.bitPattern ? k : nil
    }

    /// Appends the block's record payload (see the type's comment).
    func encode(into w: inout ByteWriter, countsScale: Float?) {
        let n = count
        let times = self.times, x = self.x, y = self.y, z = self.z
        w.varint(UInt64(n))
        let ticksExact = times.allSatisfy { Self.exactTick($0) != nil }
        var countsExact = false
        if let scale = countsScale, scale > 0, scale.isFinite {
            countsExact = Self.representable(x, scale) && Self.representable(y, scale) && Self.representable(z, scale)
        }
        w.u8((ticksExact ? 0 : 1) | (countsExact ? 2 : 0))
        if countsExact { w.f32(countsScale!) }
        if ticksExact {
            encodeTicks(into: &w)
        } else {
            times.withUnsafeBytes { w.raw($0) }  // little-endian host (x86-64, arm64)
        }
        if countsExact {
            let scale = countsScale!
            for column in [x, y, z] {
                for v in column { w.u16(UInt16(bitPattern: Int16((v / scale).rounded()))) }
            }
        } else {
            x.withUnsafeBytes { w.raw($0) }
            y.withUnsafeBytes { w.raw($0) }
            z.withUnsafeBytes { w.raw($0) }
        }
    }

    private static func representable(_ values: ArraySlice<Float>, _ scale: Float) -> Bool {
        for v in values {
            let c = (v / scale).rounded()
            guard c >= -32768, c <= 32767, (Float(Int16(c)) * scale).bitPattern == v.bitPattern else { return false }
        }
        return true
    }

    /// Run-length coded second differences of the ticks: the changes of the interval between
    /// samples, equal changes in a row stored once with their repeat count.
    private func encodeTicks(into w: inout ByteWriter) {
        let times = self.times
        guard let first = times.first else { return }
        var previousTick = Self.exactTick(first)!
        w.zigzag(previousTick)
        let runCountOffset = w.count
        w.u32(0)  // run count, patched below
        var runs: UInt32 = 0
        var previousInterval: Int64 = 0
        var runChange: Int64 = 0
        var runLength: UInt64 = 0
        for i in 1..<max(1, times.count) {
            let tick = Self.exactTick(times[i])!
            let interval = tick &- previousTick
            let change = interval &- previousInterval
            if runLength > 0 && change == runChange {
                runLength += 1
            } else {
                if runLength > 0 {
                    w.zigzag(runChange)
                    w.varint(runLength)
                    runs += 1
                }
                runChange = change
                runLength = 1
            }
            previousInterval = interval
            previousTick = tick
        }
        if runLength > 0 {
            w.zigzag(runChange)
            w.varint(runLength)
            runs += 1
        }
        w.patchU32(runs, at: runCountOffset)
    }

    /// Replaces the contents with the block at the reader's position (empty if it throws).
    ///
    /// The storage grows only for a block larger than any before; the block is written in place:
    /// times in closed form along each run of equal intervals,
    /// values copied (float32) or scaled (int16) in straight loops over contiguous memory.
    mutating func decode(_ r: inout ByteReader) throws {
        do {
            try decodeBlock(&r)
        } catch {
            removeAll()
            throw error
        }
    }

    private mutating func decodeBlock(_ r: inout ByteReader) throws {
        count = 0
        let n = try r.length(limit: r.remaining)
        let encoding = try r.u8()
        let ticks = encoding & 1 == 0
        let counts = encoding & 2 != 0
        let scale: Float = counts ? try r.f32() : 0
        guard n > 0 else { return }
        if timeStorage.count < n { grow(to: n) }
        if ticks {
            try timeStorage.withUnsafeMutableBufferPointer { try Self.decodeTicks(&r, into: $0.baseAddress!, n) }
        } else {
            let p = try r.take(n * 8)  // little-endian host (x86-64, arm64), as the writer
            timeStorage.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: p, byteCount: n * 8) }
        }
        if counts {
            let p = try r.take(n * 6)
            Self.scaleCounts(p, n, scale, into: &xStorage)
            Self.scaleCounts(p + n * 2, n, scale, into: &yStorage)
            Self.scaleCounts(p + n * 4, n, scale, into: &zStorage)
        } else {
            let p = try r.take(n * 12)
            xStorage.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: p, byteCount: n * 4) }
            yStorage.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: p + n * 4, byteCount: n * 4) }
            zStorage.withUnsafeMutableBytes { $0.baseAddress!.copyMemory(from: p + n * 8, byteCount: n * 4) }
        }
        count = n
    }

    /// Grows the storage to `n` samples (only for a block larger than any before).
    private mutating func grow(to n: Int) {
        let more = n - timeStorage.count
        timeStorage.append(contentsOf: repeatElement(0, count: more))
        xStorage.append(contentsOf: repeatElement(0, count: more))
        yStorage.append(contentsOf: repeatElement(0, count: more))
        zStorage.append(contentsOf: repeatElement(0, count: more))
    }

    /// The tick runs into `t` (exactly `n` times). Within a run the interval changes
    /// by the same amount each sample; the usual change is 0 (a steady rate), where tick k of the
    /// run is `tick + k × interval` with no dependence on the previous sample.
    private static func decodeTicks(_ r: inout ByteReader, into t: UnsafeMutablePointer<Seconds>, _ n: Int) throws {
        var tick = try r.zigzag()
        t[0] = Double(tick) / ticksPerSecond
        let runs = try r.u32()
        var interval: Int64 = 0
        var produced = 1
        for _ in 0..<runs {
            let change = try r.zigzag()
            let repeatCount = try r.length(limit: n - produced)
            let run = t + produced
            if change == 0 {
                let (span, overflow) = Int64(repeatCount).multipliedReportingOverflow(by: interval)
                let last = tick &+ span
                if !overflow, abs(tick) < exactIntegers, abs(last) < exactIntegers, abs(interval) < exactIntegers {
                    steadyRun(from: Double(tick), step: Double(interval), into: run, repeatCount)
                } else {
                    for k in 0..<repeatCount {
                        run[k] = Double(tick &+ Int64(k &+ 1) &* interval) / ticksPerSecond
                    }
                }
                tick = last
            } else {
                for k in 0..<repeatCount {
                    interval = interval &+ change
                    tick = tick &+ interval
                    run[k] = Double(tick) / ticksPerSecond
                }
            }
            produced += repeatCount
        }
        guard produced == n else { throw DecodeError(description: "an accelerometer block's times do not match its count") }
    }

    /// Below 2^53 every integer is a Double, and sums of such integers are exact.
    private static let exactIntegers: Int64 = 1 << 53

    /// `count` times of a steady run: tick k (1-based) is `first + k × step` nanoseconds. All the
    /// ticks are below 2^53 in magnitude, so they are summed exactly in Double, two lanes at a time
    /// (the division stays: `Double(tick) / 1e9` is what the format promises, bit for bit).
    @inline(__always)
    private static func steadyRun(from first: Double, step: Double, into out: UnsafeMutablePointer<Seconds>, _ count: Int) {
        var ticks = SIMD2(first + step, first + 2 * step)
        let twoSteps = SIMD2(repeating: 2 * step)
        let scale = SIMD2(repeating: ticksPerSecond)
        var k = 0
        while k + 2 <= count {
            let seconds = ticks / scale
            out[k] = seconds[0]
            out[k + 1] = seconds[1]
            ticks += twoSteps
            k += 2
        }
        if k < count { out[k] = ticks[0] / ticksPerSecond }
    }

    @inline(__always)
    private static func scaleCounts(_ p: UnsafeRawPointer, _ n: Int, _ scale: Float, into column: inout [Float]) {
        column.withUnsafeMutableBufferPointer { out in
            precondition(out.count >= n)
            for i in 0..<n {
                let c = Int16(bitPattern: UInt16(littleEndian: p.loadUnaligned(fromByteOffset: i * 2, as: UInt16.self)))
                out[i] = Float(c) * scale
            }
        }
    }
}
