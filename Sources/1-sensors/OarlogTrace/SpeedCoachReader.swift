import OarlogCore

/// Reads an NK SpeedCoach GPS (SpeedCoach 2, GPS Pro) CSV export, every layout and firmware: a
/// header block (session and device information, the session summary, the interval summaries;
/// any of it may be missing) and then one row per stroke, under "Per-Stroke Data:" (LiNK, firmware
/// 2.12 on) or "Session Detail Data:" (2.04–2.11). Columns are found by name in either layout and
/// converted by the units row (`SpeedCoachLayout`): metres, m/s, seconds per 500 m.
///
/// It is a GPS-only session, so it yields the device's own figures, not sensor data:
/// - metadata first: `source_format`, `session_name`, `session_type`, `start_local` (the
///   device's local wall-clock start, `2016-11-05T10:02:00`; the export has no time zone, so no
///   `start_utc` is invented), `device`, `device_model`, `device_serial`, `device_firmware`,
///   and the session summary as `device_total_distance_m`, `device_elapsed_s`,
///   `device_total_strokes`, `device_avg_split_s_per_500m`, `device_avg_speed_mps`,
///   `device_avg_rate_spm`, `device_distance_per_stroke_m`, `device_intervals`, and per interval
///   `device_interval_<n>_distance_m`, `_elapsed_s`, `_strokes`;
/// - per stroke, at its "Elapsed Time", a `.fix` (GPS Lat./Lon., with the GPS speed; glitches
///   dropped by `SpeedCoachTrackCheck` and counted as `implausibleValue`), a `.reference`
///   (distance, split, rate, speed, stroke count, distance per stroke from the device's speed
///   input — the "(IMP)" columns with "Speed Input: Impeller", else the GPS ones — and the
///   EmPower oarlock's power), a `.heartRate` (none for `---` or 0) and an `.oarlock` (the
///   EmPower columns, `SpeedCoachOarlockColumns`; none when all are `---`). With an impeller,
///   `device_gps_distance_m` is the GPS total too.
///
/// In an interval session the device restarts elapsed time, distance and stroke count at each
/// interval and does not record the rest between them. The reader splices the intervals back
/// to back: each interval's offset is the previous intervals' summary totals (or, without a
/// summary, their last stroke), so time, distance and stroke count run on; a `.note`
/// ("SpeedCoach interval n") marks each interval's start, and a `.gap` that breaks the GPS track
/// there (the rest between is not recorded) carries what the device counted across: the end of
/// the interval before after its last row, and the new one's first stroke from rest. `---` is unknown: a stroke without a
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
    var counts = TraceReadStatistics()
    private var finished = false

    struct IntervalTotals { var elapsed: Double?; var distance: Double?; var strokes: Int? }
    var intervalTotals: [Int: IntervalTotals] = [:]
    var intervalCount = 1
    /// The device's speed input: "(IMP)" figures with an impeller, else GPS.
    var source = SpeedCoachLayout.Source.gps
    private var hasSessionSummary = false

    /// A column of the per-stroke table and the factor to its unit.
    typealias Column = (index: Int, factor: Double)
    /// Column indices of the per-stroke table.
    struct StrokeColumns {
        var interval: Int?, elapsed = 0
        var distance: Column?, split: Column?, speed: Column?, perStroke: Column?
        var gpsDistance: Column?, gpsSpeed: Column?
        var rate: Int?, strokes: Int?, heartRate: Int?, power: Int?
        var latitude: Int?, longitude: Int?
        var oarlock = SpeedCoachOarlockColumns()
    }
    private var columns = StrokeColumns()
    private var track = SpeedCoachTrackCheck()

    private var currentInterval: Int?
    private var timeOffset = 0.0, distanceOffset = 0.0, gpsDistanceOffset = 0.0, strokeOffset = 0
    private var lastInInterval = IntervalTotals(elapsed: nil, distance: nil, strokes: nil)
    private var lastGPSDistanceInInterval: Double?
    private var lastTime = -Double.infinity
    /// The spliced distance of the last stroke row, for what the device counted across a splice.
    private var lastSplicedDistance: Double?

    public var path: String { input.path }
    public var statistics: TraceReadStatistics {
        var s = counts
        s.linesRead = input.lineNumber - 1
        return s
    }

    /// Opens the export and reads its header block (a few dozen lines). Throws if the file is
    /// not a SpeedCoach export, uses units this reader does not know, or has no per-stroke table.
    public init(path: String) throws {
        input = try ChunkedLineBuffer(path: path)
        row = CSVRow(file: path)
        var metadata: [TraceRecord] = [.metadata(key: "source_format", value: "NK SpeedCoach LiNK CSV")]
        guard try nextRow() else { throw Self.notSpeedCoach(path, found: "end of file") }
        var found: StrokeColumns?
        if row[0] == "Interval" || row[0] == "Total Intervals" {
            // No "Session Information:" block: the file starts with a summary table's header.
            try summaryTable(header: row.fields, into: &metadata)
        } else if Self.isStrokeSection(row[0]) {
            found = try strokeHeader()
        } else if row[0] != "Session Information:" {
            throw Self.notSpeedCoach(path, found: row[0].debugDescription)
        }
        sections: while found == nil, try nextRow() {
            switch row[0] {
            case "Session Summary:", "Interval Summaries:", "Summary for Session Intervals:":
                try summaryTable(header: nil, into: &metadata)
            case let title where Self.isStrokeSection(title):
                found = try strokeHeader()
                break sections
            default:
                try sessionInformation(into: &metadata)
            }
        }
        guard let found else {
            throw TraceError(.malformed, file: path, line: input.lineNumber,
                             "expected a \"Per-Stroke Data:\" or \"Session Detail Data:\" section, found end of file")
        }
        if !hasSessionSummary { metadata += totalsOfIntervals() }
        columns = found
        pending = metadata
        counts.metadataRecords = metadata.count
    }

    static func isStrokeSection(_ title: String) -> Bool {
        title == "Per-Stroke Data:" || title == "Session Detail Data:"
    }

    private static func notSpeedCoach(_ path: String, found: String) -> TraceError {
        TraceError(.malformed, file: path, line: 1, column: 1,
                   "expected \"Session Information:\" (an NK SpeedCoach LiNK export) or a SpeedCoach summary or per-stroke table, found \(found)")
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
            if finished { return nil }
            guard try nextRow() else {
                finished = true
                var dropped: [Int] = []
                track.finish(into: &pending, dropped: &dropped)
                countDropped(dropped)
                continue
            }
            if row.isBlank { counts.blankLines += 1; continue }
            try stroke()
        }
    }

    // MARK: Header block

    /// Reads the next line into `row`; false at end of file.
    mutating func nextRow() throws -> Bool {
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
            case (0, "Speed Input:"):
                metadata.append(.metadata(key: "device_speed_input", value: value))
                source = value.lowercased().hasPrefix("imp") ? .impeller : .gps
                // The crew measures by its impeller (through the water): that distance is the
                // session's, the GPS positions draw the track.
                if source == .impeller { metadata.append(.metadata(key: "distance_source", value: "device")) }
            case (0, "Start Time:"):
                guard let local = Self.localStart(value) else {
                    throw row.error(field: k - 1, "expected a start time like 11/05/16 10:02 or 01/03/2021 12:56 p.m., found \(value.debugDescription)")
                }
                metadata.append(.metadata(key: "start_local", value: local))
            case (0, "System of Units:"): metadata.append(.metadata(key: "device_units", value: value))
            case (1, "Name:"): metadata.append(.metadata(key: "device", value: value))
            case (1, "Model:"): metadata.append(.metadata(key: "device_model", value: value))
            case (1, "Serial:"): metadata.append(.metadata(key: "device_serial", value: value))
            case (1, "Firmware Version:"): metadata.append(.metadata(key: "device_firmware", value: value))
            default: break
            }
        }
    }

    /// After a section title: blank lines, a header row (or `header`, already read), a units row
    /// `(...)`, and data rows up to a blank row.
    mutating func table(header known: [String]?) throws -> (table: SpeedCoachLayout.Table, rows: [(line: Int, values: [String])]) {
        var header: [String]
        if let known { header = known } else {
            repeat {
                guard try nextRow() else { throw missing("a table header") }
            } while row.isBlank
            header = row.fields
        }
        guard try nextRow(), row[0].hasPrefix("(") else { throw missing("a units row like (Interval),(Meters)") }
        let units = row.fields
        var rows: [(line: Int, values: [String])] = []
        while try nextRow(), !row.isBlank {
            guard rows.count < Self.maxTableRows else {
                throw TraceError(.tooLarge, file: input.path, line: row.line,
                                 "a summary table has more than \(Self.maxTableRows) rows")
            }
            rows.append((row.line, row.fields))
        }
        return (SpeedCoachLayout.Table(header: header, units: units), rows)
    }

    func missing(_ what: String) -> TraceError {
        TraceError(.malformed, file: input.path, line: row.line, column: 1, "expected \(what), found \(row[0].debugDescription)")
    }

    /// A column's unit is not one this reader converts.
    func unknownUnit(_ column: Int, _ what: String) -> TraceError {
        TraceError(.malformed, file: input.path, line: row.line, column: column + 1,
                   "expected units metres, kilometres or miles (and per 500 m, 1000 m or mile; m/s, km/h or mph), found \(what)")
    }

    /// A session summary (`Total Intervals` column) or an interval summary table (`Interval`).
    private mutating func summaryTable(header: [String]?, into metadata: inout [TraceRecord]) throws {
        let (table, rows) = try table(header: header)
        if table.header.first == "Total Intervals" {
            if let first = rows.first {
                hasSessionSummary = true
                metadata += try summaryMetadata(table, values: first.values, line: first.line)
            }
        } else {
            try readIntervalSummaries(table, rows: rows, into: &metadata)
        }
    }

    /// The per-stroke header and its units row.
    private mutating func strokeHeader() throws -> StrokeColumns {
        repeat {
            guard try nextRow() else { throw missing("the per-stroke header") }
        } while row.isBlank
        let header = row.fields
        guard try nextRow(), row[0].hasPrefix("(") else { throw missing("the per-stroke units row") }
        let table = SpeedCoachLayout.Table(header: header, units: row.fields)
        guard let elapsed = table.index(["Elapsed Time"]) else {
            throw TraceError(.malformed, file: input.path, line: row.line - 1, column: 1,
                             "expected an \"Elapsed Time\" column in the per-stroke header")
        }
        let other: SpeedCoachLayout.Source = source == .gps ? .impeller : .gps
        func pick(_ figure: String, _ convert: (String) -> Double?) throws -> Column? {
            // The speed input's figure; the other's if the export has only that.
            try table.column(SpeedCoachLayout.names(figure, source), convert, unknown: unknownUnit)
                ?? table.column(SpeedCoachLayout.names(figure, other), convert, unknown: unknownUnit)
        }
        let metres: (String) -> Double? = { SpeedCoachLayout.metres(per: $0) }
        let speed: (String) -> Double? = { SpeedCoachLayout.metresPerSecond(per: $0) }
        return StrokeColumns(
            interval: table.index(["Interval"]), elapsed: elapsed,
            distance: try pick("Distance", metres), split: try pick("Split") { SpeedCoachLayout.splitTo500m(per: $0) },
            speed: try pick("Speed", speed), perStroke: try pick("Distance/Stroke", metres),
            gpsDistance: try table.column(SpeedCoachLayout.names("Distance", .gps), metres, unknown: unknownUnit),
            gpsSpeed: try table.column(SpeedCoachLayout.names("Speed", .gps), speed, unknown: unknownUnit),
            rate: table.index(["Stroke Rate"]), strokes: table.index(["Total Strokes", "Stroke Count"]),
            heartRate: table.index(["Heart Rate", "HR"]), power: table.index(["Power"]),
            latitude: table.index(["GPS Lat."]), longitude: table.index(["GPS Lon."]),
            oarlock: SpeedCoachOarlockColumns(table))
    }

    // MARK: Strokes

    /// One per-stroke row's figures, converted, as the device wrote them (its interval's own
    /// time line).
    struct StrokeRow {
        var interval: Int?
        var elapsed: Double?
        var distance: Double?, split: Double?, speed: Double?, rate: Double?
        var strokes: Int?, perStroke: Double?
        var gpsDistance: Double?, gpsSpeed: Double?
        var heartRate: Double?, power: Double?
        var latitude: Double?, longitude: Double?
        var oarlock: OarlockStroke?
    }

    private mutating func stroke() throws {
        var bounds = PlausibleValues()
        let s = try strokeRow(&bounds)
        guard let elapsed = s.elapsed else {
            counts.recordSkip(.unusableRow, line: row.line)
            return
        }
        var records: [TraceRecord] = []
        let splices = currentInterval != nil && s.interval.map { $0 != currentInterval } == true
        if let n = s.interval, n != currentInterval {
            beginInterval(n, into: &records)
        } else if currentInterval == nil {
            beginInterval(1, into: &records)
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
        let splicedDistance = s.distance.map { $0 + distanceOffset }
        if splices {
            let across = splicedDistance.flatMap { d in lastSplicedDistance.map { d - $0 } }.flatMap { $0 >= 0 ? $0 : nil }
            records.append(.gap(Gap(sensor: .gps, start: lastTime.isFinite ? lastTime : timeOffset, end: time, reason: "SpeedCoach interval splice",
                                    breaksTrack: true, deviceDistance: across)))
        }
        if let d = splicedDistance { lastSplicedDistance = d }
        lastTime = time
        lastInInterval = IntervalTotals(elapsed: elapsed, distance: s.distance ?? lastInInterval.distance,
                                        strokes: s.strokes ?? lastInInterval.strokes)
        if let g = s.gpsDistance { lastGPSDistanceInInterval = g }
        var point: SpeedCoachTrackCheck.Point?
        if let latitude = s.latitude, let longitude = s.longitude, (-90...90).contains(latitude),
           (-180...180).contains(longitude), !(latitude == 0 && longitude == 0), let iLat = columns.latitude, let iLon = columns.longitude {
            records.append(.fix(GPSFix(time: time, latitude: latitude, longitude: longitude, speed: s.gpsSpeed ?? s.speed)))
            counts.fixRows += 1
            point = .init(time: time, latitude: latitude, longitude: longitude,
                          deviceDistance: s.gpsDistance.map { $0 + gpsDistanceOffset },
                          rounding: SpeedCoachTrackCheck.rounding(latitude: row[iLat], longitude: row[iLon], at: latitude))
        } else {
            counts.recordSkip(.noPosition, line: row.line)
        }
        var spliced = PlausibleValues()   // offsets of many intervals may add up beyond a bound
        records.append(.reference(ReferenceStroke(time: time, distance: spliced.distance(s.distance.map { $0 + distanceOffset }),
                                                  split: s.split, strokeRate: s.rate, speed: s.speed,
                                                  strokeCount: spliced.strokeCount(s.strokes.map { $0 + strokeOffset }),
                                                  distancePerStroke: s.perStroke, power: s.power)))
        counts.recordDroppedValues(spliced.dropped, line: row.line)
        counts.referenceRows += 1
        if let bpm = s.heartRate {
            records.append(.heartRate(HeartRateSample(time: time, bpm: bpm)))
            counts.heartRateRows += 1
        }
        if var o = s.oarlock {
            o.time = time
            records.append(.oarlock(o))
            counts.oarlockRows += 1
        }
        var dropped: [Int] = []
        track.add(records, point: point, line: row.line, into: &pending, dropped: &dropped)
        countDropped(dropped)
    }

    /// Fixes the track check dropped as glitches: skipped as implausible.
    private mutating func countDropped(_ lines: [Int]) {
        for line in lines {
            counts.fixRows -= 1
            counts.recordSkip(.implausibleValue, line: line)
        }
    }

    /// The figures of the per-stroke row in `row`, converted; a figure beyond its bound is
    /// unknown (counted in `bounds`).
    private func strokeRow(_ bounds: inout PlausibleValues) throws -> StrokeRow {
        let c = columns
        func number(_ k: Int?, _ name: String) throws -> Double? {
            guard let k else { return nil }
            return try row.number(k, name)
        }
        func scaled(_ column: Column?, _ name: String) throws -> Double? {
            guard let column, let v = try number(column.index, name) else { return nil }
            return v * column.factor
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
            guard let k, let v = try number(k, name) else { return nil }
            guard v >= 0, v == v.rounded(), v < 1e12 else {
                throw row.error(field: k, "expected a whole number for \(name), found \(row[k].debugDescription)")
            }
            return Int(v)
        }
        let heartRate = try number(c.heartRate, "Heart Rate")
        let power = bounds.power(try number(c.power, "Power"))
        let distance = bounds.distance(try scaled(c.distance, "Distance"))
        let speed = bounds.speed(try scaled(c.speed, "Speed"))
        // The GPS figures are often the columns already read (GPS input): one cell, one reading.
        let gpsDistance = c.gpsDistance?.index == c.distance?.index ? distance
            : bounds.distance(try scaled(c.gpsDistance, "Distance (GPS)"))
        let gpsSpeed = c.gpsSpeed?.index == c.speed?.index ? speed
            : bounds.speed(try scaled(c.gpsSpeed, "Speed (GPS)"))
        return StrokeRow(interval: try whole(c.interval, "Interval"),
                         elapsed: try clock(c.elapsed, "Elapsed Time"),
                         distance: distance,
                         split: bounds.split(try clock(c.split?.index, "Split").map { $0 * (c.split?.factor ?? 1) }),
                         speed: speed,
                         rate: bounds.strokeRate(try number(c.rate, "Stroke Rate")),
                         strokes: bounds.strokeCount(try whole(c.strokes, "Total Strokes")),
                         perStroke: bounds.distancePerStroke(try scaled(c.perStroke, "Distance/Stroke")),
                         gpsDistance: gpsDistance,
                         gpsSpeed: gpsSpeed,
                         heartRate: heartRate == 0 ? nil : bounds.heartRate(heartRate),
                         power: power,
                         latitude: try number(c.latitude, "GPS Lat."),
                         longitude: try number(c.longitude, "GPS Lon."),
                         oarlock: try c.oarlock.stroke(row, power: power, &bounds))
    }

    /// A new interval begins: the offsets move on by the previous interval's totals (its
    /// summary's, else its last stroke's), and a note marks the start in a session of several.
    private mutating func beginInterval(_ interval: Int, into records: inout [TraceRecord]) {
        if let previous = currentInterval {
            let totals = intervalTotals[previous]
            timeOffset += totals?.elapsed ?? lastInInterval.elapsed ?? 0
            distanceOffset += totals?.distance ?? lastInInterval.distance ?? 0
            gpsDistanceOffset += lastGPSDistanceInInterval ?? 0
            strokeOffset += totals?.strokes ?? lastInInterval.strokes ?? 0
        }
        currentInterval = interval
        lastInInterval = IntervalTotals(elapsed: nil, distance: nil, strokes: nil)
        lastGPSDistanceInInterval = nil
        if intervalCount > 1 {
            records.append(.note(Note(time: max(timeOffset, lastTime), text: "SpeedCoach interval \(interval)")))
            counts.noteRows += 1
        }
    }
}
