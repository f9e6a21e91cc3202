import OarlogCore

extension RowingAnalyzer {
    /// Takes the accelerometer's surges from `lookahead`, the mounting estimator run ahead on the
    /// thread that parses the trace (`MountingLookahead`): the same events, the estimator's work
    /// on the other core. Only before the first sample, with the same mounting configuration, and
    /// when a parsing thread feeds the lookahead; returns whether the analyzer follows it.
    @discardableResult
    public mutating func follow(_ lookahead: MountingLookahead) -> Bool {
        guard configuration.strokeSource != .reference else { return false }
        return strokeStage.follow(lookahead)
    }
}
