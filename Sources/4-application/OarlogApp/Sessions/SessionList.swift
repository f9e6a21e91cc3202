import OarlogAPI
import OarlogArchive
import OarlogCore
import OarlogSession

/// The recorded sessions, as `oarlog sessions` and `GET /api/sessions` give them: from the
/// archive's index (brought up to date with the files first), filtered and ordered by a
/// `SessionQuery` (newest first by default).
public struct SessionList {
    public let sessions: [ArchivedSession]

    public init(_ directory: SessionDirectory = .default, query: SessionQuery = SessionQuery()) throws {
        sessions = try SessionArchive(directory).sessions(query)
    }

    public init(archive: SessionArchive, query: SessionQuery = SessionQuery()) throws {
        sessions = try archive.sessions(query)
    }

    public init(sessions: [ArchivedSession]) {
        self.sessions = sessions
    }

    /// What to do about a damaged file.
    public static func recoverHint(_ s: ArchivedSession) -> String {
        "damaged: `oarlog recover \(s.id)` keeps what can be read"
    }

    /// The table's header and one row per session (date, title, duration, distance, strokes,
    /// rate, split, id), "—" for no data; a damaged file says so with the `oarlog recover` hint.
    public func rows() -> [[String]] {
        [["DATE (UTC)", "TITLE", "DURATION", "DISTANCE", "STROKES", "RATE", "SPLIT", "ID"]] + sessions.map(Self.row)
    }

    /// The rows laid out in columns (numbers right-aligned, the id last and unpadded).
    public func table() -> String {
        TextTable.columns(rows(), rightAligned: [2, 3, 4, 5, 6])
    }

    static func row(_ s: ArchivedSession) -> [String] {
        guard let start = s.startUTC else {
            return ["?", "unreadable (\(recoverHint(s))): " + (s.damage ?? "?"), "", "", "", "", "", s.id]
        }
        var title = (s.title.isEmpty ? "untitled" : s.title) + (s.closed ? "" : " (not closed)")
        if s.damage != nil { title += " (\(recoverHint(s)))" }
        return [SessionText.date(start), title, RowingFormat.duration(s.elapsed), RowingFormat.distance(s.distance),
                s.strokes.map(String.init) ?? RowingFormat.noData, RowingFormat.decimal(s.averageRate), RowingFormat.split(s.averageSplit),
                s.id]
    }

    /// A JSON array, one object per session, null for no data. `start_lat_deg`/`start_lon_deg`
    /// are the session's first GPS fix, null for a session without GPS. `error` says why a file
    /// (or part of it) could not be read, with `damaged` true.
    /// `fileNamesOnly` (the web API): `path` is the file's name and `error` names files only,
    /// never where they are on the board.
    public func json(fileNamesOnly: Bool = false) -> String {
        func text(_ value: String) -> String { fileNamesOnly ? PathText.fileNamesOnly(value) : value }
        var w = JSONWriter()
        w.beginArray()
        for s in sessions {
            w.beginObject()
            w.field("id", s.id)
            w.field("path", text(s.path))
            w.field("title", s.startUTC == nil ? nil : s.title)
            w.field("boat", s.boat.isEmpty ? nil : s.boat)
            w.field("start_utc", s.startUTC.map { SessionText.iso($0) })
            w.field("elapsed_s", s.elapsed, places: 3)
            w.field("distance_m", s.distance, places: 2)
            w.field("strokes", s.strokes)
            w.field("avg_stroke_rate_spm", s.averageRate, places: 2)
            w.field("avg_split_s_per_500m", s.averageSplit, places: 2)
            w.field("closed", s.closed)
            w.field("size_bytes", s.sizeBytes)
            w.field("damaged", s.damage != nil)
            w.field("error", s.damage.map(text))
            w.field("start_lat_deg", s.start?.latitude, places: 7)
            w.field("start_lon_deg", s.start?.longitude, places: 7)
            w.field("pieces", s.pieceCount)
            w.array("notes", s.notes)
            w.array("places", s.places + s.courses)
            w.endObject()
        }
        w.endArray()
        return w.take()
    }
}
