import OarlogAPI
import OarlogCore
import OarlogDSP
import OarlogSession

/// A stored session as `oarlog show` and `GET /api/sessions/{id}` present it: its figures, its
/// notes and its file, as a table for a terminal or one JSON object.
public struct StoredSessionReport {
    public let reader: SessionReader
    public let figures: SessionFigures
    public let notes: [Note]
    /// The plan the session rowed and its intervals as recorded (nil without a plan).
    public let workout: RecordedWorkout?

    public init(_ reader: SessionReader, includeStrokes: Bool) throws {
        self.reader = reader
        figures = try SessionFigures.load(reader, includeStrokes: includeStrokes)
        notes = try reader.notes(onDamage: .skipDamagedChunks)
        workout = try reader.workout()
    }

    public var id: String { SessionText.id(of: reader.path) }

    /// What the person should know about how the figures were had (nil when nothing to say).
    public var warnings: [String] {
        var out: [String] = []
        if figures.recomputed {
            out.append("\(reader.path) was not closed normally (no stored summary): its figures were recomputed from its records")
        }
        if let first = figures.damage.first {
            out.append("\(reader.path): skipped \(figures.damage.count) damaged place(s), first at \(first) (`oarlog recover` can fix the file)")
        }
        return out
    }

    var counts: RecordCounts {
        RecordCounts(accelerometerSamples: figures.accelerometerSamples, fixes: figures.fixes, notes: figures.notes,
                     gaps: figures.gaps, referenceStrokes: figures.referenceStrokes)
    }

    /// The summary table (one line per figure, "—" for no data), then the notes.
    public func table() -> String {
        let f = figures
        let s = f.summary
        let m = reader.metadata
        var rows: [(String, String)] = []
        func unit(_ v: String, _ u: String) -> String { v == RowingFormat.noData ? v : v + " " + u }
        rows.append(("Start (UTC)", SessionText.iso(m.startUTC)))
        rows.append(("Elapsed", RowingFormat.duration(s.elapsed)))
        rows.append(("Moving time", RowingFormat.duration(s.movingTime)))
        rows.append(("Distance", RowingFormat.distance(s.distance)))
        rows.append(("Strokes", f.strokesKnown ? String(s.strokes) : RowingFormat.noData))
        rows.append(("Avg stroke rate", RowingFormat.decimal(s.averageStrokeRate, unit: "spm")))
        rows.append(("Max stroke rate", RowingFormat.decimal(s.maxStrokeRate, unit: "spm")))
        rows.append(("Avg split", unit(RowingFormat.split(s.averageSplit), "/500m")))
        rows.append(("Best split", unit(RowingFormat.split(s.bestSplit), "/500m")))
        rows.append(("Distance/stroke", RowingFormat.decimal(s.distancePerStroke, unit: "m")))
        rows += SummaryTable.qualityRows(s)
        rows.append(("Notes", String(f.notes)))
        rows.append(("Sensor gaps", f.gaps == 0 ? "none" : "\(f.gaps) (GPS \(s.gpsGaps), accelerometer \(s.accelerometerGaps))"))
        rows.append(("Accelerometer", f.accelerometerSamples > 0 ? "\(f.accelerometerSamples) samples" : RowingFormat.noData))
        rows.append(("GPS", f.fixes > 0 ? "\(f.fixes) fixes" : RowingFormat.noData))
        if f.events > 0 { rows.append(("Events", "\(f.events) (fences, gates)")) }
        for (i, d) in m.devices.enumerated() { rows.append((i == 0 ? "Devices" : "", d)) }
        if !m.settings.isEmpty { rows.append(("Settings", m.settings.map { "\($0.key) \($0.value)" }.joined(separator: ", "))) }
        rows.append(("File", reader.path))
        rows.append(("", SessionText.size(reader.fileSize) + ", "
            + (reader.isComplete ? "closed normally" : "not closed (figures recomputed)")
            + (f.recomputed && reader.isComplete ? " (figures recomputed: no stored totals)" : "")))
        var out = "Oarlog session — \(m.title.isEmpty ? "untitled" : m.title)\n"
        out += TextTable.labelled(rows)
        if !notes.isEmpty {
            out += "\nNotes\n"
            for n in notes { out += "  " + TextTable.padLeft(RowingFormat.duration(n.time), 9) + "  " + n.text + "\n" }
        }
        if let workout { out += "\n" + IntervalTable.render(plan: workout.plan, intervals: workout.intervals) }
        return out
    }

    /// The strokes as the stroke table prints them (empty when they were not asked for).
    public func strokeTable() -> String {
        guard let list = figures.strokes else { return "" }
        var out = StrokeTablePrinter.header + "\n"
        for m in list { out += StrokeTablePrinter.row(m) + "\n" }
        return out
    }

    /// One JSON object: the keys of `oarlog replay --json`, null for no data, and the session's own.
    /// `fileNamesOnly` (the web API): `source` is the file's name, not where it is on the board.
    public func json(fileNamesOnly: Bool = false) -> String {
        let s = figures.summary
        var w = JSONWriter()
        w.beginObject()
        w.field("source", fileNamesOnly ? PathText.fileNamesOnly(reader.path) : reader.path)
        w.field("id", id)
        w.field("title", reader.metadata.title)
        if let list = figures.strokes {
            // Each stroke's heart rate and oarlock figures, when the session has any.
            let device = try? StrokeDeviceFigures.atStrokes(list, reader: reader)
            w.beginArray(key: "stroke_list")
            for (k, m) in list.enumerated() {
                w.beginObject()
                w.strokeFields(m)
                if let device = device ?? nil { w.deviceStrokeFields(device[k]) }
                w.endObject()
            }
            w.endArray()
        }
        w.summaryFields(s, counts: counts, startUTC: SessionText.iso(reader.metadata.startUTC))
        w.field("moving_time_s", s.movingTime, places: 3)
        w.field("events", figures.events)
        w.beginArray(key: "note_list")
        for n in notes {
            w.beginObject()
            w.field("t_s", n.time, places: 3)
            w.field("text", n.text)
            w.endObject()
        }
        w.endArray()
        w.field("devices", reader.metadata.devices.joined(separator: "; "))
        w.field("closed", reader.isComplete)
        w.field("recomputed", figures.recomputed)
        if let workout { w.workoutFields(plan: workout.plan, intervals: workout.intervals) }
        w.endObject()
        return w.take()
    }
}
