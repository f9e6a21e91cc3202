import OarlogCore

/// Reads an NK LiNK Logbook CSV export: a proper CSV (quoted fields with commas) whose rows are
/// not in time order and mix record kinds (column `type`; 0 = one stroke; the others are
/// interval and split records).
///
/// Because the strokes are out of order, this format forces the reader to buffer them: it
/// reads the whole file once at open, keeps only the per-stroke records in a compact struct
/// array (one session: ~100 bytes per stroke), and sorts them by `elapsedTime` (then
/// `sessionStrokeIndex`). Everything after that streams from the array.
///
/// Yields metadata (`source_format`, `start_utc` = the first stroke's `timestamp` minus its
/// `elapsedTime`, i.e. the session start; `device_session_id`, `device_total_strokes`,
/// `device_total_distance_m` from the last stroke), then per stroke, at `elapsedTime`/1000 s,
/// a `.fix` (7-decimal latitude/longitude, `gpsInstaSpeed`, UTC from `timestamp`) and a
/// `.reference` (`gpsTotalDistance`, `gpsPace` ms/500 m → s/500 m, `strokeRate`,
/// `gpsInstaSpeed`, `strokeCount`, `gpsDistStroke`, the EmPower `power`), then a `.heartRate`
/// (`heartRate`; 0 or blank is none) and an `.oarlock` (the EmPower oarlock's flat columns:
/// `power` W, `catchAngle`, `finishAngle`, `slip`, `wash`, `effectiveLength`,
/// `positionOfMaxForce` in degrees, `handleForceAvg`, `maxHandleForce` in newtons,
/// `realWorkPerStroke` in joules; none when the row has none of them). A zero pace or a 0,0
/// position is unknown. Rows of other types are counted as skipped with reason `otherRecordType`.
///
/// Bounds (`TraceLimits`): the file is at most 64 MiB and at most 200,000 strokes are kept
/// (`TraceError.tooLarge` beyond), a line at most 64 KiB. A stroke more than 7 days into the
/// session is skipped (`implausibleValue`); a figure beyond its physical bound (a speed over
/// 30 m/s, a distance over 1,000 km, a timestamp outside 1970–2100, …) is unknown and counted
/// (`droppedValues`).
public struct NKLogbookReader: RecordSource, TraceStatisticsReporting {
    /// One per-stroke record, compact: what the reader keeps of a row.
    struct Stroke {
        var elapsedMs: Int64
        var timestampMs: Int64?
        var index: Int64
        var latitude: Double?, longitude: Double?
        var speed: Double?, distance: Double?, paceMsPer500m: Double?
        var rate: Double?, count: Int?, perStroke: Double?
        /// Beats per minute; NaN: none.
        var heartRate: Float = .nan
        /// The EmPower figures, NaN where unknown (Floats: a long export keeps them all).
        var oarlock = NKOarlockFigures()
        var line: Int
    }

    public let path: String
    private var strokes: [Stroke] = []
    private var metadata: [TraceRecord] = []
    private var metadataIndex = 0
    private var strokeIndex = 0
    /// The current stroke's records after its first (reference, heart rate, oarlock), in order.
    private var pending: [TraceRecord] = []
    private var pendingIndex = 0
    private var counts = TraceReadStatistics()
    private var lines = 0

    public var statistics: TraceReadStatistics {
        var s = counts
        s.linesRead = lines
        return s
    }

    /// Reads and sorts the per-stroke records. Throws if the header lacks the NK columns, or a
    /// stroke row has a value that is not a number.
    public init(path: String) throws {
        self.path = path
        var input = try ChunkedLineBuffer(path: path, maxFileBytes: TraceLimits.maxNKLogbookFileBytes)
        var row = CSVRow(file: path)
        guard let headerBytes = try input.nextLine() else {
            throw TraceError(.empty, file: path, "the file is empty")
        }
        try row.parse(headerBytes, line: 1)
        let columns = try Columns(header: row.fields, path: path)
        var sessionId: String?
        while true {
            let line = input.lineNumber
            guard let bytes = try input.nextLine() else { break }
            try row.parse(bytes, line: line)
            if row.isBlank { counts.blankLines += 1; continue }
            guard let stroke = try stroke(row, columns) else { continue }
            if sessionId == nil, let c = columns.session, !row[c].isEmpty { sessionId = row[c] }
            strokes.append(stroke)
        }
        lines = input.lineNumber - 1
        strokes.sort { ($0.elapsedMs, $0.index, $0.line) < ($1.elapsedMs, $1.index, $1.line) }
        metadata = Self.metadata(of: strokes, sessionId: sessionId)
        counts.metadataRecords = metadata.count
    }

    /// Where the header puts what this reader takes; all but the type, the elapsed time and the
    /// position may be missing.
    struct Columns {
        let count: Int
        let type: Int, elapsed: Int, latitude: Int, longitude: Int
        let timestamp: Int?, index: Int?, session: Int?, speed: Int?, distance: Int?
        let pace: Int?, rate: Int?, strokeCount: Int?, perStroke: Int?, heartRate: Int?
        let oarlock: NKOarlockFigures.Columns

        init(header: [String], path: String) throws {
            func column(_ name: String) throws -> Int {
                guard let k = header.firstIndex(of: name) else {
                    throw TraceError(.malformed, file: path, line: 1, column: 1,
                                     "expected a column \(name.debugDescription) in the NK Logbook header")
                }
                return k
            }
            count = header.count
            type = try column("type"); elapsed = try column("elapsedTime")
            timestamp = header.firstIndex(of: "timestamp"); index = header.firstIndex(of: "sessionStrokeIndex")
            session = header.firstIndex(of: "sessionId")
            latitude = try column("latitude"); longitude = try column("longitude")
            speed = header.firstIndex(of: "gpsInstaSpeed"); distance = header.firstIndex(of: "gpsTotalDistance")
            pace = header.firstIndex(of: "gpsPace"); rate = header.firstIndex(of: "strokeRate")
            strokeCount = header.firstIndex(of: "strokeCount"); perStroke = header.firstIndex(of: "gpsDistStroke")
            heartRate = header.firstIndex(of: "heartRate")
            oarlock = NKOarlockFigures.Columns(header: header)
        }
    }

    /// The stroke a row holds; nil (counted as skipped) for a row of another type, without a
    /// usable elapsed time, or more than 7 days into the session.
    private mutating func stroke(_ row: CSVRow, _ c: Columns) throws -> Stroke? {
        let line = row.line
        guard row.count == c.count else {
            throw row.error(field: row.count - 1, "expected \(c.count) fields, found \(row.count)")
        }
        guard row[c.type] == "0" else {
            guard !row[c.type].isEmpty, Int(row[c.type]) != nil else {
                throw row.error(field: c.type, "expected a record type (a whole number), found \(row[c.type].debugDescription)")
            }
            counts.recordSkip(.otherRecordType, line: line)
            return nil
        }
        func number(_ k: Int?, _ name: String) throws -> Double? {
            guard let k else { return nil }
            return try row.number(k, name, unknownMarker: "")
        }
        func integer(_ k: Int?, _ name: String) throws -> Int64? {
            guard let v = try number(k, name) else { return nil }
            guard v == v.rounded(), abs(v) < 1e15 else {
                throw row.error(field: k!, "expected a whole number for \(name), found \(row[k!].debugDescription)")
            }
            return Int64(v)
        }
        guard let elapsed = try integer(c.elapsed, "elapsedTime"), elapsed >= 0 else {
            counts.recordSkip(.unusableRow, line: line)
            return nil
        }
        guard Double(elapsed) <= TraceLimits.maxSessionSeconds * 1000 else {
            counts.recordSkip(.implausibleValue, line: line)
            return nil
        }
        guard strokes.count < TraceLimits.maxNKLogbookStrokes else {
            throw TraceError(.tooLarge, file: path, line: line,
                             "more than \(TraceLimits.maxNKLogbookStrokes) strokes, the most this reader holds: split the export")
        }
        var bounds = PlausibleValues()
        let pace = bounds.within(try number(c.pace, "gpsPace"), 0...TraceLimits.maxSplit * 1000)
        let timestamp = try integer(c.timestamp, "timestamp")
        let utcMs = TraceLimits.utcRange.lowerBound * 1000...TraceLimits.utcRange.upperBound * 1000
        var stroke = Stroke(elapsedMs: elapsed,
                            timestampMs: bounds.within(timestamp.map(Double.init), utcMs) != nil ? timestamp : nil,
                            index: try integer(c.index, "sessionStrokeIndex") ?? 0,
                            latitude: try number(c.latitude, "latitude"), longitude: try number(c.longitude, "longitude"),
                            speed: bounds.speed(try number(c.speed, "gpsInstaSpeed")),
                            distance: bounds.distance(try number(c.distance, "gpsTotalDistance")),
                            paceMsPer500m: pace.flatMap { $0 > 0 ? $0 : nil },
                            rate: bounds.strokeRate(try number(c.rate, "strokeRate")),
                            count: bounds.strokeCount(try integer(c.strokeCount, "strokeCount").map { Int($0) }),
                            perStroke: bounds.distancePerStroke(try number(c.perStroke, "gpsDistStroke")), line: line)
        let bpm = try number(c.heartRate, "heartRate")
        if let bpm, bpm != 0, let plausible = bounds.heartRate(bpm) { stroke.heartRate = Float(plausible) }
        stroke.oarlock = try NKOarlockFigures(row, c.oarlock, &bounds)
        counts.recordDroppedValues(bounds.dropped, line: line)
        return stroke
    }

    /// The session's metadata: the format, its start (the first stroke's timestamp less its
    /// elapsed time), the device's session id and the last stroke's totals.
    private static func metadata(of strokes: [Stroke], sessionId: String?) -> [TraceRecord] {
        var metadata: [TraceRecord] = [.metadata(key: "source_format", value: "NK LiNK Logbook CSV")]
        if let first = strokes.first, let ts = first.timestampMs {
            metadata.append(.metadata(key: "start_utc", value: UTCTime.iso8601(millisecondsSince1970: ts - first.elapsedMs)))
        }
        if let sessionId { metadata.append(.metadata(key: "device_session_id", value: sessionId)) }
        if let last = strokes.last {
            if let c = last.count { metadata.append(.metadata(key: "device_total_strokes", value: String(c))) }
            if let d = last.distance { metadata.append(.metadata(key: "device_total_distance_m", value: d.description)) }
        }
        return metadata
    }

    public mutating func next() throws -> TraceRecord? {
        if metadataIndex < metadata.count {
            metadataIndex += 1
            return metadata[metadataIndex - 1]
        }
        if pendingIndex < pending.count {
            pendingIndex += 1
            return pending[pendingIndex - 1]
        }
        guard strokeIndex < strokes.count else { return nil }
        let s = strokes[strokeIndex]
        strokeIndex += 1
        let time = Double(s.elapsedMs) / 1000
        let power = s.oarlock.power.isNaN ? nil : Double(s.oarlock.power)
        pending.removeAll(keepingCapacity: true)
        pendingIndex = 0
        pending.append(.reference(ReferenceStroke(
            time: time, distance: s.distance, split: s.paceMsPer500m.map { $0 / 1000 }, strokeRate: s.rate,
            speed: s.speed, strokeCount: s.count, distancePerStroke: s.perStroke, power: power)))
        counts.referenceRows += 1
        if !s.heartRate.isNaN {
            pending.append(.heartRate(HeartRateSample(time: time, bpm: Double(s.heartRate))))
            counts.heartRateRows += 1
        }
        if let o = s.oarlock.stroke(at: time) {
            pending.append(.oarlock(o))
            counts.oarlockRows += 1
        }
        if let lat = s.latitude, let lon = s.longitude, (-90...90).contains(lat), (-180...180).contains(lon),
           !(lat == 0 && lon == 0) {
            counts.fixRows += 1
            return .fix(GPSFix(time: time, utc: s.timestampMs.map { Double($0) / 1000 }, latitude: lat, longitude: lon,
                               speed: s.speed))
        }
        counts.recordSkip(.noPosition, line: s.line)
        pendingIndex = 1
        return pending[0]
    }
}
