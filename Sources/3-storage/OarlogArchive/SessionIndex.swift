#if canImport(Glibc)
import Glibc
#endif
import GRDB
import OarlogCore

/// The archive's index: an SQLite database (through GRDB) with one row per session file, its
/// bests, and an FTS5 table over its text. Derived from the files and rebuilt from them whenever
/// it is missing, unreadable or of another version: deleting it loses nothing.
///
/// Writes go through one connection (`DatabaseQueue`) with a busy timeout, so the recorder, the
/// web server and a command run at the same moment wait for each other instead of failing.
public final class SessionIndex: Sendable {
    /// Bumped whenever the schema or what is derived from a file changes: an index of another
    /// version is dropped and rebuilt from the files.
    public static let version = 3

    let database: DatabaseQueue
    /// Where the index lives; nil when it is kept in memory.
    public let path: String?

    /// Opens (or creates) the index at `path`; nil for one in memory. An index that cannot be
    /// read as one (not a database, another version) is emptied and rebuilt by the next sync.
    public init(path: String?) throws(ArchiveError) {
        self.path = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.foreignKeysEnabled = true
        do {
            database = try path.map { try DatabaseQueue(path: $0, configuration: configuration) }
                ?? DatabaseQueue(configuration: configuration)
            try database.writeWithoutTransaction { db in
                if path != nil { try db.execute(sql: "PRAGMA journal_mode = WAL") }
                try db.inTransaction(.immediate) {
                    let found = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                    if found != Self.version {
                        try Self.dropAll(db)
                        try Self.createSchema(db)
                        try db.execute(sql: "PRAGMA user_version = \(Self.version)")
                    }
                    return .commit
                }
            }
        } catch {
            throw ArchiveError("the index \(path ?? "in memory") cannot be opened: \(error)")
        }
    }

    static func dropAll(_ db: Database) throws {
        for table in ["session_text", "attempt", "course_search", "best", "session"] {
            try db.execute(sql: "DROP TABLE IF EXISTS \(table)")
        }
    }

    static func createSchema(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE session (
                rowid INTEGER PRIMARY KEY,
                id TEXT NOT NULL UNIQUE,
                path TEXT NOT NULL,
                size_bytes INTEGER NOT NULL,
                modified_ns INTEGER NOT NULL,
                damage TEXT,
                title TEXT NOT NULL,
                boat TEXT NOT NULL,
                start_utc REAL,
                elapsed_s REAL,
                distance_m REAL,
                strokes INTEGER,
                avg_rate_spm REAL,
                avg_split_s REAL,
                closed INTEGER NOT NULL,
                notes TEXT NOT NULL,
                courses TEXT NOT NULL,
                places TEXT NOT NULL,
                start_lat REAL, start_lon REAL,
                south REAL, north REAL, west REAL, east REAL,
                piece_count INTEGER NOT NULL,
                pieces_json TEXT,
                import_key TEXT
            );
            CREATE INDEX session_by_start ON session(start_utc);
            CREATE INDEX session_by_import_key ON session(import_key);
            CREATE TABLE best (
                session_rowid INTEGER NOT NULL REFERENCES session(rowid) ON DELETE CASCADE,
                event TEXT NOT NULL,
                time_s REAL NOT NULL,
                metres REAL NOT NULL,
                start_s REAL NOT NULL
            );
            CREATE INDEX best_by_session ON best(session_rowid);
            CREATE INDEX best_by_event ON best(event);
            """)
        try createAttemptTables(db)
        // Title, notes, courses and places searchable by word prefix; triggers keep it in step
        // with the session table.
        try db.create(virtualTable: "session_text", using: FTS5()) { t in
            t.synchronize(withTable: "session")
            t.tokenizer = .unicode61(diacritics: .remove)
            t.column("title")
            t.column("notes")
            t.column("courses")
            t.column("places")
        }
    }

    // MARK: Keeping it current

    /// What the index holds of each file: its id, size and modification time.
    public func fileIdentities() throws(ArchiveError) -> [String: (sizeBytes: Int, modifiedNanoseconds: Int64)] {
        try read { db in
            var out: [String: (Int, Int64)] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT id, size_bytes, modified_ns FROM session")
            while let row = try rows.next() { out[row[0]] = (row[1], row[2]) }
            return out
        }
    }

    /// Replaces the rows of these sessions and removes those of `removed`, in one transaction.
    public func update(_ sessions: [ArchivedSession], removing removed: [String] = []) throws(ArchiveError) {
        try write { db in
            for id in removed { try db.execute(sql: "DELETE FROM session WHERE id = ?", arguments: [id]) }
            for s in sessions { try Self.insert(s, db) }
        }
    }

    static func insert(_ s: ArchivedSession, _ db: Database) throws {
        // Delete, then insert: `INSERT OR REPLACE` would not run the FTS table's delete trigger.
        try db.execute(sql: "DELETE FROM session WHERE id = ?", arguments: [s.id])
        try db.execute(sql: """
            INSERT INTO session (id, path, size_bytes, modified_ns, damage, title, boat, start_utc, elapsed_s, distance_m, strokes,
                avg_rate_spm, avg_split_s, closed, notes, courses, places, start_lat, start_lon, south, north, west, east,
                piece_count, pieces_json, import_key)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [
                s.id, s.path, s.sizeBytes, s.modifiedNanoseconds, s.damage, s.title, s.boat, s.startUTC, s.elapsed, s.distance,
                s.strokes, s.averageRate, s.averageSplit, s.closed, s.notes.joined(separator: "\n"),
                s.courses.joined(separator: "\n"), s.places.joined(separator: "\n"), s.start?.latitude, s.start?.longitude,
                s.bounds?.south, s.bounds?.north, s.bounds?.west, s.bounds?.east, s.pieceCount, s.piecesJSON, s.importKey,
            ])
        let rowid = db.lastInsertedRowID
        for b in s.bests {
            try db.execute(sql: "INSERT INTO best (session_rowid, event, time_s, metres, start_s) VALUES (?, ?, ?, ?, ?)",
                           arguments: [rowid, b.event, b.time, b.metres, b.start])
        }
    }

    // MARK: Asking it

    /// The sessions the query lets through, in its order.
    public func sessions(_ query: SessionQuery = SessionQuery()) throws(ArchiveError) -> [ArchivedSession] {
        var conditions: [String] = []
        var arguments: [(any DatabaseValueConvertible)?] = []
        /// A condition each listed session meets, with the values of its `?`s.
        func require(_ condition: String, _ values: any DatabaseValueConvertible...) {
            conditions.append(condition)
            for value in values { arguments.append(value) }
        }
        if let text = query.text {
            guard let pattern = FTS5Pattern(matchingAllPrefixesIn: text) else { return [] }
            require("session.rowid IN (SELECT rowid FROM session_text WHERE session_text MATCH ?)", pattern)
        }
        if let from = query.from { require("start_utc >= ?", from) }
        if let to = query.to { require("start_utc < ?", to) }
        if let m = query.minimumDistance { require("distance_m >= ?", m) }
        if let rate = query.rate { require("avg_rate_spm BETWEEN ? AND ?", rate.lowerBound, rate.upperBound) }
        if let boat = query.boat { require("boat = ? COLLATE NOCASE", boat) }
        if let near = query.near {
            // A box around the point wide enough for the radius (a prefilter; the exact test
            // follows on the few rows it lets through).
            let latSpan = near.radius / 110_574 + 1e-6
            let cosLat = max(0.01, cos(min(89.9, abs(near.point.latitude) + latSpan) * .pi / 180))
            let lonSpan = near.radius / (111_320 * cosLat) + 1e-6
            require("south <= ? AND north >= ? AND west <= ? AND east >= ?",
                    near.point.latitude + latSpan, near.point.latitude - latSpan,
                    near.point.longitude + lonSpan, near.point.longitude - lonSpan)
        }
        let order: String
        switch query.order {
        case .date: order = "start_utc IS NULL, start_utc DESC, id DESC"
        case .distance: order = "distance_m IS NULL, distance_m DESC, start_utc DESC"
        case .split: order = "avg_split_s IS NULL, avg_split_s ASC, start_utc DESC"
        }
        let sql = "SELECT \(Self.listedColumns) FROM session" + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "))
            + " ORDER BY " + order
        let found: [ArchivedSession] = try read { db in
            try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map(Self.session)
        }
        guard let near = query.near else { return found }
        return found.filter { s in
            guard let b = s.bounds else { return false }
            return Geodesy.distance(from: near.point, to: b.nearestPoint(to: near.point)) <= near.radius
        }
    }

    /// Every column but the pieces' JSON (`piecesJSON(of:)` gives it): a list of thousands of
    /// sessions stays small.
    static let listedColumns = """
        id, path, size_bytes, modified_ns, damage, title, boat, start_utc, elapsed_s, distance_m, strokes, avg_rate_spm, \
        avg_split_s, closed, notes, courses, places, start_lat, start_lon, south, north, west, east, piece_count
        """

    /// A session's pieces as `/api/sessions/{id}/pieces` gives them, as the index holds them.
    public func piecesJSON(of id: String) throws(ArchiveError) -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT pieces_json FROM session WHERE id = ?", arguments: [id]) }
    }

    /// The session imported from the file with this import key (`oarlog import`), if any.
    public func session(importKey: String) throws(ArchiveError) -> String? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT id FROM session WHERE import_key = ? ORDER BY id LIMIT 1", arguments: [importKey])
        }
    }

    /// How many sessions it holds.
    public func count() throws(ArchiveError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM session") ?? 0 }
    }

    /// Every session's bests, oldest session first (the order a season's progression needs),
    /// optionally of one boat's sessions only.
    public func bests(boat: String? = nil) throws(ArchiveError) -> [SessionBest] {
        try read { db in
            let sql = """
                SELECT best.event, best.time_s, best.metres, best.start_s, session.id, session.start_utc, session.boat
                FROM best JOIN session ON session.rowid = best.session_rowid
                WHERE session.damage IS NULL\(boat == nil ? "" : " AND session.boat = ? COLLATE NOCASE")
                ORDER BY session.start_utc, session.id, best.rowid
                """
            return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(boat.map { [$0] } ?? [])).map { row in
                SessionBest(best: ArchivedBest(event: row[0], time: row[1], metres: row[2], start: row[3]),
                            session: row[4], sessionStartUTC: row[5] ?? 0, boat: row[6])
            }
        }
    }

    /// A row of `listedColumns`, by position (by name costs a lookup per column per row: a list
    /// of 10,000 sessions took twice as long).
    static func session(_ row: Row) -> ArchivedSession {
        func lines(_ index: Int) -> [String] {
            let text: String = row[index]
            return text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        var start: GeoPoint?
        if let lat: Double = row[17], let lon: Double = row[18] { start = GeoPoint(latitude: lat, longitude: lon) }
        var bounds: GeoBounds?
        if let s: Double = row[19], let n: Double = row[20], let w: Double = row[21], let e: Double = row[22] {
            bounds = GeoBounds(south: s, north: n, west: w, east: e)
        }
        return ArchivedSession(
            id: row[0], path: row[1], sizeBytes: row[2], modifiedNanoseconds: row[3], damage: row[4], title: row[5], boat: row[6],
            startUTC: row[7], elapsed: row[8], distance: row[9], strokes: row[10], averageRate: row[11], averageSplit: row[12],
            closed: row[13], notes: lines(14), courses: lines(15), places: lines(16), start: start, bounds: bounds, pieceCount: row[23])
    }

    /// The sessions whose files could not be read (wholly or in part), with why; of one boat's
    /// sessions when `boat` is given.
    public func damaged(boat: String? = nil) throws(ArchiveError) -> [(id: String, reason: String)] {
        try read { db in
            let sql = "SELECT id, damage FROM session WHERE damage IS NOT NULL" + (boat == nil ? "" : " AND boat = ? COLLATE NOCASE")
                + " ORDER BY start_utc DESC, id DESC"
            return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(boat.map { [$0] } ?? [])).map { ($0[0], $0[1]) }
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws(ArchiveError) -> T {
        do { return try database.read(body) } catch { throw ArchiveError("reading the index \(path ?? "in memory"): \(error)") }
    }

    func write(_ body: (Database) throws -> Void) throws(ArchiveError) {
        do { try database.write(body) } catch { throw ArchiveError("writing the index \(path ?? "in memory"): \(error)") }
    }
}

/// Why the index could not be opened, read or written.
public struct ArchiveError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
