import OarlogCore
import OarlogDSP

/// What the devices beside the boat measured at each stroke: the heart rate of each strap (its
/// latest reading at or before the catch, within `heartRateWindow`) and the instrumented
/// oarlock's stroke nearest the catch (within half a stroke). Fed the raw records as they pass;
/// asked when a stroke is reported, which is after its records have passed (the analyzer gives a
/// stroke once the next one has begun). An oarlock stroke nearer another catch is that stroke's. Bounded memory: the latest `keptHeartRates` heart rates
/// and `keptOarlockStrokes` oarlock strokes, `HeartRateBySensor.maxSensors` straps.
public struct StrokeDeviceFigures: Sendable {
    /// How old a heart rate may be and still be a stroke's: 5 s (a strap sends one a second).
    public static let heartRateWindow: Seconds = 5
    /// Heart rates kept: 4,096 (over four minutes of sixteen straps at one a second; the analyzer
    /// gives a stroke at most 64 strokes late).
    public static let keptHeartRates = 4096
    /// Oarlock strokes kept: 512 (64 strokes late, eight oarlocks).
    public static let keptOarlockStrokes = 512
    /// Half a stroke when the stroke has no rate: 1.5 s (half a stroke at 20 spm).
    public static let defaultHalfStroke: Seconds = 1.5

    /// One heart rate: its time, beats per minute and the index of its strap in `sensorNames`.
    private struct Beat: Sendable { var time: Seconds; var bpm: BeatsPerMinute; var sensor: Int }

    private var beats: [Beat] = []
    private var beatStart = 0
    private var oarlocks: [OarlockStroke] = []
    private var oarlockStart = 0
    /// The latest catches (`noteCatch`), to give each oarlock stroke to the catch it is nearest.
    private var catches: [Seconds] = []
    private var catchStart = 0
    /// Catches kept: 128 (the analyzer gives a stroke at most 64 strokes after its catch).
    static let keptCatches = 128
    /// The straps in the order they first gave a heart rate ("" for one that gave no name).
    public private(set) var sensorNames: [String] = []
    public private(set) var heartRates = 0
    public private(set) var oarlockStrokes = 0

    public init() {}

    /// The figures at one stroke.
    public struct AtStroke: Sendable, Equatable {
        /// The first strap's heart rate (the only one's, with one strap).
        public var heartRate: BeatsPerMinute?
        /// Every strap's heart rate at the stroke, in `sensorNames` order, when two or more have one.
        public var heartRates: [(sensor: String, bpm: BeatsPerMinute)] = []
        public var oarlock: OarlockStroke?

        public static func == (a: AtStroke, b: AtStroke) -> Bool {
            a.heartRate == b.heartRate && a.oarlock == b.oarlock
                && a.heartRates.map(\.sensor) == b.heartRates.map(\.sensor) && a.heartRates.map(\.bpm) == b.heartRates.map(\.bpm)
        }
    }

    public mutating func add(_ record: TraceRecord) {
        switch record {
        case .heartRate(let h):
            guard h.bpm.isFinite, h.bpm > 0, h.time.isFinite else { return }
            let name = h.sensor ?? ""
            var k = sensorNames.firstIndex(of: name)
            if k == nil, sensorNames.count < HeartRateBySensor.maxSensors {
                sensorNames.append(name)
                k = sensorNames.count - 1
            }
            guard let k else { return }
            heartRates += 1
            Self.push(Beat(time: h.time, bpm: h.bpm, sensor: k), into: &beats, start: &beatStart, limit: Self.keptHeartRates)
        case .oarlock(let o):
            guard o.time.isFinite else { return }
            oarlockStrokes += 1
            Self.push(o, into: &oarlocks, start: &oarlockStart, limit: Self.keptOarlockStrokes)
        default:
            break
        }
    }

    /// A stroke's catch, as the analyzer announced it (before it gives the stroke).
    public mutating func noteCatch(_ time: Seconds) {
        guard time.isFinite else { return }
        Self.push(time, into: &catches, start: &catchStart, limit: Self.keptCatches)
    }

    /// Appends to a ring of at most `limit` (oldest overwritten).
    private static func push<T>(_ v: T, into ring: inout [T], start: inout Int, limit: Int) {
        if ring.count < limit {
            ring.append(v)
        } else {
            ring[start] = v
            start = (start + 1) % limit
        }
    }

    /// Half the stroke `m` (by its rate, else its smoothed rate, else `defaultHalfStroke`).
    public static func halfStroke(_ m: StrokeMetrics) -> Seconds {
        let rate = m.stroke.strokeRate ?? m.smoothedRate
        return rate.flatMap { $0 > 0 && $0.isFinite ? 30 / $0 : nil } ?? defaultHalfStroke
    }

    /// The figures at the stroke `m`; the catches before and after it are the noted ones
    /// (`noteCatch`) unless given.
    public func at(_ m: StrokeMetrics) -> AtStroke {
        let t = m.stroke.catchTime
        let previous = catches.filter { $0 < t }.max(), next = catches.filter { $0 > t }.min()
        return at(m, previousCatch: previous, nextCatch: next)
    }

    /// The figures at the stroke `m`: an oarlock stroke nearer the previous or the next catch than
    /// to this one is theirs.
    public func at(_ m: StrokeMetrics, previousCatch: Seconds?, nextCatch: Seconds?) -> AtStroke {
        var out = AtStroke()
        let t = m.stroke.catchTime
        if !beats.isEmpty {
            var latest = [Beat?](repeating: nil, count: sensorNames.count)
            for j in 0..<beats.count {
                let b = beats[(beatStart + j) % beats.count]
                guard b.time <= t, t - b.time <= Self.heartRateWindow else { continue }
                if let l = latest[b.sensor], l.time > b.time { continue }
                latest[b.sensor] = b
            }
            let found = latest.compactMap { $0 }
            out.heartRate = found.first?.bpm
            if found.count > 1 { out.heartRates = found.map { (sensorNames[$0.sensor], $0.bpm) } }
        }
        if !oarlocks.isEmpty {
            let half = Self.halfStroke(m)
            let from = max(t - half, previousCatch.map { ($0 + t) / 2 } ?? -.infinity)
            let to = min(t + half, nextCatch.map { ($0 + t) / 2 } ?? .infinity)
            var best: OarlockStroke?
            for o in oarlocks where o.time >= from && o.time <= to {
                if best.map({ abs(o.time - t) < abs($0.time - t) }) ?? true { best = o }
            }
            out.oarlock = best
        }
        return out
    }
}
