import OarlogCore

extension SessionReader {
    /// The session's GPS fixes in recorded order, decoding nothing else (the web app's trail).
    public func fixes(onDamage: DamagePolicy = .skipDamagedChunks) throws -> [GPSFix] {
        try decoded(.fix, onDamage: onDamage, RecordCoding.decodeFix)
    }

    /// The session's events (gate crossings, course legs and pieces, note edits) in recorded
    /// order, decoding nothing else.
    public func events(onDamage: DamagePolicy = .skipDamagedChunks) throws -> [SessionEvent] {
        try decoded(.event, onDamage: onDamage, RecordCoding.decodeEvent)
    }

    /// The session's workout records (plan, steps, starts, intervals) in recorded order.
    public func workoutEvents(onDamage: DamagePolicy = .skipDamagedChunks) throws -> [SessionEvent] {
        try decoded(.workout, onDamage: onDamage, RecordCoding.decodeEvent)
    }
}
