import OarlogCore

/// Which completed strokes have a rate: a stroke's rate is its own, 60 / (next catch − catch),
/// unless its period holds a pause, or it is the first stroke of a piece (the session's first,
/// or the first after a pause: a wind-up from rest, whose rate a rower does not row by).
///
/// A period holds a pause when it is longer than `maximumPeriod`, or when it is both
/// - much longer than the crew's recent strokes: at least `pauseFactor` × the median of the last
///   `recentStrokes` periods (steady rowing varies by a few per cent stroke to stroke), and
/// - slower than a crew rows steadily: at least `pausePeriod` (4.2 s, 14.3 spm).
///
/// Both are needed: a crew easing from 32 to 18 spm in one stroke lengthens its period 1.8× but
/// stays far quicker than 14 spm; a crew paddling steadily at 13 spm is slow, but each stroke is
/// as long as the last. Every period up to `maximumPeriod` joins the recent ones, so a crew that
/// settles to a slow paddle is taken at its word after a stroke or two. A period shorter than
/// `minimumPeriod` has no rate (no crew rows it) but is no pause.
public struct StrokePauseRule: Sendable {
    public var minimumPeriod: Seconds
    public var maximumPeriod: Seconds
    /// A period this many times the recent median (and at least `pausePeriod`) holds a pause.
    public var pauseFactor: Double = 1.3
    /// No period shorter than this holds a pause, s (14.3 spm: slower than any steady rating).
    public var pausePeriod: Seconds = 4.2
    /// How many recent periods the median is taken over.
    public static let recentStrokes = 5

    private var recent: RingBuffer<Seconds>
    /// The next stroke concluded is the first of a piece.
    private var restarting = true

    public init(minimumPeriod: Seconds = 1.2, maximumPeriod: Seconds = 7.5) {
        self.minimumPeriod = minimumPeriod
        self.maximumPeriod = maximumPeriod
        recent = RingBuffer(capacity: Self.recentStrokes, filler: 0)
    }

    /// Concludes the next stroke, whose period (catch to next catch) is `period`: its rate, or
    /// `nil` (the first of a piece, a period holding a pause, or one no crew rows).
    public mutating func conclude(period: Seconds) -> StrokesPerMinute? {
        let verdict = judge(period)
        restarting = verdict.pause
        // After a pause the strokes before it no longer say what the crew rows; a slow period
        // that was taken for one starts the recent ones (the crew may have settled to it).
        if verdict.pause { recent.removeAll() }
        if period.isFinite, period >= minimumPeriod, period <= maximumPeriod { recent.append(period) }
        return verdict.rate
    }

    /// What `conclude(period:)` would return, changing nothing.
    public func preview(period: Seconds) -> StrokesPerMinute? { judge(period).rate }

    /// Whether the stroke of `period` holds a pause, and its rate.
    private func judge(_ period: Seconds) -> (pause: Bool, rate: StrokesPerMinute?) {
        guard period.isFinite, period > 0 else { return (true, nil) }
        if period > maximumPeriod { return (true, nil) }
        if period >= pausePeriod, let median = recentMedian, period >= pauseFactor * median { return (true, nil) }
        guard !restarting, period >= minimumPeriod else { return (false, nil) }
        return (false, 60 / period)
    }

    /// The median of the recent periods (the lower middle of an even count), `nil` before any.
    private var recentMedian: Seconds? {
        let n = recent.count
        guard n > 0 else { return nil }
        let rank = (n - 1) / 2
        for i in 0..<n {
            var below = 0, equal = 0
            for j in 0..<n {
                if recent[j] < recent[i] { below += 1 } else if recent[j] == recent[i] { equal += 1 }
            }
            if below <= rank && rank < below + equal { return recent[i] }
        }
        return recent[n - 1]
    }
}
