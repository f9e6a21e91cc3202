import OarlogCore

/// The fused speed's recent past: at a steady cadence (`FusedSpeedFilter.cadence`, 0.1 s), the
/// speed and the distance it has covered since the filter began (its integral), numbered from 0
/// as they were written (entry `n` lives at slot `n & mask`). The analyzer reads from it the mean
/// speed over a stroke or a window (the distance covered over the time: exact for the speed the
/// filter integrated, however it swung within the stroke) and emits its entries as
/// `.speed(BoatSpeedSample)`. Fixed size: nothing is allocated after init.
public struct FusedSpeedHistory: Sendable {
    /// One entry: the time, the speed, the distance covered since the filter began, and whether
    /// the accelerometer drove the filter there (else it is the GPS's speed, held between fixes).
    public struct Entry: Sendable, Equatable {
        public var time: Seconds
        public var speed: MetresPerSecond
        public var distance: Metres
        public var driven: Bool
    }

    private var entries: [Entry]
    private let mask: Int
    /// Entries ever written (the newest is number `count - 1`).
    public private(set) var count = 0

    /// Room for at least `seconds` of entries `cadence` apart (a power of two of them).
    init(seconds: Seconds, cadence: Seconds) {
        var capacity = 64
        while Double(capacity) * cadence < seconds { capacity *= 2 }
        entries = [Entry](repeating: Entry(time: 0, speed: 0, distance: 0, driven: false), count: capacity)
        mask = capacity - 1
    }

    /// Number of the oldest entry still held.
    public var oldest: Int { max(0, count - entries.count) }
    /// Entry `n` (`oldest ≤ n < count`).
    public func entry(_ n: Int) -> Entry { entries[n & mask] }
    public var newest: Entry? { count > 0 ? entries[(count - 1) & mask] : nil }

    @inline(__always)
    mutating func append(_ entry: Entry) {
        entries[count & mask] = entry
        count &+= 1
    }

    /// Forgets every entry (after a gap; the numbering goes on).
    mutating func removeAll() { skipped = count }
    /// Entries numbered below this were forgotten by `removeAll`.
    private var skipped = 0
    /// Number of the oldest entry still held and not forgotten.
    public var first: Int { max(oldest, skipped) }

    /// The number after the last entry at or before `time` (`first` if none).
    public func end(through time: Seconds) -> Int {
        var lo = first, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if entry(mid).time <= time { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The distance covered at `time`, linearly interpolated between the entries before
    /// `end`, and whether the accelerometer drove the filter on both sides; `nil` outside them.
    public func distance(at time: Seconds, end: Int) -> (distance: Metres, driven: Bool)? {
        guard end > first, time <= entry(end - 1).time, entry(first).time <= time else { return nil }
        var lo = first, hi = end - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if entry(mid).time < time { lo = mid + 1 } else { hi = mid }
        }
        let b = entry(lo)
        guard lo > first, b.time > time else { return (b.distance, b.driven) }
        let a = entry(lo - 1)
        let u = (time - a.time) / (b.time - a.time)
        return (a.distance + u * (b.distance - a.distance), a.driven && b.driven)
    }

    /// The mean speed from `start` to `stop` (the distance covered over the time) from the
    /// entries at or before `through`, if they cover both and (`requireDriven`) the
    /// accelerometer drove the filter at both.
    public func meanSpeed(from start: Seconds, to stop: Seconds, through: Seconds = .infinity,
                          requireDriven: Bool = true) -> MetresPerSecond? {
        let n = end(through: through)
        guard stop > start, let a = distance(at: start, end: n), let b = distance(at: stop, end: n),
              !requireDriven || (a.driven && b.driven) else { return nil }
        return (b.distance - a.distance) / (stop - start)
    }
}
