import OarlogCore

/// Smooths the stroke-by-stroke rate for display: an exponential average over about
/// `strokes` strokes that restarts after a pause (a stroke without a rate).
public struct StrokeRateSmoother: Sendable, Equatable {
    /// Number of strokes the average spans (α = 2 / (strokes + 1)). Default 4.
    public let strokes: Int
    public private(set) var rate: StrokesPerMinute? = nil

    public init(strokes: Int = 4) { self.strokes = max(1, strokes) }

    /// Feeds one stroke's rate (`nil` after a pause) and returns the smoothed rate.
    @discardableResult
    public mutating func add(_ strokeRate: StrokesPerMinute?) -> StrokesPerMinute? {
        guard let r = strokeRate, r.isFinite, r > 0 else { rate = nil; return nil }
        let alpha = 2 / (Double(strokes) + 1)
        rate = rate.map { $0 + alpha * (r - $0) } ?? r
        return rate
    }
}
