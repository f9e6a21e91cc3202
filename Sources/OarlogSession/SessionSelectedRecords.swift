import OarlogCore

extension SessionReader {
    /// The session's GPS fixes in recorded order, decoding nothing else (the web app's trail).
    public func fixes(onDamage: DamagePolicy = .skipDamagedChunks) throws -> [GPSFix] {
        var out: [GPSFix] = []
        var it = entries(onDamage: onDamage)
        try it.forEachChunkRecord { kind, r in
            if kind == RecordKind.fix.rawValue { out.append(try RecordCoding.decodeFix(&r)) }
        }
        return out
    }

    /// The session's events (gate crossings, course legs and pieces, note edits) in recorded
    /// order, decoding nothing else.
    public func events(onDamage: DamagePolicy = .skipDamagedChunks) throws -> [SessionEvent] {
        var out: [SessionEvent] = []
        var it = entries(onDamage: onDamage)
        try it.forEachChunkRecord { kind, r in
            if kind == RecordKind.event.rawValue { out.append(try RecordCoding.decodeEvent(&r)) }
        }
        return out
    }
}
