import OarlogCore

/// The fused speed's recent past: at a steady cadence (`FusedSpeedFilter.cadence`, 0.1 s), the
/// speed and the distance it has covered since the filter began (its integral), numbered from 0
/// as they were written (entry `n` lives at slot `n & mask`). The analyzer reads from it the mean
/// speed over a stroke or a window (the distance covered over the time: exact for the speed the
/// filter integrated, however it swung within the stroke) and emits its entries as
/// `.speed(BoatSpeedSample)`. Fixed size: nothing is allocated after init.
public struct FusedSpeedHistory: Sendable {
    /// One entry: the time, the speed, the distance covered since the filter began, and whether
    /// the accelerometer drove the filter there (else it is the GPS's speed, held between fixes);
    /// and the lowest and highest speed sample by sample since the entry before, with their times
    /// (a stroke's lowest and highest speed, `extremes`, at the accelerometer's resolution).
    public struct Entry: Sendable, Equatable {
        public var time: Seconds
        public var speed: MetresPerSecond
        public var distance: Metres
        public var driven: Bool
        public var lowest: MetresPerSecond = 0, lowestTime: Seconds = 0
        public var highest: MetresPerSecond = 0, highestTime: Seconds = 0
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

    /// The speed at `time`, linearly interpolated between the entries before `end`; `nil` outside them.
    func speed(at time: Seconds, end: Int) -> MetresPerSecond? {
        guard end > first, time <= entry(end - 1).time, entry(first).time <= time else { return nil }
        let n = index(atOrAfter: time, end: end)
        let b = entry(n)
        guard n > first, b.time > time else { return b.speed }
        let a = entry(n - 1)
        return a.speed + (time - a.time) / (b.time - a.time) * (b.speed - a.speed)
    }

    /// The first entry before `end` at or after `time` (`end - 1` if none).
    private func index(atOrAfter time: Seconds, end: Int) -> Int {
        var lo = first, hi = end - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if entry(mid).time < time { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The lowest and highest speed from `start` to `stop`, from the entries at or before
    /// `through`, if they cover both and the accelerometer drove the filter at both: each
    /// entry's own extremes that fall in the span, and the speed at its two ends.
    public func extremes(from start: Seconds, to stop: Seconds, through: Seconds = .infinity)
        -> (lowest: MetresPerSecond, highest: MetresPerSecond)? {
        let end = end(through: through)
        guard stop > start, let a = distance(at: start, end: end), let b = distance(at: stop, end: end), a.driven && b.driven,
              let v0 = speed(at: start, end: end), let v1 = speed(at: stop, end: end) else { return nil }
        var lowest = min(v0, v1), highest = max(v0, v1)
        var n = index(atOrAfter: start, end: end)
        while n < end {
            let e = entry(n)
            if e.lowestTime >= start && e.lowestTime <= stop { lowest = min(lowest, e.lowest) }
            if e.highestTime >= start && e.highestTime <= stop { highest = max(highest, e.highest) }
            if e.time >= stop { break }
            n += 1
        }
        return (lowest, highest)
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
