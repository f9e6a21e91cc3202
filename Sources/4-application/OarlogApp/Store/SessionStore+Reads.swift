import OarlogAPI
import OarlogArchive
import OarlogCore
import OarlogFences
import OarlogSession

/// The listings, one session's report, and what the session page draws (trail, course, pieces,
/// curves, series), each as the JSON the web API answers and the command line prints.
extension SessionStore {
    /// The sessions the query picks, from the archive's index brought up to date with the files.
    public func list(_ query: SessionQuery = SessionQuery()) throws -> SessionList {
        try SessionList(directory, query: query)
    }

    /// The sessions with none left out: how many files there are, for "n of m" under a filter.
    public func sessionFileCount() throws -> Int {
        try SessionArchive.sessionFileCount(directory)
    }

    /// `oarlog show ID --json --strokes`, as `GET /api/sessions/ID` gives it.
    public func reportJSON(id: String) throws(SessionStoreError) -> String {
        let reader = try reader(id: id)
        return try Self.unreadable { try StoredSessionReport(reader, includeStrokes: true).json(fileNamesOnly: true) }
    }

    /// The report of the session a person names (`oarlog show`).
    public func report(_ reference: String, includeStrokes: Bool) throws -> StoredSessionReport {
        try StoredSessionReport(try open(reference), includeStrokes: includeStrokes)
    }

    /// The map's trail, thinned to at most `points`.
    public func trailJSON(id: String, points: Int) throws(SessionStoreError) -> String {
        let reader = try reader(id: id)
        return try Self.unreadable { try SessionTrail(reader).json(points: points) }
    }

    /// The fences and gate crossings recorded with the session.
    public func courseJSON(id: String) throws(SessionStoreError) -> String {
        let reader = try reader(id: id)
        return try Self.unreadable { SessionCourse(metadata: reader.metadata, events: try reader.events()).json() }
    }

    /// The pieces: the plan's intervals, the course's legs or the rests between them.
    public func piecesJSON(id: String) throws(SessionStoreError) -> String {
        let reader = try reader(id: id)
        return try Self.unreadable {
            try SessionPieces.read(reader, strokes: try SessionFigures.load(reader, includeStrokes: true).strokes ?? []).json()
        }
    }

    /// Per-stroke series for the plots, in buckets of min, max and mean.
    public func seriesJSON(id: String, _ request: SeriesRequest) throws(SessionStoreError) -> String {
        let reader = try reader(id: id)
        return try Self.unreadable {
            let figures = try SessionFigures.load(reader, includeStrokes: true)
            var series = SessionSeries(strokes: figures.strokes ?? [], duration: figures.duration)
            try series.readSpeeds(reader, request)
            guard SessionSeries.wantsRecords(request) else { return series.json(request) }
            let (n, width) = series.layout(request)
            let records = try SessionRecordSeries.read(reader, buckets: n, width: width, fields: request.fields)
            return series.json(request, records: records, zones: HeartRateZones(sessions: self).table())
        }
    }

    /// The averaged stroke curve of a piece (K from 0) or one stroke: `notFound` for a piece or
    /// stroke the session does not have.
    public func curveJSON(id: String, _ curve: CurveRequest) throws(SessionStoreError) -> String {
        let reader = try reader(id: id)
        let answer: String? = try Self.unreadable {
            let strokes = try SessionFigures.load(reader, includeStrokes: true).strokes ?? []
            switch curve.target {
            case .piece(let k): return try Self.pieceCurve(reader, strokes: strokes, piece: k, points: curve.points)
            case .stroke(let n): return try Self.strokeCurve(reader, strokes: strokes, stroke: n, points: curve.points)
            }
        }
        guard let answer else { throw .notFound("no such piece or stroke in this session") }
        return answer
    }

    private static func pieceCurve(_ reader: SessionReader, strokes: [StrokeMetrics], piece k: Int, points: Int) throws -> String? {
        let pieces = try SessionPieces.read(reader, strokes: strokes).pieces
        guard k < pieces.count else { return nil }
        let piece = pieces[k]
        let made = try piece.strokeRange.map { try StrokeCurve(reader, strokes: strokes, range: $0, points: points) }
        return (made ?? StrokeCurve(points: points)).json { w in
            w.field("piece", k)
            w.field("label", piece.label)
            w.field("piece_strokes", piece.strokes)
        }
    }

    private static func strokeCurve(_ reader: SessionReader, strokes: [StrokeMetrics], stroke n: Int, points: Int) throws -> String? {
        guard n < strokes.count else { return nil }
        return try StrokeCurve(reader, strokes: strokes, range: n...n, points: points).json { w in
            w.field("stroke", n)
            w.field("catch_s", strokes[n].stroke.catchTime, places: 3)
        }
    }

    /// Every event's best over the sessions (of `boat` when given).
    public func bests(boat: String? = nil) throws -> PersonalBests {
        try PersonalBests(directory, boat: boat)
    }

    /// Two outings or pieces side by side. `exactIDs` (the API): each side is an exact id, and
    /// one that is not kept is `notFound`; else a person's references (`last`, a prefix, a path).
    public func compare(_ a: CompareReference, _ b: CompareReference, fences: FenceFile? = nil,
                        exactIDs: Bool) throws -> SessionComparison {
        if exactIDs {
            for side in [a, b] where !APIRequest.isPlausibleSessionID(side.session) {
                throw SessionComparison.Failure(.notFound, "no such session")
            }
            // By the file's name, as every other route finds a session: nothing else is opened.
            return try SessionComparison(a, b, fences: fences) { id in
                guard let path = directory.sessionFile(id: id) else { throw AppError("no such session: \(id)") }
                return path
            }
        }
        return try SessionComparison(a, b, fences: fences, path: { try path(of: $0) })
    }
}

/// A listing's filters and order (the archive's, named here for the interfaces).
public typealias SessionQuery = OarlogArchive.SessionQuery
/// A filter that cannot be understood, naming it.
public typealias SessionQueryError = OarlogArchive.SessionQueryError
