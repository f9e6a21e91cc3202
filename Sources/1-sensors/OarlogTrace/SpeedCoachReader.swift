import OarlogCore

/// Reads an NK SpeedCoach GPS Pro "LiNK" CSV export: a header block (session and device
/// information, the session summary, the interval summaries) and then one row per stroke.
///
/// It is a GPS-only session, so it yields the device's own figures, not sensor data:
/// - metadata first: `source_format`, `session_name`, `session_type`, `start_local` (the
///   device's local wall-clock start, `2016-11-05T10:02:00`; the export has no time zone, so no
///   `start_utc` is invented), `device`, `device_model`, `device_serial`, `device_firmware`,
///   and the session summary as `device_total_distance_m`, `device_elapsed_s`,
///   `device_total_strokes`, `device_avg_split_s_per_500m`, `device_avg_speed_mps`,
///   `device_avg_rate_spm`, `device_distance_per_stroke_m`, `device_intervals`, and per interval
///   `device_interval_<n>_distance_m`, `_elapsed_s`, `_strokes`;
/// - per stroke, at its "Elapsed Time", a `.fix` (GPS Lat./Lon., only 4 decimals ≈ 10 m, with
///   the GPS speed) and a `.reference` (distance, split, rate, speed, stroke count, distance per
///   stroke, all GPS-based).
///
/// In an interval session the device restarts elapsed time, distance and stroke count at each
/// interval and does not record the rest between them. The reader splices the intervals back
/// to back: each interval's offset is the previous intervals' summary totals (or, without a
/// summary, their last stroke), so time, distance and stroke count run on; a `.note`
/// ("SpeedCoach interval n") marks each interval's start. `---` is unknown: a stroke without a
/// position gives no fix (skip reason `noPosition`), a stroke without an elapsed time is skipped
/// (`unusableRow`; the device writes one such row at the end of each interval).
///
/// Physical bounds (`TraceLimits`): a stroke more than 7 days into the session is skipped
/// (`implausibleValue`); a figure beyond its bound (a speed over 30 m/s, a distance over
/// 1,000 km, …) is unknown and counted (`droppedValues`), in the strokes, the summaries (which
/// then give no metadata key and no interval offset) alike. Lines are at most 64 KiB; a summary
/// table has at most `maxTableRows` rows.
public struct SpeedCoachReader: RecordSource, TraceStatisticsReporting {
    /// Most rows in a header-block table (the session and interval summaries): 10,000.
    public static let maxTableRows = 10_000

    private var input: ChunkedLineBuffer
    private var row: CSVRow
    private var pending: [TraceRecord] = []
    private var pendingIndex = 0
    private var counts = TraceReadStatistics()

    private struct IntervalTotals { var elapsed: Double?; var distance: Double?; var strokes: Int? }
    private var intervalTotals: [Int: IntervalTotals] = [:]
    private var intervalCount = 1

    /// Column indices of the per-stroke table.
    private struct StrokeColumns {
        var interval: Int?, distance: Int?, elapsed = 0, split: Int?, speed: Int?, rate: Int?
        var strokes: Int?, perStroke: Int?, latitude: Int?, longitude: Int?
    }
    private var columns = StrokeColumns()

    private var currentInterval: Int?
    private var timeOffset = 0.0, distanceOffset = 0.0, strokeOffset = 0
    private var lastInInterval = IntervalTotals(elapsed: nil, distance: nil, strokes: nil)
    private var lastTime = -Double.infinity

    public var path: String { input.path }
    public var statistics: TraceReadStatistics {
        var s = counts
        s.linesRead = input.lineNumber - 1
        return s
    }

    /// Opens the export and reads its header block (a few dozen lines). Throws if the file is
    /// not a SpeedCoach export, uses other units than metres and split per 500 m, or has no
    /// per-stroke table.
    public init(path: String) throws {
        input = try ChunkedLineBuffer(path: path)
        row = CSVRow(file: path)
        var metadata: [TraceRecord] = [.metadata(key: "source_format", value: "NK SpeedCoach LiNK CSV")]
        guard try nextRow(), row[0] == "Session Information:" else {
            throw TraceError(.malformed, file: path, line: 1, column: 1,
                             "expected \"Session Information:\" (an NK SpeedCoach LiNK export), found \(row[0].debugDescription)")
        }
        var found: StrokeColumns?
        sections: while try nextRow() {
            switch row[0] {
            case "Session Summary:":
                let (header, rows) = try table()
                if let first = rows.first { metadata += summaryMetadata(header: header, values: first.values, line: first.line) }
            case "Interval Summaries:":
                let (header, rows) = try table()
                try readIntervalSummaries(header: header, rows: rows, into: &metadata)
            case "Per-Stroke Data:":
                found = try strokeHeader()
                break sections
            default:
                try sessionInformation(into: &metadata)
            }
        }
        guard let found else {
            throw TraceError(.malformed, file: path, line: input.lineNumber,
                             "expected a \"Per-Stroke Data:\" section, found end of file")
        }
        columns = found
        pending = metadata
        counts.metadataRecords = metadata.count
    }

    public mutating func next() throws -> TraceRecord? {
        while true {
            if pendingIndex < pending.count {
                let r = pending[pendingIndex]
                pendingIndex += 1
                return r
            }
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            guard try nextRow() else { return nil }
            if row.isBlank { counts.blankLines += 1; continue }
            try stroke()
        }
    }

    // MARK: Header block

    /// Reads the next line into `row`; false at end of file.
    private mutating func nextRow() throws -> Bool {
        let line = input.lineNumber
        guard let bytes = try input.nextLine() else { return false }
        try row.parse(bytes, line: line)
        return true
    }

    /// A `Session Information:` line: key/value pairs in groups of four columns
    /// (session, device, oarlock information, oarlock settings).
    private mutating func sessionInformation(into metadata: inout [TraceRecord]) throws {
        var k = 0
        while k + 1 < row.count {
            let key = row[k], value = row[k + 1]
            let group = k / 4
            k += key.hasSuffix(":") ? 2 : 1
            guard key.hasSuffix(":"), !value.isEmpty else { continue }
            switch (group, key) {
            case (0, "Name:"): metadata.append(.metadata(key: "session_name", value: value))
            case (0, "Type:"): metadata.append(.metadata(key: "session_type", value: value))
            case (0, "Speed Input:"): metadata.append(.metadata(key: "device_speed_input", value: value))
            case (0, "Start Time:"):
                guard let local = Self.localStart(value) else {
                    throw row.error(field: k - 1, "expected a start time like 11/05/16 10:02, found \(value.debugDescription)")
                }
                metadata.append(.metadata(key: "start_local", value: local))
            case (0, "System of Units:"):
                guard value == "Meters/Split500" else {
                    throw row.error(field: k - 1, "expected units Meters/Split500 (the only ones this reader converts), found \(value.debugDescription)")
                }
            case (1, "Name:"): metadata.append(.metadata(key: "device", value: value))
            case (1, "Model:"): metadata.append(.metadata(key: "device_model", value: value))
            case (1, "Serial:"): metadata.append(.metadata(key: "device_serial", value: value))
            case (1, "Firmware Version:"): metadata.append(.metadata(key: "device_firmware", value: value))
            default: break
            }
        }
    }

    /// After a section title: blank lines, a header row, a units row `(...)`, and data rows up
    /// to a blank row.
    private mutating func table() throws -> (header: [String], rows: [(line: Int, values: [String])]) {
        repeat {
            guard try nextRow() else { throw missing("a table header") }
        } while row.isBlank
        let header = row.fields
        guard try nextRow(), row[0].hasPrefix("(") else { throw missing("a units row like (Interval),(Meters)") }
        var rows: [(line: Int, values: [String])] = []
        while try nextRow(), !row.isBlank {
            guard rows.count < Self.maxTableRows else {
                throw TraceError(.tooLarge, file: input.path, line: row.line,
                                 "a summary table has more than \(Self.maxTableRows) rows")
            }
            rows.append((row.line, row.fields))
        }
        return (header, rows)
    }

    private func missing(_ what: String) -> TraceError {
        TraceError(.malformed, file: input.path, line: row.line, column: 1, "expected \(what), found \(row[0].debugDescription)")
    }

    private mutating func summaryMetadata(header: [String], values: [String], line: Int) -> [TraceRecord] {
        var bounds = PlausibleValues()
        func value(_ name: String, clock: Bool, _ range: ClosedRange<Double>) -> String? {
            guard let k = header.firstIndex(of: name), k < values.count else { return nil }
            let s = values[k]
            guard let v = clock ? CivilTime.seconds(clock: s) : Double(s), v.isFinite else { return nil }
            return bounds.within(v, range)?.description
        }
        var out: [TraceRecord] = []
        let count = 0...Double(TraceLimits.maxStrokeCount)
        let keys: [(String, String, Bool, ClosedRange<Double>)] = [
            ("Total Intervals", "device_intervals", false, 0...Double(Self.maxTableRows)),
            ("Total Distance (GPS)", "device_total_distance_m", false, 0...TraceLimits.maxDistance),
            ("Total Elapsed Time", "device_elapsed_s", true, 0...TraceLimits.maxSessionSeconds),
            ("Total Strokes", "device_total_strokes", false, count),
            ("Avg Split (GPS)", "device_avg_split_s_per_500m", true, 0...TraceLimits.maxSplit),
            ("Avg Speed (GPS)", "device_avg_speed_mps", false, 0...TraceLimits.maxSpeed),
            ("Avg Stroke Rate", "device_avg_rate_spm", false, 0...TraceLimits.maxStrokeRate),
            ("Distance/Stroke (GPS)", "device_distance_per_stroke_m", false, 0...TraceLimits.maxDistancePerStroke),
        ]
        defer { counts.recordDroppedValues(bounds.dropped, line: line) }
        for (name, key, clock, range) in keys {
            if var v = value(name, clock: clock, range) {
                if key == "device_intervals" || key == "device_total_strokes", let d = Double(v), d == d.rounded() {
                    v = String(Int(d))
                }
                out.append(.metadata(key: key, value: v))
            }
        }
        return out
    }

    private mutating func readIntervalSummaries(header: [String], rows: [(line: Int, values: [String])],
                                                into metadata: inout [TraceRecord]) throws {
        let iInterval = header.firstIndex(of: "Interval")
        let iDistance = header.firstIndex(of: "Total Distance (GPS)")
        let iElapsed = header.firstIndex(of: "Total Elapsed Time")
        let iStrokes = header.firstIndex(of: "Total Strokes")
        for (line, values) in rows {
            func field(_ k: Int?) -> String? {
                k.flatMap { $0 < values.count ? values[$0] : nil }
            }
            guard let n = field(iInterval).flatMap({ Int($0) }) else { continue }
            // Totals beyond a session's bounds are unknown: no offset is taken from them.
            var bounds = PlausibleValues()
            let totals = IntervalTotals(elapsed: bounds.within(field(iElapsed).flatMap(CivilTime.seconds(clock:)),
                                                               0...TraceLimits.maxSessionSeconds),
                                        distance: bounds.distance(field(iDistance).flatMap { Double($0) }),
                                        strokes: bounds.strokeCount(field(iStrokes).flatMap { Int($0) }))
            counts.recordDroppedValues(bounds.dropped, line: line)
            intervalTotals[n] = totals
            if let v = totals.distance { metadata.append(.metadata(key: "device_interval_\(n)_distance_m", value: v.description)) }
            if let v = totals.elapsed { metadata.append(.metadata(key: "device_interval_\(n)_elapsed_s", value: v.description)) }
            if let v = totals.strokes { metadata.append(.metadata(key: "device_interval_\(n)_strokes", value: String(v))) }
        }
        intervalCount = max(intervalCount, intervalTotals.count)
    }

    /// The per-stroke header and its units row.
    private mutating func strokeHeader() throws -> StrokeColumns {
        repeat {
            guard try nextRow() else { throw missing("the per-stroke header") }
        } while row.isBlank
        let header = row.fields
        func column(_ name: String) -> Int? { header.firstIndex(of: name) }
        guard let elapsed = column("Elapsed Time") else {
            throw TraceError(.malformed, file: input.path, line: row.line, column: 1,
                             "expected an \"Elapsed Time\" column in the per-stroke header")
        }
        let found = StrokeColumns(interval: column("Interval"), distance: column("Distance (GPS)"), elapsed: elapsed,
                                  split: column("Split (GPS)"), speed: column("Speed (GPS)"), rate: column("Stroke Rate"),
                                  strokes: column("Total Strokes"), perStroke: column("Distance/Stroke (GPS)"),
                                  latitude: column("GPS Lat."), longitude: column("GPS Lon."))
        guard try nextRow(), row[0].hasPrefix("(") else { throw missing("the per-stroke units row") }
        return found
    }

    // MARK: Strokes

    /// One per-stroke row's figures, as the device wrote them (its interval's own time line).
    private struct StrokeRow {
        var interval: Int
        var elapsed: Double?
        var distance: Double?, split: Double?, speed: Double?, rate: Double?
        var strokes: Int?, perStroke: Double?
        var latitude: Double?, longitude: Double?
    }

    private mutating func stroke() throws {
        var bounds = PlausibleValues()
        let s = try strokeRow(&bounds)
        if s.interval != currentInterval { beginInterval(s.interval) }
        guard let elapsed = s.elapsed else {
            counts.recordSkip(.unusableRow, line: row.line)
            return
        }
        let time = timeOffset + elapsed
        if time > TraceLimits.maxSessionSeconds {
            counts.recordSkip(.implausibleValue, line: row.line)
            return
        }
        if time < lastTime {
            counts.recordSkip(.timeWentBackward, line: row.line)
            return
        }
        counts.recordDroppedValues(bounds.dropped, line: row.line)
        lastTime = time
        lastInInterval = IntervalTotals(elapsed: elapsed, distance: s.distance ?? lastInInterval.distance,
                                        strokes: s.strokes ?? lastInInterval.strokes)
        if let latitude = s.latitude, let longitude = s.longitude, (-90...90).contains(latitude),
           (-180...180).contains(longitude), !(latitude == 0 && longitude == 0) {
            pending.append(.fix(GPSFix(time: time, latitude: latitude, longitude: longitude, speed: s.speed)))
            counts.fixRows += 1
        } else {
            counts.recordSkip(.noPosition, line: row.line)
        }
        var spliced = PlausibleValues()   // offsets of many intervals may add up beyond a bound
        pending.append(.reference(ReferenceStroke(time: time, distance: spliced.distance(s.distance.map { $0 + distanceOffset }),
                                                  split: s.split, strokeRate: s.rate, speed: s.speed,
                                                  strokeCount: spliced.strokeCount(s.strokes.map { $0 + strokeOffset }),
                                                  distancePerStroke: s.perStroke)))
        counts.recordDroppedValues(spliced.dropped, line: row.line)
        counts.referenceRows += 1
    }

    /// The figures of the per-stroke row in `row`; a figure beyond its bound is unknown (counted
    /// in `bounds`).
    private func strokeRow(_ bounds: inout PlausibleValues) throws -> StrokeRow {
        let c = columns
        func number(_ k: Int?, _ name: String) throws -> Double? {
            guard let k else { return nil }
            return try row.number(k, name)
        }
        func clock(_ k: Int?, _ name: String) throws -> Double? {
            guard let k else { return nil }
            let s = row[k]
            if s.isEmpty || s == "---" { return nil }
            guard let v = CivilTime.seconds(clock: s) else {
                throw row.error(field: k, "expected a time like 00:02:37.2 for \(name), found \(s.debugDescription)")
            }
            return v
        }
        func whole(_ k: Int?, _ name: String) throws -> Int? {
            guard let v = try number(k, name) else { return nil }
            guard v >= 0, v == v.rounded(), v < 1e12 else {
                throw row.error(field: k!, "expected a whole number for \(name), found \(row[k!].debugDescription)")
            }
            return Int(v)
        }
        return StrokeRow(interval: try whole(c.interval, "Interval") ?? 1,
                         elapsed: try clock(c.elapsed, "Elapsed Time"),
                         distance: bounds.distance(try number(c.distance, "Distance (GPS)")),
                         split: bounds.split(try clock(c.split, "Split (GPS)")),
                         speed: bounds.speed(try number(c.speed, "Speed (GPS)")),
                         rate: bounds.strokeRate(try number(c.rate, "Stroke Rate")),
                         strokes: bounds.strokeCount(try whole(c.strokes, "Total Strokes")),
                         perStroke: bounds.distancePerStroke(try number(c.perStroke, "Distance/Stroke (GPS)")),
                         latitude: try number(c.latitude, "GPS Lat."),
                         longitude: try number(c.longitude, "GPS Lon."))
    }

    /// A new interval begins: the offsets move on by the previous interval's totals (its
    /// summary's, else its last stroke's), and a note marks the start in a session of several.
    private mutating func beginInterval(_ interval: Int) {
        if let previous = currentInterval {
            let totals = intervalTotals[previous]
            timeOffset += totals?.elapsed ?? lastInInterval.elapsed ?? 0
            distanceOffset += totals?.distance ?? lastInInterval.distance ?? 0
            strokeOffset += totals?.strokes ?? lastInInterval.strokes ?? 0
        }
        currentInterval = interval
        lastInInterval = IntervalTotals(elapsed: nil, distance: nil, strokes: nil)
        if intervalCount > 1 {
            pending.append(.note(Note(time: max(timeOffset, lastTime), text: "SpeedCoach interval \(interval)")))
            counts.noteRows += 1
        }
    }

    /// `11/05/16 10:02` or `11/14/16 07:38am` (month/day/two-digit year, local time) →
    /// `2016-11-05T10:02:00`.
    static func localStart(_ s: String) -> String? {
        let parts = s.split(separator: " ")
        guard parts.count == 2 else { return nil }
        let date = parts[0].split(separator: "/")
        guard date.count == 3, let month = Int(date[0]), let day = Int(date[1]), var year = Int(date[2]),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        if year < 100 { year += 2000 }
        var clock = parts[1].lowercased()
        var pm: Bool? = nil
        if clock.hasSuffix("am") { pm = false; clock.removeLast(2) } else if clock.hasSuffix("pm") { pm = true; clock.removeLast(2) }
        let hm = clock.split(separator: ":")
        guard hm.count == 2 || hm.count == 3, var hour = Int(hm[0]), let minute = Int(hm[1]),
              (0...59).contains(minute) else { return nil }
        let second = hm.count == 3 ? Int(hm[2]) ?? -1 : 0
        guard (0...59).contains(second) else { return nil }
        if let pm {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (pm ? 12 : 0)
        }
        guard (0...23).contains(hour) else { return nil }
        func p(_ n: Int, _ width: Int) -> String { DecimalText.zeroPadded(n, width: width) }
        return "\(p(year, 4))-\(p(month, 2))-\(p(day, 2))T\(p(hour, 2)):\(p(minute, 2)):\(p(second, 2))"
    }
}

extension SpeedCoachReader {
    /// A SpeedCoach export without its "Session Information:" block: it starts with a summary
    /// table's header (`Interval,Total Distance (GPS),...`) or the per-stroke section.
    static func recognises(lines: [String]) -> Bool {
        guard let first = lines.first else { return false }
        return first.hasPrefix("Interval,Total Distance") || first.hasPrefix("Per-Stroke Data:")
            || first.hasPrefix("Session Detail Data:")
    }
}
