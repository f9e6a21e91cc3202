import OarlogCore

/// The row conversion of a simple device export: a few preamble lines, a header, then one row
/// per stroke, per second or per 20 m (the first NK SpeedCoach, BoatCoach, CoxMate). The reader
/// (`DeviceRowExportReader`) runs the conversion twice: a dry pass to learn the device's own
/// totals (which go first, as metadata), then the pass that delivers the records.
protocol DeviceRowConverting {
    /// Preamble lines allowed before the header.
    static var maxPreambleLines: Int { get }
    /// What the header looks like, for the error when none is found.
    static var expectedHeader: String { get }
    /// Whether `row` is this format's header.
    static func isHeader(_ row: CSVRow) -> Bool
    /// Ready to convert the rows under `header` (at `line`); throws if a column it needs is missing.
    init(header: [String], line: Int, path: String) throws
    /// Appends the records of one data row (not blank) in time order; counts skipped rows and
    /// dropped values in `counts`.
    mutating func convert(_ row: CSVRow, into records: inout [TraceRecord], counts: inout TraceReadStatistics) throws
    /// Appends what is still held back at the end of the file.
    mutating func finish(into records: inout [TraceRecord], counts: inout TraceReadStatistics)
    /// The metadata known after every row has been converted (format, start, device totals).
    func metadata() -> [TraceRecord]
}

extension DeviceRowConverting {
    mutating func finish(into records: inout [TraceRecord], counts: inout TraceReadStatistics) {}
}

/// Reads a device export through its `DeviceRowConverting` conversion, streaming: at open a dry
/// pass over the file (bounded memory: one row at a time) gathers the metadata; then the file is
/// read again and its records are delivered one by one. A line is at most 64 KiB.
struct DeviceRowExportReader<Converter: DeviceRowConverting> {
    private var input: ChunkedLineBuffer
    private var row: CSVRow
    private var converter: Converter
    private var pending: [TraceRecord] = []
    private var pendingIndex = 0
    private var finished = false
    private(set) var counts = TraceReadStatistics()

    var path: String { input.path }
    var statistics: TraceReadStatistics {
        var s = counts
        s.linesRead = input.lineNumber - 1
        return s
    }

    init(path: String) throws {
        var dryInput = try ChunkedLineBuffer(path: path)
        var dryRow = CSVRow(file: path)
        var dry = try Self.header(&dryInput, &dryRow)
        var scratch: [TraceRecord] = []
        var scratchCounts = TraceReadStatistics()
        while try Self.nextRow(&dryInput, &dryRow) {
            if dryRow.isBlank { continue }
            try dry.convert(dryRow, into: &scratch, counts: &scratchCounts)
            scratch.removeAll(keepingCapacity: true)
        }
        dry.finish(into: &scratch, counts: &scratchCounts)
        pending = dry.metadata()
        counts.metadataRecords = pending.count

        input = try ChunkedLineBuffer(path: path)
        row = CSVRow(file: path)
        converter = try Self.header(&input, &row)
    }

    mutating func next() throws -> TraceRecord? {
        while true {
            if pendingIndex < pending.count {
                let r = pending[pendingIndex]
                pendingIndex += 1
                if r.time != nil { counts.count(r) }
                return r
            }
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            if finished { return nil }
            if try Self.nextRow(&input, &row) {
                if row.isBlank { counts.blankLines += 1; continue }
                try converter.convert(row, into: &pending, counts: &counts)
            } else {
                finished = true
                converter.finish(into: &pending, counts: &counts)
            }
        }
    }

    /// Reads the next line into `row`; false at the end of the file.
    private static func nextRow(_ input: inout ChunkedLineBuffer, _ row: inout CSVRow) throws -> Bool {
        let line = input.lineNumber
        guard let bytes = try input.nextLine() else { return false }
        try row.parse(bytes, line: line)
        return true
    }

    /// Skips the preamble (at most `maxPreambleLines` lines) and reads the header.
    private static func header(_ input: inout ChunkedLineBuffer, _ row: inout CSVRow) throws -> Converter {
        for _ in 0...Converter.maxPreambleLines {
            guard try nextRow(&input, &row) else { break }
            if Converter.isHeader(row) { return try Converter(header: row.fields, line: row.line, path: input.path) }
        }
        throw TraceError(.malformed, file: input.path, line: max(1, input.lineNumber - 1), column: 1,
                         "expected the header \(Converter.expectedHeader) within the first \(Converter.maxPreambleLines + 1) lines, found \(row[0].debugDescription)")
    }
}

/// A header's columns, found by name (surrounding spaces ignored).
struct ExportHeader {
    let names: [String]
    let line: Int
    let path: String

    init(_ fields: [String], line: Int, path: String) {
        names = fields.map { $0.trimmingWhitespace() }
        self.line = line
        self.path = path
    }

    func column(_ name: String) -> Int? { names.firstIndex(of: name) }

    /// The column `name`; throws naming the header line if there is none.
    func required(_ name: String, in format: String) throws -> Int {
        guard let k = column(name) else {
            throw TraceError(.malformed, file: path, line: line, column: 1,
                             "expected a column \(name.debugDescription) in the \(format) header")
        }
        return k
    }
}

/// One reference stroke per new stroke from a device that writes its running stroke count on
/// rows that are not strokes (one a second, one per 20 m). A row whose count is k higher than
/// the previous row's brings k strokes: they are spread evenly over the time since the previous
/// row (the last at the row's own time), their cumulative distances likewise (the last the row's
/// distance), each with the row's rate, split and speed. So the pipeline, which counts each
/// reference as one stroke, counts what the device counted.
///
/// A count that goes down (the device restarted it) starts again from there, with no strokes;
/// a rise of more strokes than the time since the previous row allows at 200 strokes a minute
/// (`TraceLimits.maxStrokeRate`) is implausible: the count is dropped (counted) and the next row
/// counts from it. So does a rise of more than `maxStrokesPerRow` (the strokes of one row are held
/// in memory until they are read).
struct StrokeCountSteps {
    /// Most strokes one row may bring: 1,000 (a row every 20 m brings two or three, one a second
    /// none or one).
    static let maxStrokesPerRow = 1_000
    /// The previous row with a count (a session starts at 0 s, 0 m, no strokes).
    private var last = (time: 0.0, distance: 0.0 as Double?, count: 0)

    /// The reference strokes since the previous row, appended to `records`.
    mutating func add(time: Double, distance: Double?, count: Int?, rate: Double?, split: Double?, speed: Double?,
                      power: Double? = nil, into records: inout [TraceRecord], bounds: inout PlausibleValues) {
        guard let count else { return }
        defer { last = (time, distance, count) }
        let span = min(max(0, time - last.time), TraceLimits.maxSessionSeconds)
        guard count > last.count else { return }
        let mostStrokes = min(Int((span * TraceLimits.maxStrokeRate / 60).rounded(.up)) + 1, Self.maxStrokesPerRow)
        let k = count - last.count
        guard k <= mostStrokes else {
            bounds.dropped += 1
            return
        }
        for j in 1...k {
            let f = Double(j) / Double(k)
            var d: Double? = j == k ? distance : nil
            if let d0 = last.distance, let d1 = distance, d1 >= d0 { d = d0 + (d1 - d0) * f }
            records.append(.reference(ReferenceStroke(time: last.time + span * f, distance: d, split: split,
                                                      strokeRate: rate, speed: speed, strokeCount: last.count + j,
                                                      power: j == k ? power : nil)))
        }
    }
}

extension CSVRow {
    /// A whole number ≥ 0 in field `index` (a count, a stroke number); nil when empty or `unknownMarker`.
    func count(_ index: Int, _ name: String, unknownMarker: String = "---") throws -> Int? {
        guard let v = try number(index, name, unknownMarker: unknownMarker) else { return nil }
        guard v >= 0, v == v.rounded(), v < 1e15 else {
            throw error(field: index, "expected a whole number for \(name), found \(self[index].debugDescription)")
        }
        return Int(v)
    }

    /// A clock time `[[H:]M:]S[.f]` in field `index` in seconds; nil when empty or `unknownMarker`.
    func clock(_ index: Int, _ name: String, unknownMarker: String = "---") throws -> Double? {
        let s = self[index].trimmingWhitespace()
        if s.isEmpty || s == unknownMarker { return nil }
        guard let v = CivilTime.seconds(clock: s) else {
            throw error(field: index, "expected a time like 0:01:27.7 for \(name), found \(s.debugDescription)")
        }
        return v
    }
}
