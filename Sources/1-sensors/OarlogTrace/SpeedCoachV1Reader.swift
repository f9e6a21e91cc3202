import OarlogCore

/// Reads the first NK SpeedCoach's CSV export: a header
/// `Interval,Type,Distance(m),Time,Stroke,Rate,Speed(m/s),Split,Time(sec),Split(sec),HR` and one
/// row every 20 m (the device's impeller distance), with no positions and no date.
///
/// Yields metadata first (`source_format`, `device`, and the last usable row's figures as
/// `device_total_distance_m`, `device_elapsed_s`, `device_total_strokes`; the export has no
/// start time, so neither `start_utc` nor `start_local`), then in time order (trace time = the
/// row's `Time(sec)`, else its `Time`, seconds from the start):
/// - one `.reference` per new stroke: the `Stroke` column is the running count, and a row holds
///   two or three strokes; they are spread evenly between the previous row and this one
///   (`StrokeCountSteps`), with cumulative distances interpolated likewise, and the row's rate,
///   split and speed. So `oarlog replay` counts the device's strokes, and the last reference
///   carries the device's last distance;
/// - a `.heartRate` at the row's time from `HR` (0 = no reading).
///
/// Bounds: a row without a time is skipped (`unusableRow`), one more than 7 days in
/// (`implausibleValue`) or earlier than the row before (`timeWentBackward`) too; a figure beyond
/// its physical bound is unknown (`droppedValues`). A value that is not a number is an error
/// naming its line and column. Lines are at most 64 KiB; the file is read twice, a row at a time.
public struct SpeedCoachV1Reader: RecordSource, TraceStatisticsReporting {
    private var reader: DeviceRowExportReader<SpeedCoachV1Rows>
    public var path: String { reader.path }
    public var statistics: TraceReadStatistics { reader.statistics }

    /// Opens the export and reads it once for the device's totals. Throws if the header is not the
    /// first SpeedCoach's or a value is not a number.
    public init(path: String) throws {
        reader = try DeviceRowExportReader(path: path)
    }

    public mutating func next() throws -> TraceRecord? { try reader.next() }

    /// The header of the first SpeedCoach's export.
    static func recognises(lines: [String]) -> Bool {
        lines.first?.hasPrefix("Interval,Type,Distance(m),Time,Stroke,Rate") == true
    }
}

/// The first SpeedCoach's rows, converted (`SpeedCoachV1Reader`).
struct SpeedCoachV1Rows: DeviceRowConverting {
    static let maxPreambleLines = 0
    static let expectedHeader = "Interval,Type,Distance(m),Time,Stroke,Rate,… (the first NK SpeedCoach)"
    static func isHeader(_ row: CSVRow) -> Bool { row[0] == "Interval" && row[1] == "Type" && row[2] == "Distance(m)" }

    private let distance: Int, stroke: Int
    private let seconds: Int?, clock: Int?, rate: Int?, speed: Int?, split: Int?, splitClock: Int?, heartRate: Int?
    private var steps = StrokeCountSteps()
    private var lastTime = -Double.infinity
    private var totals: (time: Double?, distance: Double?, strokes: Int?) = (nil, nil, nil)

    init(header fields: [String], line: Int, path: String) throws {
        let header = ExportHeader(fields, line: line, path: path)
        let format = "first NK SpeedCoach"
        distance = try header.required("Distance(m)", in: format)
        stroke = try header.required("Stroke", in: format)
        seconds = header.column("Time(sec)")
        clock = header.column("Time")
        guard seconds != nil || clock != nil else {
            throw TraceError(.malformed, file: path, line: line, column: 1,
                             "expected a column \"Time(sec)\" or \"Time\" in the \(format) header")
        }
        rate = header.column("Rate")
        speed = header.column("Speed(m/s)")
        split = header.column("Split(sec)")
        splitClock = header.column("Split")
        heartRate = header.column("HR")
    }

    mutating func convert(_ row: CSVRow, into records: inout [TraceRecord], counts: inout TraceReadStatistics) throws {
        func number(_ k: Int?, _ name: String) throws -> Double? {
            guard let k else { return nil }
            return try row.number(k, name)
        }
        var time = try number(seconds, "Time(sec)")
        if time == nil, let clock { time = try row.clock(clock, "Time") }
        guard let time else {
            counts.recordSkip(.unusableRow, line: row.line)
            return
        }
        guard TraceLimits.plausibleSessionTime(time) else {
            counts.recordSkip(.implausibleValue, line: row.line)
            return
        }
        guard time >= lastTime else {
            counts.recordSkip(.timeWentBackward, line: row.line)
            return
        }
        lastTime = time
        var bounds = PlausibleValues()
        let metres = bounds.distance(try row.number(distance, "Distance(m)"))
        let strokes = bounds.strokeCount(try row.count(stroke, "Stroke"))
        var splitSeconds = try number(split, "Split(sec)")
        if splitSeconds == nil, let splitClock { splitSeconds = try row.clock(splitClock, "Split") }
        let bpm = try number(heartRate, "HR")
        steps.add(time: time, distance: metres, count: strokes, rate: bounds.strokeRate(try number(rate, "Rate")),
                  split: bounds.split(splitSeconds), speed: bounds.speed(try number(speed, "Speed(m/s)")),
                  into: &records, bounds: &bounds)
        if let bpm, bpm != 0, let plausible = bounds.heartRate(bpm) {
            records.append(.heartRate(HeartRateSample(time: time, bpm: plausible)))
        }
        counts.recordDroppedValues(bounds.dropped, line: row.line)
        totals = (time, metres ?? totals.distance, strokes ?? totals.strokes)
    }

    func metadata() -> [TraceRecord] {
        var out: [TraceRecord] = [.metadata(key: "source_format", value: "NK SpeedCoach (first model) CSV"),
                                  .metadata(key: "device", value: "NK SpeedCoach")]
        if let d = totals.distance { out.append(.metadata(key: "device_total_distance_m", value: d.description)) }
        if let t = totals.time { out.append(.metadata(key: "device_elapsed_s", value: t.description)) }
        if let n = totals.strokes { out.append(.metadata(key: "device_total_strokes", value: String(n))) }
        return out
    }
}
