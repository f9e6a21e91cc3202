import OarlogCore

/// Where a session started: the position of its first usable GPS fix (what the race map groups
/// sessions by), a `GeoPoint`.
enum SessionStartPlace {
    /// A fix that says where the boat was: the receiver had a fix, finite, on the globe, not the
    /// (0, 0) some receivers report before they have one (as `DistanceAccumulator` takes them).
    static func isUsable(_ fix: GPSFix) -> Bool {
        fix.mode != .noFix && fix.latitude.isFinite && fix.longitude.isFinite
            && abs(fix.latitude) <= 90 && abs(fix.longitude) <= 360
            && !(fix.latitude == 0 && fix.longitude == 0)
    }
}

extension SessionReader {
    /// The position of the session's first usable GPS fix, or nil when it has none. Walks the
    /// chunks from the start and stops at that fix: only fix records are decoded (accelerometer
    /// blocks are passed over undecoded), damaged chunks are skipped. A closed session whose
    /// summary counts no fixes is not walked at all.
    public func startPlace() throws -> GeoPoint? {
        if let summary, summary.statistics.fixes == 0 { return nil }
        var it = entries(onDamage: .skipDamagedChunks)
        while case (let kind, var r)? = try it.nextChunkRecord() {
            guard kind == RecordKind.fix.rawValue else { continue }
            let fix: GPSFix
            do {
                fix = try RecordCoding.decodeFix(&r)
            } catch let error as DecodeError {
                try it.skipChunk(noting: "a fix cannot be read: \(error)")
                continue
            }
            if SessionStartPlace.isUsable(fix) { return GeoPoint(latitude: fix.latitude, longitude: fix.longitude) }
        }
        return nil
    }
}
