import ArgumentParser
import OarlogCore
import OarlogDSP
import OarlogReport
import OarlogSession

/// `oarlog show SESSION [--strokes] [--json]`: a stored session's summary table.
struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a recorded session's summary (and its strokes and notes).",
        discussion: """
            The figures come from the summary stored at the end of the file, so this is instant for any
            length of session. A session that was not closed (a power cut) has no stored summary: its
            figures are then recomputed by replaying its records, and `show` says so.
            "—" means no data (no GPS: no distance or split; no accelerometer: no strokes).
            Examples:
              oarlog show last
              oarlog show 2026-05-02T07 --strokes
              oarlog show last --json --strokes
            """
    )

    @Argument(help: "The session: a path, an id (or the start of one) in the data directory, or `last`.")
    var session: String

    @Flag(help: "Also list every stroke (with --json: `stroke_list`).")
    var strokes = false

    @Flag(help: "Print one JSON object (the keys of `oarlog replay --json`).")
    var json = false

    func run() throws {
        let reader = try SessionSupport.open(session)
        let figures = try SessionFigures.load(reader, includeStrokes: strokes)
        let notes = try reader.notes(onDamage: .skipDamagedChunks)
        if figures.recomputed {
            StandardStreams.error("note: \(reader.path) was not closed normally (no stored summary): "
                + "its figures were recomputed from its records\n")
        }
        if !figures.damage.isEmpty {
            StandardStreams.error("note: \(reader.path): skipped \(figures.damage.count) damaged place(s), first at \(figures.damage[0]) "
                + "(`oarlog recover` can fix the file)\n")
        }
        if json {
            StandardStreams.write(Self.json(reader: reader, figures: figures, notes: notes) + "\n")
            return
        }
        if let list = figures.strokes {
            StandardStreams.write(StrokeTablePrinter.header + "\n")
            for m in list { StandardStreams.write(StrokeTablePrinter.row(m) + "\n") }
            StandardStreams.write("\n")
        }
        StandardStreams.write(Self.table(reader: reader, figures: figures, notes: notes))
    }

    /// The summary table (one line per figure, "—" for no data), then the notes.
    static func table(reader: SessionReader, figures f: SessionFigures, notes: [Note]) -> String {
        let s = f.summary
        let m = reader.metadata
        var rows: [(String, String)] = []
        func unit(_ v: String, _ u: String) -> String { v == RowingFormat.noData ? v : v + " " + u }
        rows.append(("Start (UTC)", SessionSupport.isoText(m.startUTC)))
        rows.append(("Elapsed", RowingFormat.duration(s.elapsed)))
        rows.append(("Moving time", RowingFormat.duration(s.movingTime)))
        rows.append(("Distance", RowingFormat.distance(s.distance)))
        rows.append(("Strokes", f.strokesKnown ? String(s.strokes) : RowingFormat.noData))
        rows.append(("Avg stroke rate", RowingFormat.decimal(s.averageStrokeRate, unit: "spm")))
        rows.append(("Max stroke rate", RowingFormat.decimal(s.maxStrokeRate, unit: "spm")))
        rows.append(("Avg split", unit(RowingFormat.split(s.averageSplit), "/500m")))
        rows.append(("Best split", unit(RowingFormat.split(s.bestSplit), "/500m")))
        rows.append(("Distance/stroke", RowingFormat.decimal(s.distancePerStroke, unit: "m")))
        rows.append(("Notes", String(f.notes)))
        rows.append(("Sensor gaps", f.gaps == 0 ? "none" : "\(f.gaps) (GPS \(s.gpsGaps), accelerometer \(s.accelerometerGaps))"))
        rows.append(("Accelerometer", f.accelerometerSamples > 0 ? "\(f.accelerometerSamples) samples" : RowingFormat.noData))
        rows.append(("GPS", f.fixes > 0 ? "\(f.fixes) fixes" : RowingFormat.noData))
        if f.events > 0 { rows.append(("Events", "\(f.events) (fences, gates)")) }
        for (i, d) in m.devices.enumerated() { rows.append((i == 0 ? "Devices" : "", d)) }
        if !m.settings.isEmpty { rows.append(("Settings", m.settings.map { "\($0.key) \($0.value)" }.joined(separator: ", "))) }
        rows.append(("File", reader.path))
        rows.append(("", SessionSupport.sizeText(reader.fileSize) + ", "
            + (reader.isComplete ? "closed normally" : "not closed (figures recomputed)")
            + (f.recomputed && reader.isComplete ? " (figures recomputed: no stored totals)" : "")))
        let width = rows.map { $0.0.count }.max() ?? 0
        var out = "Oarlog session — \(m.title.isEmpty ? "untitled" : m.title)\n"
        for (label, value) in rows { out += SummaryTableText.pad(label, width) + "  " + value + "\n" }
        if !notes.isEmpty {
            out += "\nNotes\n"
            for n in notes { out += "  " + SummaryTableText.padLeft(RowingFormat.duration(n.time), 9) + "  " + n.text + "\n" }
        }
        return out
    }

    /// The `--json` object: the keys of `oarlog replay --json`, null for no data.
    static func json(reader: SessionReader, figures f: SessionFigures, notes: [Note]) -> String {
        let s = f.summary
        var w = JSONWriter()
        w.beginObject()
        w.field("source", reader.path)
        w.field("id", SessionSupport.id(of: reader.path))
        w.field("title", reader.metadata.title)
        if let list = f.strokes {
            w.beginArray(key: "stroke_list")
            for m in list { w.stroke(m) }
            w.endArray()
        }
        w.field("elapsed_s", s.elapsed, places: 3)
        w.field("distance_m", s.distance, places: 2)
        w.field("strokes", f.strokesKnown ? s.strokes : nil)
        w.field("avg_stroke_rate_spm", s.averageStrokeRate, places: 2)
        w.field("max_stroke_rate_spm", s.maxStrokeRate, places: 2)
        w.field("avg_split_s_per_500m", s.averageSplit, places: 2)
        w.field("best_split_s_per_500m", s.bestSplit, places: 2)
        w.field("distance_per_stroke_m", s.distancePerStroke, places: 2)
        w.field("moving_time_s", s.movingTime, places: 3)
        w.field("start_utc", SessionSupport.isoText(reader.metadata.startUTC))
        w.field("accel_samples", f.accelerometerSamples)
        w.field("gps_fixes", f.fixes)
        w.field("notes", f.notes)
        w.field("gaps", f.gaps)
        w.field("events", f.events)
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
        w.field("recomputed", f.recomputed)
        w.endObject()
        return w.take()
    }
}

/// Column padding for the plain-text tables.
enum SummaryTableText {
    static func pad(_ s: String, _ width: Int) -> String { s.count >= width ? s : s + String(repeating: " ", count: width - s.count) }
    static func padLeft(_ s: String, _ width: Int) -> String { s.count >= width ? s : String(repeating: " ", count: width - s.count) + s }
}
