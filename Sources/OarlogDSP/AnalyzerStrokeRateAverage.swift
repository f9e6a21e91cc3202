import OarlogCore

/// Smoothed stroke rate: the mean of the last few strokes' rates, restarted after a pause (a
/// stroke without a rate), so the first strokes of a piece are not dragged down by the rest.
/// Averaged as periods (harmonic mean of rates), which is strokes over time.
public struct AnalyzerStrokeRateAverage: Sendable {
    private var periods: RingBuffer<Seconds>

    public init(strokes: Int = 4) {
        periods = RingBuffer(capacity: max(1, strokes), filler: 0)
    }

    /// Adds a stroke's rate (`nil` after a pause) and returns the smoothed rate.
    public mutating func add(_ rate: StrokesPerMinute?) -> StrokesPerMinute? {
        guard let r = rate, r.isFinite, r > 0 else {
            periods.removeAll()
            return nil
        }
        periods.append(60 / r)
        return current
    }

    /// What `add(rate)` would return, without adding it: summed in the same order, so the rate
    /// a stroke is announced with at its catch is the one it is concluded with, to the bit.
    public func preview(adding rate: StrokesPerMinute?) -> StrokesPerMinute? {
        guard let r = rate, r.isFinite, r > 0 else { return nil }
        let keep = min(periods.count, periods.capacity - 1)
        var sum = 0.0
        for i in (periods.count - keep)..<periods.count { sum += periods[i] }
        sum += 60 / r
        return 60 * Double(keep + 1) / sum
    }

    public var current: StrokesPerMinute? {
        guard !periods.isEmpty else { return nil }
        var sum = 0.0
        for i in 0..<periods.count { sum += periods[i] }
        return 60 * Double(periods.count) / sum
    }
}
