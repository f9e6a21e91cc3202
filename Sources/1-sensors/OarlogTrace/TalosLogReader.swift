import OarlogCore

/// A malformed line in a Talos log: names the file, the line and what was expected.
public typealias TalosLogError = FileLineError

/// Reads a Talos Rowing (Android app) data log: lines `wallclock_ms EVENT timestamp payload@@`.
///
/// Records produced:
/// - `ACCEL x,y,z` (m/s², phone axes) → `.accel`;
/// - `GPS lat,lon,altitude,speed,bearing,accuracy` → `.fix` (the third field is the fix's UTC
///   time in ms → `utc`);
/// - `ROWING_COUNT n` (the app's own running stroke count) → `.reference` with `strokeCount`;
/// - `ROWING_START`, `ROWING_STOP` → `.note`.
/// Everything else (ORIENT, the app's internal STROKE_* events, parameters) is ignored (not
/// counted as a skip).
///
/// Timeline: the log has three clocks. Sensor-stamped events (ACCEL, ROWING_*) carry the
/// sensor clock (ns since boot) in the third field, the most precise; GPS rows carry the fix's
/// UTC; every row carries the wall-clock ms at which it was logged. The sensor clock is mapped
/// to wall-clock time by the offset `min(wallclock − sensor)` over the ACCEL rows (logging can
/// only delay a row, so the smallest difference is the true offset, to about 1 ms; the log
/// shows no drift). GPS fixes, which have no sensor stamp, are placed at their wall-clock
/// (received) time mapped back with that offset. `t = 0` is the earliest record;
/// `start_utc` is its wall-clock time. Records come out sorted by time.
///
/// Bounds (`TraceLimits`, docs/TRACE_FORMAT.md): the log is read whole and sorted, so it may be
/// at most 128 MiB with at most 4,000,000 timed records (`TraceError.tooLarge` beyond, as a
/// `TalosLogError` at line 0), and a line at most 64 KiB (`lineTooLong`). Skipped and counted
/// (`statistics`): a row logged more than 7 days (wall clock) from the first converted row, or
/// outside 1970–2100; a sensor-stamped row whose stamp disagrees with the other rows' clock
/// offset by more than 7 days (a corrupt stamp: it takes no part in the offset) or whose time
/// lands more than 7 days from the first row; an acceleration over 2000 m/s²; a fix outside
/// ±90°/±180°; a stroke count beyond `TraceLimits.maxStrokeCount` (all `implausibleValue`); NaN
/// or infinity in an acceleration or position (`nonFiniteValue`). A fix's speed, course,
/// accuracy, altitude or UTC beyond its bound is unknown (`droppedValues`).
public struct TalosLogReader: RecordSource, TraceStatisticsReporting {
    public let path: String
    /// One timed record, compact (32 bytes, where a `TraceRecord` takes far more).
    private struct Entry {
        /// Seconds: the sensor clock (sensor-stamped rows) until the offset is applied, then the
        /// wall clock; the wall clock for GPS rows.
        var time: Double
        /// The wall clock at which the row was logged, seconds.
        var wall: Double
        var x: Float, y: Float, z: Float
        /// ≥ 0: index into `others`; < 0: an ACCEL row, minus its line number.
        var ref: Int32
    }
    private struct Other {
        var record: TraceRecord
        var line: Int
        var sensorStamped: Bool
    }
    private var entries: [Entry] = []
    private var others: [Other] = []
    private var metadata: [TraceRecord] = []
    private var origin = 0.0
    private var position = 0
    private var counts = TraceReadStatistics()

    public var statistics: TraceReadStatistics { counts }

    public init(path: String) throws {
        self.path = path
        do {
            try read()
        } catch let error as TraceError {
            throw TalosLogError(path: path, line: error.line ?? 0, message: error.message)
        }
    }

    /// One line of the log, parsed: its entry (and the record it carries, for all but ACCEL),
    /// before its plausibility is judged.
    private struct ParsedLine {
        var entry: Entry
        var other: Other?
        /// The wall clock at which it was logged, ms as written.
        var wallMs: Double
        var finite = true, plausible = true
        /// Optional fix values beyond their bounds, made unknown.
        var droppedValues = 0
    }

    private mutating func read() throws {
        var input = try ChunkedLineBuffer(path: path, maxLineBytes: TraceLimits.maxLineBytes,
                                          maxFileBytes: TraceLimits.maxTalosFileBytes)
        var anchor: Double?   // wall clock of the first converted row, seconds
        while true {
            let lineNumber = input.lineNumber
            guard let bytes = try input.nextLine() else { break }
            if bytes.allSatisfy({ $0 == ASCII.space }) { counts.blankLines += 1; continue }
            guard let parsed = try parse(bytes, line: lineNumber) else { continue }
            try keep(parsed, line: lineNumber, anchor: &anchor)
        }
        counts.linesRead = input.lineNumber - 1
        guard let anchor else { return }
        placeOnWallClock(Self.sensorClockOffset(of: entries), anchor: anchor)
        sortAndStamp()
    }

    /// Parses a line (every error first, in file order); nil for an event this reader ignores.
    private func parse(_ bytes: UnsafeBufferPointer<UInt8>, line lineNumber: Int) throws -> ParsedLine? {
        var line = Substring(String(decoding: bytes, as: UTF8.self))
        guard line.hasSuffix("@@") else {
            throw TalosLogError(path: path, line: lineNumber, message: "expected the line to end with '@@'")
        }
        line = line.dropLast(2)
        let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
        guard fields.count == 4, let wallMs = Self.number(fields[0]) else {
            throw TalosLogError(path: path, line: lineNumber, message: "expected 'wallclock_ms EVENT timestamp payload'")
        }
        let kind = fields[1], stamp = fields[2], payload = fields[3]
        guard ["ACCEL", "GPS", "ROWING_COUNT", "ROWING_START", "ROWING_STOP"].contains(kind) else { return nil }
        let wall = wallMs / 1000
        var parsed = ParsedLine(entry: Entry(time: 0, wall: wall, x: 0, y: 0, z: 0, ref: Int32(truncatingIfNeeded: -lineNumber)),
                                wallMs: wallMs)
        switch kind {
        case "ACCEL":
            let v = try numbers(payload, kind: kind, count: 3, line: lineNumber)
            parsed.entry.time = try sensorSeconds(stamp, line: lineNumber)
            parsed.finite = v[0].isFinite && v[1].isFinite && v[2].isFinite
            parsed.plausible = v.prefix(3).allSatisfy(TraceLimits.plausibleAcceleration)
            (parsed.entry.x, parsed.entry.y, parsed.entry.z) = (Float(v[0]), Float(v[1]), Float(v[2]))
        case "GPS":
            try parseFix(payload, stamp: stamp, line: lineNumber, into: &parsed)
        case "ROWING_COUNT":
            guard let n = Int(payload) else {
                throw TalosLogError(path: path, line: lineNumber, message: "expected a stroke count, found '\(payload)'")
            }
            parsed.entry.time = try sensorSeconds(stamp, line: lineNumber)
            parsed.plausible = n >= 0 && n <= TraceLimits.maxStrokeCount
            parsed.other = Other(record: .reference(ReferenceStroke(time: 0, strokeCount: n)), line: lineNumber, sensorStamped: true)
        default:   // ROWING_START, ROWING_STOP
            parsed.entry.time = try sensorSeconds(stamp, line: lineNumber)
            let text = "Talos \(String(kind.lowercased().map { $0 == "_" ? " " : $0 }))"
            parsed.other = Other(record: .note(Note(time: 0, text: text)), line: lineNumber, sensorStamped: true)
        }
        return parsed
    }

    /// `GPS lat,lon,altitude,speed,bearing,accuracy`, stamped with the fix's UTC in ms: placed at
    /// its wall-clock (received) time.
    private func parseFix(_ payload: Substring, stamp: Substring, line lineNumber: Int, into parsed: inout ParsedLine) throws {
        let v = try numbers(payload, kind: "GPS", count: 6, line: lineNumber)
        guard let utcMs = Self.number(stamp) else {
            throw TalosLogError(path: path, line: lineNumber, message: "expected the GPS time in ms, found '\(stamp)'")
        }
        let wall = parsed.entry.wall
        parsed.finite = v[0].isFinite && v[1].isFinite
        parsed.plausible = (-90...90).contains(v[0]) && (-180...180).contains(v[1])
        var bounds = PlausibleValues()
        let fix = GPSFix(time: wall, utc: bounds.utc(utcMs / 1000), latitude: v[0], longitude: v[1],
                         speed: bounds.speed(v[3]), course: bounds.course(v[4]),
                         horizontalAccuracy: bounds.horizontalAccuracy(v[5]), altitude: bounds.altitude(v[2]))
        parsed.droppedValues = bounds.dropped
        parsed.entry.time = wall
        parsed.other = Other(record: .fix(fix), line: lineNumber, sensorStamped: false)
    }

    /// Keeps a parsed line, or counts it skipped. The session is anchored at the first kept
    /// row's wall clock; a row logged more than 7 days from it is implausible.
    private mutating func keep(_ parsed: ParsedLine, line lineNumber: Int, anchor: inout Double?) throws {
        if !parsed.finite { counts.recordSkip(.nonFiniteValue, line: lineNumber); return }
        let wall = parsed.entry.wall
        guard parsed.plausible, parsed.wallMs >= TraceLimits.utcRange.lowerBound * 1000,
              parsed.wallMs <= TraceLimits.utcRange.upperBound * 1000,
              abs(wall - (anchor ?? wall)) <= TraceLimits.maxSessionSeconds else {
            counts.recordSkip(.implausibleValue, line: lineNumber)
            return
        }
        if anchor == nil { anchor = wall }
        counts.recordDroppedValues(parsed.droppedValues, line: lineNumber)
        guard entries.count < TraceLimits.maxTalosRecords else {
            throw TalosLogError(path: path, line: lineNumber,
                                message: "more than \(TraceLimits.maxTalosRecords) records, the most this reader holds: split the log")
        }
        var entry = parsed.entry
        if let other = parsed.other {
            entry.ref = Int32(others.count)
            others.append(other)
        }
        entries.append(entry)
    }

    /// The sensor clock's offset to the wall clock, from the ACCEL rows whose stamps agree with
    /// the log's clock (within a week of the median difference: a corrupt stamp takes no part),
    /// and that median difference.
    private static func sensorClockOffset(of entries: [Entry]) -> (offset: Double, median: Double) {
        var differences: [Double] = []
        for e in entries where e.ref < 0 { differences.append(e.wall - e.time) }
        var offset = Double.infinity
        var median = 0.0
        if !differences.isEmpty {
            differences.sort()
            median = differences[differences.count / 2]
            for d in differences where abs(d - median) <= TraceLimits.maxSessionSeconds { offset = min(offset, d) }
        }
        return (offset.isFinite ? offset : 0, median)
    }

    /// Times on the wall clock; rows that land outside the session are skipped.
    private mutating func placeOnWallClock(_ clock: (offset: Double, median: Double), anchor: Double) {
        let week = TraceLimits.maxSessionSeconds
        var kept = 0
        for k in entries.indices {
            var e = entries[k]
            let sensorStamped = e.ref < 0 || others[Int(e.ref)].sensorStamped
            if sensorStamped {
                if e.ref < 0 && abs((e.wall - e.time) - clock.median) > week {
                    counts.recordSkip(.implausibleValue, line: line(of: e))
                    continue
                }
                e.time = e.time + clock.offset
            }
            guard abs(e.time - anchor) <= week else {
                counts.recordSkip(.implausibleValue, line: line(of: e))
                continue
            }
            entries[kept] = e
            kept += 1
        }
        entries.removeSubrange(kept...)
    }

    /// Sorts the entries by time (stable: a log is nearly in order; ties keep file order) and
    /// sets `t = 0` and `start_utc` at the earliest.
    private mutating func sortAndStamp() {
        if zip(entries, entries.dropFirst()).contains(where: { $0.time > $1.time }) {
            entries.sort { $0.time < $1.time }
        }
        guard let first = entries.first else { return }
        origin = first.time
        // Milliseconds rounded to the nearest, as Foundation's ISO8601DateFormatter wrote them.
        metadata = [.metadata(key: "start_utc", value: UTCTime.iso8601(origin, millisecondRounding: .toNearestOrAwayFromZero)),
                    .metadata(key: "device", value: "Talos Rowing (Android phone)")]
        counts.metadataRecords = metadata.count
    }

    private func line(of e: Entry) -> Int { e.ref < 0 ? Int(-e.ref) : others[Int(e.ref)].line }

    /// A number field (of any length the line allows; its bounds are judged after).
    private static func number(_ s: Substring) -> Double? { Double(s) }

    private func numbers(_ payload: Substring, kind: Substring, count: Int, line: Int) throws -> [Double] {
        let parts = payload.split(separator: ",", omittingEmptySubsequences: false)
        let values = parts.compactMap { Self.number($0) }
        guard parts.count >= count, values.count == parts.count else {
            let shown = payload.count > 80 ? payload.prefix(80) + "…" : payload
            throw TalosLogError(path: path, line: line,
                                message: "expected \(count) comma-separated numbers in the \(kind) payload, found '\(shown)'")
        }
        return values
    }

    private func sensorSeconds(_ stamp: Substring, line: Int) throws -> Double {
        guard let ns = Self.number(stamp), ns > 0, ns.isFinite else {
            throw TalosLogError(path: path, line: line, message: "expected a sensor timestamp in ns, found '\(stamp.prefix(80))'")
        }
        return ns / 1e9
    }

    private static func shifted(_ record: TraceRecord, to time: Double) -> TraceRecord {
        switch record {
        case .accel(var s): s.time = time; return .accel(s)
        case .fix(var f): f.time = time; return .fix(f)
        case .reference(var r): r.time = time; return .reference(r)
        case .heartRate(var h): h.time = time; return .heartRate(h)
        case .oarlock(var o): o.time = time; return .oarlock(o)
        case .note(var n): n.time = time; return .note(n)
        case .gap(var g): let d = g.end - g.start; g.start = time; g.end = time + d; return .gap(g)
        case .metadata: return record
        }
    }

    public mutating func next() throws -> TraceRecord? {
        if position < metadata.count {
            position += 1
            return metadata[position - 1]
        }
        let k = position - metadata.count
        guard k < entries.count else { return nil }
        position += 1
        let e = entries[k]
        let time = e.time + -origin
        let record: TraceRecord
        if e.ref < 0 {
            record = .accel(AccelSample(time: time, x: e.x, y: e.y, z: e.z))
        } else {
            record = Self.shifted(others[Int(e.ref)].record, to: time)
        }
        counts.count(record)
        return record
    }
}
