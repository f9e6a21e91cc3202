import ArgumentParser
import OarlogCore
import OarlogReport
import OarlogSession

/// `oarlog sessions`: the recorded sessions, newest first.
struct Sessions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List the recorded sessions, newest first.",
        discussion: """
            One line each: date (UTC), title, duration, distance, strokes, average rate, average split and
            the id (what `show`, `play`, `export`, `note` and `delete` take; `last` is the newest).
            Sessions live in $OARLOG_DATA_DIR/sessions, else $XDG_DATA_HOME/oarlog/sessions, else
            ~/.local/share/oarlog/sessions. Only each file's start and end are read.
            """
    )

    @Flag(help: "Print a JSON array (one object per session; null for no data).")
    var json = false

    @Flag(help: "Print the data directory and exit.")
    var directory = false

    func run() throws {
        let dir = SessionDirectory.default
        if directory {
            StandardStreams.write(dir.path + "\n")
            return
        }
        let listings: [SessionListing]
        do { listings = try dir.list() } catch { throw CommandFailure("\(error)") }
        if json {
            StandardStreams.write(Self.json(listings) + "\n")
            return
        }
        if listings.isEmpty {
            StandardStreams.write("no sessions in \(dir.path) (record one with `oarlog record`, or `oarlog replay TRACE --save`)\n")
            return
        }
        var rows: [[String]] = [["DATE (UTC)", "TITLE", "DURATION", "DISTANCE", "STROKES", "RATE", "SPLIT", "ID"]]
        for l in listings { rows.append(Self.row(l)) }
        let widths = (0..<rows[0].count).map { c in rows.map { $0[c].count }.max() ?? 0 }
        let rightAligned: Set<Int> = [2, 3, 4, 5, 6]
        for row in rows {
            var line = ""
            for (c, cell) in row.enumerated() {
                if c > 0 { line += "  " }
                let isLast = c == row.count - 1
                line += rightAligned.contains(c) ? SummaryTableText.padLeft(cell, widths[c])
                    : (isLast ? cell : SummaryTableText.pad(cell, widths[c]))
            }
            StandardStreams.write(line + "\n")
        }
    }

    static func row(_ l: SessionListing) -> [String] {
        guard let m = l.metadata else {
            return ["?", "unreadable: " + (l.error ?? "?"), "", "", "", "", "", l.id]
        }
        let a = l.summary?.analysis
        let duration = a?.elapsed ?? l.summary?.statistics.duration
        let title = (m.title.isEmpty ? "untitled" : m.title) + (l.isComplete ? "" : " (not closed)")
        let strokes = a.flatMap { a in strokesKnown(l) ? String(a.strokes) : nil } ?? RowingFormat.noData
        return [SessionSupport.dateText(m.startUTC), title, RowingFormat.duration(duration), RowingFormat.distance(a?.distance),
                strokes, RowingFormat.decimal(a?.averageStrokeRate),
                RowingFormat.split(a?.averageSplit), l.id]
    }

    /// Strokes are "no data" when the session had neither an accelerometer nor a device's strokes.
    static func strokesKnown(_ l: SessionListing) -> Bool {
        guard let s = l.summary else { return false }
        return RowingFormat.strokesKnown(strokes: s.analysis?.strokes ?? 0, accelerometerSamples: s.statistics.accelerometerSamples,
                                         referenceStrokes: s.statistics.referenceStrokes)
    }

    static func json(_ listings: [SessionListing]) -> String {
        var w = JSONWriter()
        w.beginArray()
        for l in listings {
            let a = l.summary?.analysis
            w.beginObject()
            w.field("id", l.id)
            w.field("path", l.path)
            w.field("title", l.metadata?.title)
            w.field("start_utc", l.metadata.map { SessionSupport.isoText($0.startUTC) })
            w.field("elapsed_s", a?.elapsed ?? l.summary?.statistics.duration, places: 3)
            w.field("distance_m", a?.distance, places: 2)
            w.field("strokes", strokesKnown(l) ? a?.strokes : nil)
            w.field("avg_stroke_rate_spm", a?.averageStrokeRate, places: 2)
            w.field("avg_split_s_per_500m", a?.averageSplit, places: 2)
            w.field("closed", l.isComplete)
            w.field("size_bytes", l.sizeBytes)
            w.field("error", l.error)
            w.endObject()
        }
        w.endArray()
        return w.take()
    }
}
