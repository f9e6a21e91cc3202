import GRDB
import OarlogCore

/// A course attempt as the index keeps it: derived from a session file and a course (by the
/// course's geometry key), dropped with the session's row whenever the file changes or goes.
public struct ArchivedAttempt: Sendable, Equatable {
    public struct Leg: Sendable, Equatable {
        public var from: String
        public var to: String
        public var distance: Metres
        public var time: Seconds
        public var strokes: Int
        public var strokeRate: StrokesPerMinute?
        public init(from: String, to: String, distance: Metres, time: Seconds, strokes: Int, strokeRate: StrokesPerMinute?) {
            self.from = from
            self.to = to
            self.distance = distance
            self.time = time
            self.strokes = strokes
            self.strokeRate = strokeRate
        }
    }

    public var courseKey: String
    public var session: String
    public var boat: String
    public var startUTC: Double?
    /// Session time of the start crossing, and start to finish, seconds.
    public var start: Seconds
    public var time: Seconds
    public var legs: [Leg]

    public init(courseKey: String, session: String, boat: String = "", startUTC: Double? = nil, start: Seconds, time: Seconds, legs: [Leg]) {
        self.courseKey = courseKey
        self.session = session
        self.boat = boat
        self.startUTC = startUTC
        self.start = start
        self.time = time
        self.legs = legs
    }
}

/// The course attempts in the index: which sessions were searched for which course (so a
/// session is read once per course, not at every question), and what was found.
extension SessionIndex {
    static func createAttemptTables(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE course_search (
                session_rowid INTEGER NOT NULL REFERENCES session(rowid) ON DELETE CASCADE,
                course_key TEXT NOT NULL,
                PRIMARY KEY (session_rowid, course_key)
            );
            CREATE TABLE attempt (
                session_rowid INTEGER NOT NULL REFERENCES session(rowid) ON DELETE CASCADE,
                course_key TEXT NOT NULL,
                start_s REAL NOT NULL,
                time_s REAL NOT NULL,
                legs TEXT NOT NULL
            );
            CREATE INDEX attempt_by_course ON attempt(course_key, time_s);
            CREATE INDEX attempt_by_session ON attempt(session_rowid);
            """)
    }

    /// A session that may hold an attempt of a course and was not yet searched for it.
    public struct SearchCandidate: Sendable, Equatable {
        public var id: String
        public var path: String
    }

    /// The sessions not yet searched for the course `key` whose track's box takes in every one of
    /// `boxes` (south, north, west, east): only they can hold a passage.
    public func unsearched(courseKey key: String, boxes: [(south: Degrees, north: Degrees, west: Degrees, east: Degrees)])
        throws(ArchiveError) -> [SearchCandidate] {
        var sql = "SELECT id, path FROM session WHERE south IS NOT NULL"
        var arguments: [any DatabaseValueConvertible] = []
        for box in boxes {
            sql += " AND south <= ? AND north >= ? AND west <= ? AND east >= ?"
            arguments += [box.north, box.south, box.east, box.west]
        }
        sql += " AND rowid NOT IN (SELECT session_rowid FROM course_search WHERE course_key = ?) ORDER BY id"
        arguments.append(key)
        return try read { db in
            try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { SearchCandidate(id: $0[0], path: $0[1]) }
        }
    }

    /// Records that these sessions were searched for the course `key`, with what was found in
    /// each (one transaction). A session gone from the index meanwhile, or searched meanwhile by another process, is passed over.
    public func recordSearches(courseKey key: String, _ found: [(session: String, attempts: [ArchivedAttempt])]) throws(ArchiveError) {
        try write { db in
            for (session, attempts) in found {
                guard let rowid = try Int64.fetchOne(db, sql: "SELECT rowid FROM session WHERE id = ?", arguments: [session]) else { continue }
                // Searched meanwhile by another process (the server and a command at once): its
                // rows stand, these are not added twice.
                try db.execute(sql: "INSERT OR IGNORE INTO course_search (session_rowid, course_key) VALUES (?, ?)", arguments: [rowid, key])
                guard db.changesCount > 0 else { continue }
                for a in attempts {
                    try db.execute(sql: "INSERT INTO attempt (session_rowid, course_key, start_s, time_s, legs) VALUES (?, ?, ?, ?, ?)",
                                   arguments: [rowid, key, a.start, a.time, Self.legsText(a.legs)])
                }
            }
        }
    }

    /// The attempts of the courses `keys`, fastest first (ties by date), optionally of one boat.
    public func attempts(courseKeys keys: [String], boat: String? = nil) throws(ArchiveError) -> [ArchivedAttempt] {
        guard !keys.isEmpty else { return [] }
        var sql = """
            SELECT attempt.course_key, session.id, session.boat, session.start_utc, attempt.start_s, attempt.time_s, attempt.legs
            FROM attempt JOIN session ON session.rowid = attempt.session_rowid
            WHERE attempt.course_key IN (\(keys.map { _ in "?" }.joined(separator: ", ")))
            """
        var arguments: [any DatabaseValueConvertible] = keys
        if let boat {
            sql += " AND session.boat = ? COLLATE NOCASE"
            arguments.append(boat)
        }
        sql += " ORDER BY attempt.time_s, session.start_utc, session.id, attempt.start_s"
        return try read { db in
            try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { row in
                ArchivedAttempt(courseKey: row[0], session: row[1], boat: row[2], startUTC: row[3], start: row[4], time: row[5],
                                legs: Self.legs(fromText: row[6]))
            }
        }
    }

    /// Forgets a course's searches and attempts (the course was deleted).
    public func forgetCourse(key: String) throws(ArchiveError) {
        try write { db in
            try db.execute(sql: "DELETE FROM attempt WHERE course_key = ?", arguments: [key])
            try db.execute(sql: "DELETE FROM course_search WHERE course_key = ?", arguments: [key])
        }
    }

    /// Legs as text, a line each: from, to, distance, time, strokes, rate (tab-separated; names
    /// with tabs or line breaks have them as spaces).
    static func legsText(_ legs: [ArchivedAttempt.Leg]) -> String {
        func clean(_ s: String) -> String { String(s.map { $0 == "\t" || $0.isNewline ? " " : $0 }) }
        return legs.map { leg in
            [clean(leg.from), clean(leg.to), "\(leg.distance)", "\(leg.time)", "\(leg.strokes)", leg.strokeRate.map { "\($0)" } ?? ""]
                .joined(separator: "\t")
        }.joined(separator: "\n")
    }

    static func legs(fromText text: String) -> [ArchivedAttempt.Leg] {
        text.split(separator: "\n").compactMap { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 6, let d = Double(f[2]), let t = Double(f[3]), let n = Int(f[4]) else { return nil }
            return ArchivedAttempt.Leg(from: f[0], to: f[1], distance: d, time: t, strokes: n, strokeRate: Double(f[5]))
        }
    }
}
