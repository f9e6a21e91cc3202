import OarlogCore

/// Reads BoatCoach's on-the-water CSV export: a preamble (`To determine when a piece begins…`,
/// `Workout data for: NAME  Club: …  Date: 2017-09-25 17:22`), a header
/// `DateTime,TOTAL Time Since Start BoatCoach,…,Latitude,Longitude` and one row a second.
///
/// Yields metadata first: `source_format`, `device`, `start_utc` (the first row's `DateTime`,
/// which carries a GMT offset: `2017-09-25 17:22:24.1 GMT+02:00`; without an offset
/// `start_local`), and the last usable row's figures: `device_total_distance_m` (`Cumulative
/// Distance(m)`, which agrees with the path of the positions within 1 %),
/// `device_distance_since_start_m` (`TOTAL Distance Since Start BoatCoach(m)`, about 4 % shorter
/// on the water: another figure of the device's, kept as it wrote it), `device_elapsed_s`
/// (`TOTAL Time Since Start`), `device_total_strokes` (`Cumulative Stroke Count`) and
/// `device_intervals` (the highest `Piece Number`). Then in time order (trace time = `DateTime`
/// less the first row's):
/// - a `.fix` at each row with a position (`0,0` = no fix, counted as `noPosition`), with its
///   UTC time; BoatCoach gives no speed of its own at a second (only paces averaged over a piece
///   or ten strokes), so the fix has none;
/// - one `.reference` per new stroke: the cumulative stroke count advances by one on some rows;
///   each new stroke is a reference at that row (spread evenly since the previous row if it rose
///   by more, `StrokeCountSteps`) with the row's cumulative distance, stroke rate and
///   last-10-stroke pace as split;
/// - a `.heartRate` from `Heart Rate` (0 = no reading);
/// - a `.note` "BoatCoach piece n" where `Piece Number` changes to n (0 is the rest between).
///
/// Bounds: a row without a `DateTime` is skipped (`unusableRow`), one more than 7 days after the
/// first (`implausibleValue`) or earlier than the row before (`timeWentBackward`) too; a figure
/// beyond its physical bound is unknown (`droppedValues`); a value that is not a number or a
/// time is an error naming its line and column. Lines are at most 64 KiB; the file is read
/// twice, a row at a time.
public struct BoatCoachReader: RecordSource, TraceStatisticsReporting {
    private var reader: DeviceRowExportReader<BoatCoachRows>
    public var path: String { reader.path }
    public var statistics: TraceReadStatistics { reader.statistics }

    /// Opens the export and reads it once for the start and the device's totals. Throws if there
    /// is no BoatCoach header within the first five lines or a value is not a number.
    public init(path: String) throws {
        reader = try DeviceRowExportReader(path: path)
    }

    public mutating func next() throws -> TraceRecord? { try reader.next() }

    /// BoatCoach's preamble (`Workout data for:`) or its header (`TOTAL Time Since Start BoatCoach`).
    static func recognises(lines: [String]) -> Bool {
        lines.prefix(4).contains { $0.contains("Workout data for:") || $0.contains("TOTAL Time Since Start BoatCoach") }
    }
}

/// BoatCoach's rows, converted (`BoatCoachReader`).
struct BoatCoachRows: DeviceRowConverting {
    static let maxPreambleLines = 4
    static let expectedHeader = "DateTime,TOTAL Time Since Start BoatCoach,… (BoatCoach)"
    static func isHeader(_ row: CSVRow) -> Bool {
        row[0] == "DateTime" && row.fields.contains("TOTAL Time Since Start BoatCoach")
    }

    private struct Columns {
        var dateTime = 0, latitude = 0, longitude = 0
        var totalTime: Int?, totalDistance: Int?, piece: Int?, rate: Int?, strokes: Int?, distance: Int?
        var pace: Int?, paceIsPerKilometre = false, heartRate: Int?
    }
    private let columns: Columns
    private var steps = StrokeCountSteps()
    /// The first row's instant (seconds since 1970, UTC when the file gives an offset).
    private var origin: BoatCoachTime?
    private var lastTime = -Double.infinity
    private var piece = 0
    private var totals = Totals()

    private struct Totals {
        var distance: Double?, sinceStart: Double?, elapsed: Double?, strokes: Int?, pieces = 0
    }

    init(header fields: [String], line: Int, path: String) throws {
        let header = ExportHeader(fields, line: line, path: path)
        var c = Columns()
        c.dateTime = try header.required("DateTime", in: "BoatCoach")
        c.latitude = try header.required("Latitude", in: "BoatCoach")
        c.longitude = try header.required("Longitude", in: "BoatCoach")
        c.totalTime = header.column("TOTAL Time Since Start BoatCoach")
        c.totalDistance = header.column("TOTAL Distance Since Start BoatCoach(m)")
        c.piece = header.column("Piece Number")
        c.rate = header.column("Stroke Rate")
        c.strokes = header.column("Cumulative Stroke Count")
        c.distance = header.column("Cumulative Distance(m)")
        c.pace = header.column("Last 10 Stroke Speed(/500m)")
        if c.pace == nil, let k = header.column("Last 10 Stroke Speed(/km)") { c.pace = k; c.paceIsPerKilometre = true }
        c.heartRate = header.column("Heart Rate")
        columns = c
    }

    mutating func convert(_ row: CSVRow, into records: inout [TraceRecord], counts: inout TraceReadStatistics) throws {
        let c = columns
        func number(_ k: Int?, _ name: String) throws -> Double? {
            guard let k else { return nil }
            return try row.number(k, name, unknownMarker: "--")
        }
        guard let stamp = try BoatCoachTime(row, field: c.dateTime) else {
            counts.recordSkip(.unusableRow, line: row.line)
            return
        }
        let start = origin ?? stamp
        let time = stamp.seconds(since: start)
        if time > TraceLimits.maxSessionSeconds {
            counts.recordSkip(.implausibleValue, line: row.line)
            return
        }
        guard time >= max(lastTime, 0) else {
            counts.recordSkip(.timeWentBackward, line: row.line)
            return
        }
        origin = start
        lastTime = time
        var bounds = PlausibleValues()
        let metres = bounds.distance(try number(c.distance, "Cumulative Distance(m)"))
        let strokes = bounds.strokeCount(try c.strokes.flatMap { try row.count($0, "Cumulative Stroke Count", unknownMarker: "--") })
        let pace = try c.pace.flatMap { try row.clock($0, "Last 10 Stroke Speed", unknownMarker: "--") }
        let rate = try number(c.rate, "Stroke Rate")
        steps.add(time: time, distance: metres, count: strokes, rate: bounds.strokeRate(rate == 0 ? nil : rate),
                  split: bounds.split(pace.map { c.paceIsPerKilometre ? $0 / 2 : $0 }), speed: nil,
                  into: &records, bounds: &bounds)
        // The row's new strokes (up to its time) first, then what happens at its time.
        if let n = try c.piece.flatMap({ try row.count($0, "Piece Number", unknownMarker: "--") }), n != piece,
           n <= TraceLimits.maxStrokeCount {
            piece = n
            if n > 0 { records.append(.note(Note(time: time, text: "BoatCoach piece \(n)"))) }
            totals.pieces = max(totals.pieces, n)
        }
        if let fix = try fix(row, time: time, utc: stamp.hasOffset ? stamp.instant : nil, counts: &counts) {
            records.append(.fix(fix))
        }
        if let bpm = try number(c.heartRate, "Heart Rate"), bpm != 0, let plausible = bounds.heartRate(bpm) {
            records.append(.heartRate(HeartRateSample(time: time, bpm: plausible)))
        }
        counts.recordDroppedValues(bounds.dropped, line: row.line)
        totals.distance = metres ?? totals.distance
        totals.strokes = strokes ?? totals.strokes
        totals.sinceStart = bounds.distance(try number(c.totalDistance, "TOTAL Distance Since Start BoatCoach(m)")) ?? totals.sinceStart
        if let k = c.totalTime, let t = try row.clock(k, "TOTAL Time Since Start BoatCoach", unknownMarker: "--"),
           TraceLimits.plausibleSessionTime(t) {
            totals.elapsed = t
        }
    }

    /// The row's position, unless it is 0,0 or out of range (counted as `noPosition`).
    private func fix(_ row: CSVRow, time: Double, utc: Double?, counts: inout TraceReadStatistics) throws -> GPSFix? {
        let latitude = try row.number(columns.latitude, "Latitude", unknownMarker: "--")
        let longitude = try row.number(columns.longitude, "Longitude", unknownMarker: "--")
        guard let latitude, let longitude, (-90...90).contains(latitude), (-180...180).contains(longitude),
              !(latitude == 0 && longitude == 0) else {
            counts.recordSkip(.noPosition, line: row.line)
            return nil
        }
        var bounds = PlausibleValues()
        return GPSFix(time: time, utc: bounds.utc(utc), latitude: latitude, longitude: longitude)
    }

    func metadata() -> [TraceRecord] {
        var out: [TraceRecord] = [.metadata(key: "source_format", value: "BoatCoach on-the-water CSV"),
                                  .metadata(key: "device", value: "BoatCoach")]
        if let origin {
            if origin.hasOffset, TraceLimits.utcRange.contains(origin.instant) {
                out.append(.metadata(key: "start_utc", value: UTCTime.iso8601(origin.instant)))
            } else if let local = origin.localText {
                out.append(.metadata(key: "start_local", value: local))
            }
        }
        if let d = totals.distance { out.append(.metadata(key: "device_total_distance_m", value: d.description)) }
        if let d = totals.sinceStart { out.append(.metadata(key: "device_distance_since_start_m", value: d.description)) }
        if let t = totals.elapsed { out.append(.metadata(key: "device_elapsed_s", value: t.description)) }
        if let n = totals.strokes { out.append(.metadata(key: "device_total_strokes", value: String(n))) }
        if totals.pieces > 0 { out.append(.metadata(key: "device_intervals", value: String(totals.pieces))) }
        return out
    }
}
