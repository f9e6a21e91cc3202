import OarlogCore

/// The distance a device had already counted when the session's first fix was used. A device
/// that writes a row per stroke (SpeedCoach, NK LiNK) writes its first row at the end of the
/// first stroke, already metres from where the boat stood (a SpeedCoach's first row: 5.3 m at
/// 3.2 s); its distances count from its start, so that first figure is distance the GPS track,
/// which starts at the first fix, cannot see. Decided once: from the device's figure written
/// with the first fix (within `sameRow`), else interpolated between the figures around it (at
/// most `longestBracket` apart); no credit when the device's figures start later than that.
struct DeviceStartCredit: Sendable {
    /// A device figure this close to the first fix is the same row.
    static let sameRow: Seconds = 1
    static let longestBracket: Seconds = 10
    /// Most credited: what a boat covers before a device's first row can be written.
    static let largestCredit: Metres = 1_000

    private var firstFixTime: Seconds?
    private var before: (time: Seconds, distance: Metres)?
    private var decided = false

    /// The first fix was used at `time`; returns the credit when it is known now.
    mutating func firstFix(at time: Seconds) -> Metres? {
        guard !decided else { return nil }
        firstFixTime = time
        guard let b = before, time - b.time <= Self.sameRow else { return nil }
        return decide(b.distance)
    }

    /// A device figure: its cumulative distance at `time`. Returns the credit when it is known now.
    mutating func deviceFigure(time: Seconds, distance: Metres) -> Metres? {
        guard !decided, time.isFinite, distance.isFinite, distance >= 0 else { return nil }
        guard let f = firstFixTime else {
            before = (time, distance)
            return nil
        }
        if let b = before, f - b.time <= Self.sameRow { return decide(b.distance) }
        if abs(time - f) <= Self.sameRow { return decide(distance) }
        if time < f {
            before = (time, distance)
            return nil
        }
        guard let b = before, time - b.time <= Self.longestBracket, time > b.time else { return decide(nil) }
        let u = (f - b.time) / (time - b.time)
        return decide(b.distance + u * (distance - b.distance))
    }

    private mutating func decide(_ credit: Metres?) -> Metres? {
        decided = true
        guard let credit, credit > 0, credit <= Self.largestCredit else { return nil }
        return credit
    }
}
