/// The checks of issue 29 whose goals Oarlog does not meet everywhere yet, measured exactly as
/// the registered ones are but kept out of `all` (so out of `oarlog evaluate`'s exit status):
/// `oarlog evaluate --open-goals` prints them, and docs/SPEED.md and docs/DISTANCE.md explain
/// each row that misses its tolerance. A row that passes here is one of a set whose other rows
/// do not (the standing starts of the device exports).
extension Evaluation {
    /// Every open goal's rows: the steady-rate split scatter with a 1 Hz receiver (the 10 Hz
    /// one is registered), and the 500 m standing starts other than the simulated one with
    /// Doppler speed and the SpeedCoach interval file's (registered): positions only, and the
    /// SpeedCoach v1.27 and NK exports from their start and from each rest.
    public static func openGoals(dataDirectory: String) -> [EvaluationRow] {
        steadySplitOneHertz() + [simulatedStandingStart(speed: false)]
            + deviceStandingStarts(dataDirectory: dataDirectory) { !registeredStandingStartExports.contains($0) }
    }

    /// The steady-rate scatter of the displayed per-stroke split with a 1 Hz receiver.
    public static func steadySplitOneHertz() -> [EvaluationRow] {
        let rows = splitResponse(steady: true, gpsRate: 1)
        // A failure row (the simulation could not run) is kept: it says why.
        return rows.count > 1 ? Array(rows.dropFirst()) : rows
    }
}
