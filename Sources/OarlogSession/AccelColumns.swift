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
public struct AccelColumns: Sendable {
    public private(set) var times: [Seconds] = []
    public private(set) var x: [MetresPerSecondSquared] = []
    public private(set) var y: [MetresPerSecondSquared] = []
    public private(set) var z: [MetresPerSecondSquared] = []

    public init(capacity: Int = 0) {
        times.reserveCapacity(capacity)
        x.reserveCapacity(capacity)
        y.reserveCapacity(capacity)
        z.reserveCapacity(capacity)
    }

    public var count: Int { times.count }
    public var isEmpty: Bool { times.isEmpty }

    public subscript(i: Int) -> AccelSample { AccelSample(time: times[i], x: x[i], y: y[i], z: z[i]) }

    @inline(__always)
    mutating func append(_ s: AccelSample) {
        times.append(s.time)
        x.append(s.x)
        y.append(s.y)
        z.append(s.z)
    }

    mutating func removeAll() {
        times.removeAll(keepingCapacity: true)
        x.removeAll(keepingCapacity: true)
        y.removeAll(keepingCapacity: true)
        z.removeAll(keepingCapacity: true)
    }

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

    private static func representable(_ values: [Float], _ scale: Float) -> Bool {
        for v in values {
            let c = (v / scale).rounded()
            guard c >= -32768, c <= 32767, (Float(Int16(c)) * scale).bitPattern == v.bitPattern else { return false }
        }
        return true
    }

    /// Run-length coded second differences of the ticks: the changes of the interval between
    /// samples, equal changes in a row stored once with their repeat count.
    private func encodeTicks(into w: inout ByteWriter) {
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

    /// Replaces the contents with the block at the reader's position.
    mutating func decode(_ r: inout ByteReader) throws {
        removeAll()
        let n = try r.length(limit: r.remaining)
        let encoding = try r.u8()
        let ticks = encoding & 1 == 0
        let counts = encoding & 2 != 0
        let scale: Float = counts ? try r.f32() : 0
        guard n > 0 else { return }
        // Grow once to the block size; `removeAll` above kept the capacity.
        if ticks {
            var tick = try r.zigzag()
            times.append(Double(tick) / Self.ticksPerSecond)
            let runs = try r.u32()
            var interval: Int64 = 0
            var produced = 1
            for _ in 0..<runs {
                let change = try r.zigzag()
                let repeatCount = try r.length(limit: n - produced)
                for _ in 0..<repeatCount {
                    interval = interval &+ change
                    tick = tick &+ interval
                    times.append(Double(tick) / Self.ticksPerSecond)
                }
                produced += repeatCount
            }
            guard produced == n else { throw DecodeError(description: "an accelerometer block's times do not match its count") }
        } else {
            let p = try r.take(n * 8)
            for i in 0..<n { times.append(Double(bitPattern: UInt64(littleEndian: p.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)))) }
        }
        if counts {
            let p = try r.take(n * 6)
            Self.appendCounts(p, n, scale, to: &x)
            Self.appendCounts(p + n * 2, n, scale, to: &y)
            Self.appendCounts(p + n * 4, n, scale, to: &z)
        } else {
            let p = try r.take(n * 12)
            Self.appendFloats(p, n, to: &x)
            Self.appendFloats(p + n * 4, n, to: &y)
            Self.appendFloats(p + n * 8, n, to: &z)
        }
    }

    @inline(__always)
    private static func appendFloats(_ p: UnsafeRawPointer, _ n: Int, to column: inout [Float]) {
        let start = column.count
        column.append(contentsOf: repeatElement(0, count: n))
        column.withUnsafeMutableBytes { dst in
            dst.baseAddress!.advanced(by: start * 4).copyMemory(from: p, byteCount: n * 4)
        }
    }

    @inline(__always)
    private static func appendCounts(_ p: UnsafeRawPointer, _ n: Int, _ scale: Float, to column: inout [Float]) {
        for i in 0..<n {
            let c = Int16(bitPattern: UInt16(littleEndian: p.loadUnaligned(fromByteOffset: i * 2, as: UInt16.self)))
            column.append(Float(c) * scale)
        }
    }
}
