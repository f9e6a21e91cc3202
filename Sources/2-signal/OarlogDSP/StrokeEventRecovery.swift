import OarlogCore

extension StrokeEvent {
    /// This stroke with its recovery filled in, once the next catch is known: the recovery runs
    /// from the finish (catch + drive) to the next catch. Returns the stroke unchanged if the next
    /// catch is not after the finish (for example after a pause the caller should not call this).
    public func completed(nextCatch: Seconds) -> StrokeEvent {
        var stroke = self
        let recovery = nextCatch - (catchTime + driveDuration)
        if recovery > 0 { stroke.recoveryDuration = recovery }
        return stroke
    }
}
