import OarlogReport
import OarlogSession

/// The recorded sessions, newest first, as `oarlog sessions` and `GET /api/sessions` give them.
public struct SessionList {
    public let listings: [SessionListing]

    public init(_ directory: SessionDirectory = .default) throws {
        do { listings = try directory.list() } catch { throw AppError("\(error)") }
    }

    /// The table's header and one row per session (date, title, duration, distance, strokes,
    /// rate, split, id), "—" for no data.
    public func rows() -> [[String]] {
        [["DATE (UTC)", "TITLE", "DURATION", "DISTANCE", "STROKES", "RATE", "SPLIT", "ID"]] + listings.map(Self.row)
    }

    /// The rows laid out in columns (numbers right-aligned, the id last and unpadded).
    public func table() -> String {
        TextTable.columns(rows(), rightAligned: [2, 3, 4, 5, 6])
    }

    static func row(_ l: SessionListing) -> [String] {
        guard let m = l.metadata else {
            return ["?", "unreadable: " + (l.error ?? "?"), "", "", "", "", "", l.id]
        }
        let a = l.summary?.analysis
        let duration = a?.elapsed ?? l.summary?.statistics.duration
        let title = (m.title.isEmpty ? "untitled" : m.title) + (l.isComplete ? "" : " (not closed)")
        let strokes = a.flatMap { a in strokesKnown(l) ? String(a.strokes) : nil } ?? RowingFormat.noData
        return [SessionText.date(m.startUTC), title, RowingFormat.duration(duration), RowingFormat.distance(a?.distance),
                strokes, RowingFormat.decimal(a?.averageStrokeRate), RowingFormat.split(a?.averageSplit), l.id]
    }

    /// Strokes are "no data" when the session had neither an accelerometer nor a device's strokes.
    static func strokesKnown(_ l: SessionListing) -> Bool {
        guard let s = l.summary else { return false }
        return RowingFormat.strokesKnown(strokes: s.analysis?.strokes ?? 0, accelerometerSamples: s.statistics.accelerometerSamples,
                                         referenceStrokes: s.statistics.referenceStrokes)
    }

    /// Where the session started (its first GPS fix); nil without GPS or when it cannot be read.
    static func startPlace(_ l: SessionListing) -> SessionStartPlace? {
        guard l.metadata != nil else { return nil }
        return try? SessionReader(path: l.path).startPlace()
    }

    /// A JSON array, one object per session, null for no data. `start_lat_deg`/`start_lon_deg`
    /// are the session's first GPS fix (`SessionReader.startPlace`: read up to that fix only),
    /// null for a session without GPS or that cannot be read.
    public func json() -> String {
        var w = JSONWriter()
        w.beginArray()
        for l in listings {
            let a = l.summary?.analysis
            let start = Self.startPlace(l)
            w.beginObject()
            w.field("id", l.id)
            w.field("path", l.path)
            w.field("title", l.metadata?.title)
            w.field("start_utc", l.metadata.map { SessionText.iso($0.startUTC) })
            w.field("elapsed_s", a?.elapsed ?? l.summary?.statistics.duration, places: 3)
            w.field("distance_m", a?.distance, places: 2)
            w.field("strokes", Self.strokesKnown(l) ? a?.strokes : nil)
            w.field("avg_stroke_rate_spm", a?.averageStrokeRate, places: 2)
            w.field("avg_split_s_per_500m", a?.averageSplit, places: 2)
            w.field("closed", l.isComplete)
            w.field("size_bytes", l.sizeBytes)
            w.field("error", l.error)
            w.field("start_lat_deg", start?.latitude, places: 7)
            w.field("start_lon_deg", start?.longitude, places: 7)
            w.endObject()
        }
        w.endArray()
        return w.take()
    }
}
