import OarlogCore

/// What the analyzer reports as it goes.
public enum AnalyzerEvent: Sendable, Equatable {
    /// A completed stroke with its GPS-derived figures (emitted at the next catch, or at finish).
    case stroke(StrokeMetrics)
}

/// Session totals, as on a coxswain's summary table. `nil` = the sensor gave no data.
public struct SessionSummary: Sendable, Equatable {
    public var elapsed: Seconds?
    public var distance: Metres?
    public var strokes: Int
    public var averageStrokeRate: StrokesPerMinute?
    public var maxStrokeRate: StrokesPerMinute?
    public var averageSplit: SecondsPer500m?
    public var bestSplit: SecondsPer500m?
    public var distancePerStroke: Metres?
    public init(elapsed: Seconds? = nil, distance: Metres? = nil, strokes: Int = 0,
                averageStrokeRate: StrokesPerMinute? = nil, maxStrokeRate: StrokesPerMinute? = nil,
                averageSplit: SecondsPer500m? = nil, bestSplit: SecondsPer500m? = nil,
                distancePerStroke: Metres? = nil) {
        self.elapsed = elapsed
        self.distance = distance
        self.strokes = strokes
        self.averageStrokeRate = averageStrokeRate
        self.maxStrokeRate = maxStrokeRate
        self.averageSplit = averageSplit
        self.bestSplit = bestSplit
        self.distancePerStroke = distancePerStroke
    }
}

/// The whole rowing DSP in one streaming value: mounting → stroke detection → rate; GPS → speed,
/// split, distance; strokes joined with distance. Feed records in time order.
/// STUB: the real analyzer replaces this file.
public struct RowingAnalyzer: Sendable {
    public init() {}
    public mutating func process(_ record: TraceRecord, emit: (AnalyzerEvent) -> Void) {}
    public mutating func finish(emit: (AnalyzerEvent) -> Void) {}
    public var summary: SessionSummary { SessionSummary() }
}
