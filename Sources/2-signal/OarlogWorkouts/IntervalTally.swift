import OarlogCore

/// The catches and live splits of the steps not yet reported, in time order, so that an
/// interval's strokes, rate and time in band are counted from its exact boundaries (a distance
/// step's end is found only after the catches past it have come in). Dropped once reported.
struct IntervalTally: Sendable {
    private var catches: [(index: Int, time: Seconds)] = []
    private var splits: [(time: Seconds, split: SecondsPer500m?)] = []

    struct Figures {
        var strokes = 0
        var averageRate: StrokesPerMinute?
        var rateInBand: Double?
        var splitInBand: Double?
    }

    mutating func addCatch(index: Int, time: Seconds, capacity: Int) {
        if let last = catches.last, time < last.time { return }
        if catches.count >= capacity { catches.removeFirst(catches.count / 2) }
        catches.append((index, time))
    }

    /// A catch that was no stroke: it is the newest with that index.
    mutating func withdraw(index: Int) {
        if let i = catches.lastIndex(where: { $0.index == index }) { catches.remove(at: i) }
    }

    mutating func addSplit(time: Seconds, split: SecondsPer500m?, capacity: Int) {
        if let last = splits.last, time <= last.time { return }
        if splits.count >= capacity { splits.removeFirst(splits.count / 2) }
        splits.append((time, split))
    }

    /// Forgets what lies before `time` (the start of the oldest step still to report).
    mutating func drop(before time: Seconds) {
        if let i = catches.firstIndex(where: { $0.time >= time }) { catches.removeFirst(i) } else { catches.removeAll(keepingCapacity: true) }
        // One split sample before `time` is kept: it holds until the next.
        if let i = splits.firstIndex(where: { $0.time >= time }), i > 1 { splits.removeFirst(i - 1) }
    }

    func figures(from start: Seconds, to end: Seconds, target: WorkoutTarget) -> Figures {
        var f = Figures()
        var first: Seconds?, last: Seconds?
        var inBand = 0, cycles = 0
        for c in catches where c.time >= start && c.time < end {
            f.strokes += 1
            if let band = target.strokeRate, let previous = last, c.time > previous {
                cycles += 1
                let rate = 60 / (c.time - previous)
                if TargetBand(rate, in: band, tolerance: TargetBand.strokeRateTolerance) == .within { inBand += 1 }
            }
            if first == nil { first = c.time }
            last = c.time
        }
        if f.strokes >= 2, let first, let last, last > first {
            f.averageRate = 60 * Double(f.strokes - 1) / (last - first)
        }
        if target.strokeRate != nil, cycles > 0 { f.rateInBand = Double(inBand) / Double(cycles) }
        if let band = target.split { f.splitInBand = splitShare(in: band, from: start, to: end) }
        return f
    }

    /// Share of [start, end) whose live split (each sample holding until the next) was in band.
    private func splitShare(in band: ClosedRange<SecondsPer500m>, from start: Seconds, to end: Seconds) -> Double? {
        guard end > start else { return nil }
        var within: Seconds = 0, covered: Seconds = 0
        for (k, sample) in splits.enumerated() {
            let from = max(start, sample.time)
            let to = min(end, k + 1 < splits.count ? splits[k + 1].time : end)
            guard to > from else { continue }
            covered += to - from
            if let split = sample.split, TargetBand(split, in: band, tolerance: TargetBand.splitTolerance) == .within {
                within += to - from
            }
        }
        return covered > 0 ? within / covered : nil
    }
}
