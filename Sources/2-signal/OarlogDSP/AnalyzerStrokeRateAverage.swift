import OarlogCore

/// The rates of completed strokes and their smoothed rate.
///
/// A stroke's rate is its own: 60 / (next catch − catch), the period its drive and recovery, its
/// distance per stroke and its split span, so it is known when the next catch is (`conclude`).
/// Strokes whose period holds a pause, and the first stroke of a piece, have none
/// (`StrokePauseRule`). The smoothed rate is the mean of the last few strokes' rates, restarted
/// after a stroke without a rate, so the first strokes of a piece are not dragged down by the
/// rest; averaged as periods (harmonic mean of rates), which is strokes over time.
///
/// At a catch nothing of the new stroke's rate is known: what is shown then is the stroke just
/// finished (`preview`, exactly what `conclude` will give if the catch stands).
public struct AnalyzerStrokeRateAverage: Sendable {
    private var periods: RingBuffer<Seconds>
    private var rule: StrokePauseRule
    /// The smoothed rate of the newest stroke concluded (what the display shows until the next).
    public private(set) var latest: StrokesPerMinute?

    public init(strokes: Int = 4, minimumPeriod: Seconds = 1.2, maximumPeriod: Seconds = 7.5) {
        periods = RingBuffer(capacity: max(1, strokes), filler: 0)
        rule = StrokePauseRule(minimumPeriod: minimumPeriod, maximumPeriod: maximumPeriod)
    }

    /// Concludes the newest stroke, now that the next catch is known `period` after its own:
    /// its rate (`nil`: see `StrokePauseRule`) and the smoothed rate at it.
    public mutating func conclude(period: Seconds) -> (rate: StrokesPerMinute?, smoothed: StrokesPerMinute?) {
        let own = rule.conclude(period: period)
        let smoothed = add(own)
        latest = smoothed
        return (own, smoothed)
    }

    /// What `conclude(period:)` would return, changing nothing: summed in the same order, so the
    /// rate shown at a catch is the one the stroke before it is concluded with, to the bit.
    public func preview(period: Seconds) -> (rate: StrokesPerMinute?, smoothed: StrokesPerMinute?) {
        let own = rule.preview(period: period)
        return (own, preview(adding: own))
    }

    /// Adds a stroke's rate (`nil` after a pause) and returns the smoothed rate.
    private mutating func add(_ rate: StrokesPerMinute?) -> StrokesPerMinute? {
        guard let r = rate, r.isFinite, r > 0 else {
            periods.removeAll()
            return nil
        }
        periods.append(60 / r)
        return current
    }

    /// What `add(rate)` would return, without adding it.
    private func preview(adding rate: StrokesPerMinute?) -> StrokesPerMinute? {
        guard let r = rate, r.isFinite, r > 0 else { return nil }
        return mean(last: min(periods.count, periods.capacity - 1), adding: 60 / r)
    }

    private var current: StrokesPerMinute? {
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
