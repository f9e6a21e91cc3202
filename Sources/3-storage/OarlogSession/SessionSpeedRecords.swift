import OarlogCore
import OarlogDSP

/// The boat's fused speed in the session file (record kind `boatSpeed`, 0x15, minor version 6;
/// docs/SESSION_FORMAT.md): a block of samples as the analyzer emitted them
/// (`AnalyzerEvent.speed`, about every 0.1 s), columnar:
///
/// ```
/// varint count                 1 … 256
/// f64    first time            s, bit-exact
/// zigzag × (count − 1)         time: change of the step between samples, in microsecond ticks
///                              from the first time (a steady 10 Hz block: one byte a sample)
/// zigzag × count               speed in mm/s
/// ```
///
/// Each time reads back within 0.5 µs (`first + Double(tick) / 1e6`, the tick rounded from the
/// sample's time less the first), each speed within 0.5 mm/s. A sample with a time or speed
/// that is not finite, or a speed beyond ±`largestSpeed`, is not stored. A block never spans
/// more than `longestSpan` nor goes back in time (the writer starts another). An older reader
/// skips the kind; recovery keeps every block of every intact chunk.
struct BoatSpeedBlock {
    /// Samples in one block at most (about 25 s at 10 Hz).
    static let capacity = 256
    /// A block's samples are within this of its first (ticks stay far inside Int64).
    static let longestSpan: Seconds = 3_600
    /// Speeds beyond this (either way) are not a boat's and are not stored.
    static let largestSpeed: MetresPerSecond = 1_000

    private(set) var times: [Seconds] = []
    private(set) var speeds: [MetresPerSecond] = []

    init() {
        times.reserveCapacity(Self.capacity)
        speeds.reserveCapacity(Self.capacity)
    }

    var count: Int { times.count }
    var isEmpty: Bool { times.isEmpty }
    var isFull: Bool { times.count >= Self.capacity }

    /// Whether `sample` can be stored at all.
    static func storable(_ sample: BoatSpeedSample) -> Bool {
        sample.time.isFinite && sample.speed.isFinite && abs(sample.speed) <= largestSpeed
    }

    /// Whether `sample` may join this block (same span, not earlier than the last).
    func fits(_ sample: BoatSpeedSample) -> Bool {
        guard let first = times.first, let last = times.last else { return true }
        return sample.time >= last && sample.time - first <= Self.longestSpan
    }

    /// Appends a storable sample that `fits` (the writer checks both; the arrays never grow past
    /// `capacity`).
    mutating func append(_ sample: BoatSpeedSample) {
        times.append(sample.time)
        speeds.append(sample.speed)
    }

    mutating func removeAll() {
        times.removeAll(keepingCapacity: true)
        speeds.removeAll(keepingCapacity: true)
    }

    func encode(into w: inout ByteWriter) {
        guard let first = times.first else { return }
        w.varint(UInt64(times.count))
        w.f64(first)
        var previousTick: Int64 = 0, previousStep: Int64 = 0
        for t in times.dropFirst() {
            let tick = Int64(((t - first) * 1e6).rounded())
            let step = tick - previousTick
            w.zigzag(step - previousStep)
            previousTick = tick
            previousStep = step
        }
        for v in speeds { w.zigzag(Int64((v * 1000).rounded())) }
    }

    /// Decodes a block, handing each sample to `body` in order once the whole block has read
    /// back (a damaged block gives nothing). Hostile bytes throw a `DecodeError` (a count beyond
    /// the bytes there are, a record that ends early); ticks wrap rather than trap.
    static func decode(_ r: inout ByteReader, _ body: (BoatSpeedSample) throws -> Void) throws {
        let count = try r.length(limit: r.remaining)
        guard count > 0 else { return }
        let first = try r.f64()
        var samples = [BoatSpeedSample](repeating: BoatSpeedSample(time: first, speed: 0), count: count)
        var tick: Int64 = 0, step: Int64 = 0
        for k in 1..<max(1, count) {
            step = step &+ (try r.zigzag())
            tick = tick &+ step
            samples[k].time = first + Double(tick) / 1e6
        }
        for k in 0..<count { samples[k].speed = Double(try r.zigzag()) / 1000 }
        for sample in samples { try body(sample) }
    }

    /// The number of samples a block holds, read from its first bytes (recovery's count).
    static func sampleCount(_ r: inout ByteReader) throws -> Int {
        try r.length(limit: r.remaining)
    }
}

extension SessionReader {
    /// The boat's fused speed (`AnalyzerEvent.speed`, stored from minor version 6) in recorded
    /// order, one sample at a time (nothing is held), decoding nothing else: accelerometer
    /// blocks and other records are passed over unread. A session recorded before the fused
    /// speed existed has none: `body` is never called.
    public func forEachBoatSpeed(onDamage: DamagePolicy = .skipDamagedChunks,
                                 _ body: (BoatSpeedSample) throws -> Void) throws {
        var it = entries(onDamage: onDamage)
        try it.forEachChunkRecord { k, r in
            guard k == RecordKind.boatSpeed.rawValue else { return }
            try BoatSpeedBlock.decode(&r, body)
        }
    }

    /// Every fused speed sample of the session, in recorded order (`forEachBoatSpeed` gathered).
    public func boatSpeeds(onDamage: DamagePolicy = .skipDamagedChunks) throws -> [BoatSpeedSample] {
        var out: [BoatSpeedSample] = []
        try forEachBoatSpeed(onDamage: onDamage) { out.append($0) }
        return out
    }
}
