import OarlogCore

/// Reads a Garmin Training Center XML file (TCX v2) as any app writes it (CrewNerd, Rowing in
/// Motion, Strava's and Garmin's downloads, rowingdata): the first activity's trackpoints and
/// laps.
///
/// - The activity's `Sport` is checked: `Running` and `Biking` are refused as not rowing unless
///   `TraceOpenOptions.anySport`; rowing apps write `Other`.
/// - Metadata first: `source_format`, `start_utc` (the first trackpoint's time; a time without a
///   zone is read as UTC, as Garmin's schema has it), `start_local` when the activity's `Id` has
///   no zone and is not that time (Rowing in Motion writes the Id in local time and the
///   trackpoints in UTC), `activity_sport`, `device` (the activity's `Creator`, else the file's
///   `Author`), `device_serial`, `device_firmware`, and the device's totals over its laps:
///   `device_total_distance_m` (the sum of the laps' `DistanceMeters`), `device_elapsed_s` (the
///   sum of `TotalTimeSeconds`), `device_total_strokes` (the sum of the laps' `Steps`, which
///   CrewNerd fills with strokes, when every lap has one), `device_avg_rate_spm` and
///   `device_avg_heart_rate_bpm` (the laps' `Cadence` and `AverageHeartRateBpm` weighted by their
///   time), `device_max_heart_rate_bpm`, `device_intervals` and per lap
///   `device_interval_<n>_distance_m`, `_elapsed_s`, `_strokes`, `_rate_spm`,
///   `_avg_heart_rate_bpm`, `_avg_speed_mps`.
/// - Then per trackpoint, at its time less the first one's: a `.note` ("Lap n", with the lap's
///   notes) where a lap starts when there are several, a `.gap` of the GPS where trackpoints are
///   more than 30 s apart (between laps, where an app cut out the rests), a `.fix` (position,
///   altitude, UTC, the `TPX/Speed` when given) and a `.heartRate` (`HeartRateBpm`).
///
/// Not delivered as records: a trackpoint's `Cadence` (the stroke rate), `DistanceMeters` and
/// `Watts`. They are the device's per-second figures, not strokes, and a `.reference` counts as
/// one device stroke in a trace without an accelerometer. A trackpoint without a position gives
/// no fix (skip reason `noPosition`; its heart rate is kept); without a usable time it is
/// skipped (`unusableRow`); earlier than the one before, `timeWentBackward`. Values beyond their
/// physical bound are unknown and counted (`droppedValues`): a heart rate of 0 or 1 (a
/// placeholder) gives no record. Bounds: `XMLScanner.Limits` (256 MiB, nesting, token sizes) and
/// `XMLTrackLimits` (1,000,000 points).
public struct TCXReader: RecordSource, TraceStatisticsReporting {
    public let path: String
    private var replay: XMLTrackReplay
    private var counts = TraceReadStatistics()
    public var statistics: TraceReadStatistics { counts }

    public init(path: String, options: TraceOpenOptions = TraceOpenOptions()) throws {
        self.path = path
        let document = try TCXDocument(path: path, options: options, counts: &counts)
        counts.linesRead = document.linesRead
        let points = document.points.points
        let origin = points[0].utc
        let lapNotes = document.laps.map(\.notes)
        let note: ((Int) -> String)? = lapNotes.count > 1
            ? { n in "Lap \(n + 1)" + (n < lapNotes.count ? lapNotes[n].map { ": " + $0 } ?? "" : "") }
            : nil
        replay = XMLTrackReplay(metadata: Self.metadata(document, origin: origin), points: points, origin: origin,
                                partNote: note)
    }

    public mutating func next() throws -> TraceRecord? { replay.next(counting: &counts) }

    /// An XML document whose root is `TrainingCenterDatabase`.
    static func recognises(lines: [String]) -> Bool {
        lines.prefix(40).contains { $0.contains("<TrainingCenterDatabase") }
    }

    private static func metadata(_ d: TCXDocument, origin: Double) -> [TraceRecord] {
        var m: [(String, String)] = [("source_format", "TCX (Garmin Training Center XML)"),
                                     ("start_utc", UTCTime.iso8601(origin))]
        if let id = d.idText, let time = XMLValues.time(id), !time.zoned, abs(time.utc - origin) > 60 {
            m.append(("start_local", String(id.prefix(19))))
        }
        if let sport = d.sport { m.append(("activity_sport", sport)) }
        if let name = d.creatorName ?? d.authorName, !name.isEmpty { m.append(("device", name)) }
        if let unit = d.creatorUnitId, !unit.isEmpty { m.append(("device_serial", unit)) }
        let version = d.creatorName != nil ? d.creatorVersion : d.authorVersion
        if version.count >= 2 { m.append(("device_firmware", version.prefix(2).joined(separator: "."))) }
        m += lapTotals(d.laps)
        return m.map { .metadata(key: $0.0, value: $0.1) }
    }

    /// The session's totals over its laps, and each lap's figures.
    static func lapTotals(_ laps: [TCXLap]) -> [(String, String)] {
        var m: [(String, String)] = []
        func sum(_ values: [Double?]) -> Double? {
            values.contains(nil) || values.isEmpty ? nil : values.reduce(0) { $0 + $1! }
        }
        func timeWeighted(_ values: [Double?]) -> Double? {
            let pairs = zip(laps.map(\.totalTime_s), values)
            guard !pairs.contains(where: { $0.0 == nil || $0.1 == nil }) else { return nil }
            let time = pairs.reduce(0) { $0 + $1.0! }
            return time > 0 ? pairs.reduce(0) { $0 + $1.0! * $1.1! } / time : nil
        }
        if let v = sum(laps.map(\.distance_m)) { m.append(("device_total_distance_m", v.description)) }
        if let v = sum(laps.map(\.totalTime_s)) { m.append(("device_elapsed_s", v.description)) }
        if let v = sum(laps.map { $0.strokes.map(Double.init) }) { m.append(("device_total_strokes", String(Int(v)))) }
        if let v = timeWeighted(laps.map(\.cadence_spm)) { m.append(("device_avg_rate_spm", v.description)) }
        if let v = timeWeighted(laps.map(\.averageHeartRate_bpm)) { m.append(("device_avg_heart_rate_bpm", v.description)) }
        if let v = laps.compactMap(\.maximumHeartRate_bpm).max() { m.append(("device_max_heart_rate_bpm", v.description)) }
        m.append(("device_intervals", String(laps.count)))
        for (k, lap) in laps.enumerated() {
            let n = k + 1
            if let v = lap.distance_m { m.append(("device_interval_\(n)_distance_m", v.description)) }
            if let v = lap.totalTime_s { m.append(("device_interval_\(n)_elapsed_s", v.description)) }
            if let v = lap.strokes { m.append(("device_interval_\(n)_strokes", String(v))) }
            if let v = lap.cadence_spm { m.append(("device_interval_\(n)_rate_spm", v.description)) }
            if let v = lap.averageHeartRate_bpm { m.append(("device_interval_\(n)_avg_heart_rate_bpm", v.description)) }
            if let v = lap.averageSpeed_mps { m.append(("device_interval_\(n)_avg_speed_mps", v.description)) }
        }
        return m
    }
}
