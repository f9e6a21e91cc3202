import OarlogCore

/// A heart rate or a power figure heard in the trace, held by the assembler with the points and
/// strokes and released with them in time order, so that each lands in the lap it belongs to
/// and each stroke finds the figures around its catch.
enum ExportReading: Sendable {
    /// A strap's (or a device's) heart rate.
    case heartRate(Seconds, BeatsPerMinute)
    /// A device's stroke with its power (`ReferenceStroke.power`).
    case referencePower(Seconds, Watts)
    /// An instrumented oarlock's stroke (EmPower).
    case oarlock(OarlockStroke)

    var time: Seconds {
        switch self {
        case .heartRate(let t, _), .referencePower(let t, _): return t
        case .oarlock(let o): return o.time
        }
    }

    /// The reading a trace record gives, if any: heart rates above 0, power figures of 0 W or
    /// more, every oarlock stroke; all with a finite time.
    init?(_ record: TraceRecord) {
        switch record {
        case .heartRate(let h) where h.time.isFinite && h.bpm.isFinite && h.bpm > 0:
            self = .heartRate(h.time, h.bpm)
        case .reference(let r) where r.time.isFinite:
            guard let w = r.power, w.isFinite, w >= 0 else { return nil }
            self = .referencePower(r.time, w)
        case .oarlock(let o) where o.time.isFinite:
            self = .oarlock(o)
        default:
            return nil
        }
    }
}

/// The mean and maximum of a run of figures.
struct FigureStatistics: Sendable, Equatable {
    private var sum = 0.0
    private(set) var count = 0
    private(set) var maximum: Double?

    mutating func add(_ value: Double) {
        guard value.isFinite else { return }
        sum += value
        count += 1
        maximum = max(maximum ?? value, value)
    }

    var mean: Double? { count > 0 ? sum / Double(count) : nil }
}

/// The heart rates and power figures of a lap or of the whole session. Every heart-rate record
/// counts once (as in the session summary); the power is the device's strokes' (`.reference`)
/// when there are any, else the oarlocks' (one figure per oarlock stroke, every seat's).
struct ReadingTotals: Sendable, Equatable {
    var heartRate = FigureStatistics()
    private var referencePower = FigureStatistics()
    private var oarlockPower = FigureStatistics()

    mutating func add(_ reading: ExportReading) {
        switch reading {
        case .heartRate(_, let bpm): heartRate.add(bpm)
        case .referencePower(_, let w): referencePower.add(w)
        case .oarlock(let o):
            if let w = o.power, w.isFinite, w >= 0 { oarlockPower.add(w) }
        }
    }

    var power: FigureStatistics { referencePower.count > 0 ? referencePower : oarlockPower }

    var figures: ExportFigures {
        let p = power
        return ExportFigures(averageHeartRate: heartRate.mean, maxHeartRate: heartRate.maximum, averagePower: p.mean,
                             maxPower: p.maximum)
    }
}

/// The latest value of a reading and when it was heard.
struct Latest: Sendable {
    var time: Seconds = -.infinity
    var value: Double = .nan

    /// The value if it was heard at most `within` seconds before `now`.
    func value(at now: Seconds, within: Seconds) -> Double? {
        value.isFinite && now - time <= within && now >= time - 1 ? value : nil
    }
}

/// What a stroke's CSV row gets from the readings: the heart rate at its catch and the oarlock
/// stroke and device power nearest it.
struct StrokeReadings: Sendable {
    /// The latest heart rate released (at or before the stroke being released).
    var heartRate = Latest()
    /// The latest oarlock stroke and device power released.
    var oarlock: OarlockStroke?
    var referencePower = Latest()

    mutating func add(_ reading: ExportReading) {
        switch reading {
        case .heartRate(let t, let bpm): heartRate = Latest(time: t, value: bpm)
        case .referencePower(let t, let w): referencePower = Latest(time: t, value: w)
        case .oarlock(let o): oarlock = o
        }
    }

    /// Half a stroke of `metrics`: half its period (from its rate, else the smoothed rate;
    /// 1.5 s without either).
    static func halfStroke(_ metrics: StrokeMetrics) -> Seconds {
        let rate = metrics.stroke.strokeRate.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
            ?? metrics.smoothedRate.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        return rate.map { 30 / $0 } ?? 1.5
    }

    /// The stroke at `catchTime` with its figures: the latest heart rate at or before the catch
    /// (at most 5 s old), the oarlock stroke nearest the catch within `half`, and the power: the
    /// oarlock's, else the device's stroke nearest the catch within `half`. `pending` are the
    /// readings not yet released (all after the catch), in time order.
    func figures(at catchTime: Seconds, half: Seconds, pending: ExportQueue<ExportReading>)
        -> (heartRate: BeatsPerMinute?, power: Watts?, oarlock: OarlockStroke?) {
        var bestOarlock = oarlock.flatMap { abs($0.time - catchTime) <= half ? $0 : nil }
        var bestPower: (time: Seconds, watts: Watts)?
        if referencePower.value.isFinite, abs(referencePower.time - catchTime) <= half {
            bestPower = (referencePower.time, referencePower.value)
        }
        var foundOarlock = false, foundPower = false
        pending.scan { r in
            guard r.time - catchTime <= half else { return false }
            switch r {
            case .oarlock(let o) where !foundOarlock:
                foundOarlock = true
                if bestOarlock.map({ abs(o.time - catchTime) < abs($0.time - catchTime) }) ?? true { bestOarlock = o }
            case .referencePower(let t, let w) where !foundPower:
                foundPower = true
                if bestPower.map({ abs(t - catchTime) < abs($0.time - catchTime) }) ?? true { bestPower = (t, w) }
            default:
                break
            }
            return !(foundOarlock && foundPower)
        }
        let power = bestOarlock?.power.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } ?? bestPower?.watts
        return (heartRate.value(at: catchTime, within: 5), power, bestOarlock)
    }
}
