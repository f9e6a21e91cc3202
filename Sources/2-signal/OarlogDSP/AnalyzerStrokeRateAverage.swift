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
        return mean(last: min(periods.count, periods.capacity - 1), adding: 60 / r)
    }

    public var current: StrokesPerMinute? {
        periods.isEmpty ? nil : mean(last: periods.count, adding: nil)
    }

    /// The harmonic mean of the rates of the last `count` periods and `extra`, oldest first.
    private func mean(last count: Int, adding extra: Seconds?) -> StrokesPerMinute {
        var sum = 0.0
        for i in (periods.count - count)..<periods.count { sum += periods[i] }
        guard let extra else { return 60 * Double(count) / sum }
        return 60 * Double(count + 1) / (sum + extra)
    }
}
