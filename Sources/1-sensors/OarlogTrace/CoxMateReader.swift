import OarlogCore

/// Reads a CoxMate per-stroke CSV export: a header
/// `Stroke,Time,Distance,Rating,Speed,Ratio,Cover,Heart Rate` and one row per stroke (the
/// stroke number, seconds and metres from the start, the rating, the distance per stroke as
/// `Cover`), with no positions and no date. 0 is the device's "none" (rating, speed, cover,
/// heart rate).
///
/// Yields metadata first (`source_format`, `device`, and the last usable row's figures as
/// `device_total_strokes`, `device_total_distance_m`, `device_elapsed_s`; no start time), then
/// per stroke in time order a `.reference` (cumulative distance, rating, speed, stroke number,
/// cover) and a `.heartRate` when there is one.
///
/// Start artefact: a CoxMate file begins with two rows 0.08 s apart (stroke 1 at 0 s with a
/// leftover speed, stroke 2 with a rating of 0.05); the next row's rating is measured from
/// stroke 2 (22.81 spm = 60 / (2.71 s − 0.08 s)), so stroke 2 is the first catch and stroke 1
/// is the moment the recording started. Two catches closer than one stroke at 200 strokes a
/// minute (0.3 s, `TraceLimits.maxStrokeRate`) are one: the earlier row gives no reference and
/// is counted as skipped (`implausibleValue`), so the replay counts one stroke fewer than the
/// device's last stroke number.
///
/// Bounds: a row without a time is skipped (`unusableRow`), one more than 7 days in
/// (`implausibleValue`) or earlier than the row before (`timeWentBackward`) too; a figure beyond
/// its physical bound is unknown (`droppedValues`); a value that is not a number is an error
/// naming its line and column. Lines are at most 64 KiB; the file is read twice, a row at a time.
public struct CoxMateReader: RecordSource, TraceStatisticsReporting {
    private var reader: DeviceRowExportReader<CoxMateRows>
    public var path: String { reader.path }
    public var statistics: TraceReadStatistics { reader.statistics }

    /// Opens the export and reads it once for the device's totals. Throws if the header is not
    /// CoxMate's or a value is not a number.
    public init(path: String) throws {
        reader = try DeviceRowExportReader(path: path)
    }

    public mutating func next() throws -> TraceRecord? { try reader.next() }

    /// CoxMate's header.
    static func recognises(lines: [String]) -> Bool {
        lines.first?.hasPrefix("Stroke,Time,Distance,Rating,Speed") == true
    }
}

/// CoxMate's rows, converted (`CoxMateReader`).
struct CoxMateRows: DeviceRowConverting {
    static let maxPreambleLines = 0
    static let expectedHeader = "Stroke,Time,Distance,Rating,Speed,… (CoxMate)"
    static func isHeader(_ row: CSVRow) -> Bool { row[0] == "Stroke" && row[1] == "Time" && row[2] == "Distance" }
    /// Catches closer than this are one (a stroke at the highest plausible rate).
    static var shortestStrokeSeconds: Double { 60 / TraceLimits.maxStrokeRate }

    private let stroke: Int, time: Int, distance: Int?, rating: Int?, speed: Int?, cover: Int?, heartRate: Int?
    private var lastTime = -Double.infinity
    /// The latest stroke, held until the next shows it was not a double catch.
    private var held: (reference: ReferenceStroke, line: Int)?
    private var totals: (time: Double?, distance: Double?, strokes: Int?) = (nil, nil, nil)

    init(header fields: [String], line: Int, path: String) throws {
        let header = ExportHeader(fields, line: line, path: path)
        stroke = try header.required("Stroke", in: "CoxMate")
        time = try header.required("Time", in: "CoxMate")
        distance = header.column("Distance")
        rating = header.column("Rating")
        speed = header.column("Speed")
        cover = header.column("Cover")
        heartRate = header.column("Heart Rate")
    }

    mutating func convert(_ row: CSVRow, into records: inout [TraceRecord], counts: inout TraceReadStatistics) throws {
        /// A figure where 0 means none.
        func figure(_ k: Int?, _ name: String) throws -> Double? {
            guard let k, let v = try row.number(k, name), v != 0 else { return nil }
            return v
        }
        guard let t = try row.number(time, "Time") else {
            counts.recordSkip(.unusableRow, line: row.line)
            return
        }
        guard TraceLimits.plausibleSessionTime(t) else {
            counts.recordSkip(.implausibleValue, line: row.line)
            return
        }
        guard t >= lastTime else {
            counts.recordSkip(.timeWentBackward, line: row.line)
            return
        }
        lastTime = t
        var bounds = PlausibleValues()
        let number = bounds.strokeCount(try row.count(stroke, "Stroke"))
        let metres = try distance.flatMap { bounds.distance(try row.number($0, "Distance")) }
        let reference = ReferenceStroke(time: t, distance: metres, strokeRate: bounds.strokeRate(try figure(rating, "Rating")),
                                        speed: bounds.speed(try figure(speed, "Speed")), strokeCount: number,
                                        distancePerStroke: bounds.distancePerStroke(try figure(cover, "Cover")))
        if let previous = held {
            if t - previous.reference.time < Self.shortestStrokeSeconds {
                counts.recordSkip(.implausibleValue, line: previous.line)
            } else {
                records.append(.reference(previous.reference))
            }
        }
        held = (reference, row.line)
        if let bpm = try figure(heartRate, "Heart Rate"), let plausible = bounds.heartRate(bpm) {
            records.append(.heartRate(HeartRateSample(time: t, bpm: plausible)))
        }
        counts.recordDroppedValues(bounds.dropped, line: row.line)
        totals = (t, metres ?? totals.distance, number ?? totals.strokes)
    }

    mutating func finish(into records: inout [TraceRecord], counts: inout TraceReadStatistics) {
        if let held { records.append(.reference(held.reference)) }
        held = nil
    }

    func metadata() -> [TraceRecord] {
        var out: [TraceRecord] = [.metadata(key: "source_format", value: "CoxMate CSV"),
                                  .metadata(key: "device", value: "CoxMate")]
        if let d = totals.distance { out.append(.metadata(key: "device_total_distance_m", value: d.description)) }
        if let t = totals.time { out.append(.metadata(key: "device_elapsed_s", value: t.description)) }
        if let n = totals.strokes { out.append(.metadata(key: "device_total_strokes", value: String(n))) }
        return out
    }
}
