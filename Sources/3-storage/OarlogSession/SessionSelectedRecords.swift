import OarlogCore

extension SessionReader {
    /// The session's GPS fixes in recorded order, decoding nothing else (the web app's trail).
    public func fixes(onDamage: DamagePolicy = .skipDamagedChunks) throws -> [GPSFix] {
        try decoded(.fix, onDamage: onDamage, RecordCoding.decodeFix)
    }

    /// What the distance track reads, in recorded order, decoding nothing else: the GPS fixes,
    /// the GPS gaps and the device's reference strokes (whose distances the track takes at its
    /// start and across a splice), as the analyzer meets them in a replay (the web app's trail).
    public func forEachTrackRecord(onDamage: DamagePolicy = .skipDamagedChunks, _ body: (TraceRecord) throws -> Void) throws {
        var it = entries(onDamage: onDamage)
        try it.forEachChunkRecord { k, r in
            switch RecordKind(rawValue: k) {
            case .fix: try body(.fix(try RecordCoding.decodeFix(&r)))
            case .gap: if let g = try RecordCoding.decodeGap(&r), g.sensor == .gps { try body(.gap(g)) }
            case .reference: try body(.reference(try RecordCoding.decodeReference(&r)))
            default: break
            }
        }
    }

    /// The session's events (gate crossings, course legs and pieces, note edits) in recorded
    /// order, decoding nothing else.
    public func events(onDamage: DamagePolicy = .skipDamagedChunks) throws -> [SessionEvent] {
        try decoded(.event, onDamage: onDamage, RecordCoding.decodeEvent)
    }

    /// The session's heart rates and oarlock strokes (and, with `references`, the device's
    /// reference strokes) in recorded order, one at a time (nothing is held), decoding nothing
    /// else: an accelerometer block is passed over unread.
    public func forEachHeartRateAndOarlock(references: Bool = false, onDamage: DamagePolicy = .skipDamagedChunks,
                                           _ body: (TraceRecord) throws -> Void) throws {
        var it = entries(onDamage: onDamage)
        try it.forEachChunkRecord { k, r in
            switch RecordKind(rawValue: k) {
            case .heartRate:
                try body(.heartRate(try RecordCoding.decodeHeartRate(&r)))
            case .oarlock:
                try body(.oarlock(try RecordCoding.decodeOarlock(&r)))
            case .reference where references:
                try body(.reference(try RecordCoding.decodeReference(&r)))
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
