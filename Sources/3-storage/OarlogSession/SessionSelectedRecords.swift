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

    /// The session's heart rates and oarlock strokes in recorded order, one at a time (nothing is
    /// held), decoding nothing else.
    public func forEachHeartRateAndOarlock(onDamage: DamagePolicy = .skipDamagedChunks,
                                           _ body: (TraceRecord) throws -> Void) throws {
        var it = entries(onDamage: onDamage)
        try it.forEachChunkRecord { k, r in
            switch RecordKind(rawValue: k) {
            case .heartRate:
                let time = try r.f64(), bpm = try r.f64(), sensor = try r.string()
                try body(.heartRate(HeartRateSample(time: time, bpm: bpm, sensor: sensor.isEmpty ? nil : sensor)))
            case .oarlock:
                try body(.oarlock(try RecordCoding.decodeOarlock(&r)))
            default:
                break
            }
        }
    }

    /// The session's workout records (plan, steps, starts, intervals) in recorded order.
    public func workoutEvents(onDamage: DamagePolicy = .skipDamagedChunks) throws -> [SessionEvent] {
        try decoded(.workout, onDamage: onDamage, RecordCoding.decodeEvent)
    }
}
