import OarlogArchive
import OarlogCore
import OarlogFences
import OarlogSession

/// The courses and their attempts, through the one door: a course added is searched for in every
/// kept session at once; a session saved (live, from a replay, imported) is searched for every
/// course; and every question about attempts first searches whatever was not yet searched, so
/// the leaderboard is never behind the files. What was searched is kept in the archive's index
/// by the course's geometry key and dropped with the session's row when its file changes.
extension SessionStore {
    /// The club's courses, beside these sessions.
    public var courses: CourseLibrary { CourseLibrary(sessionsPath: path) }

    /// What adding a course did: the course, and how many sessions were read for it and what
    /// was found there.
    public struct CourseAdded: Sendable {
        public var course: SavedCourse
        public var sessionsSearched: Int
        public var attempts: [CourseAttempt]
    }

    /// Keeps the course and searches every kept session for it.
    public func addCourse(name: String, geoJSON: String, replacing: Bool = false) throws -> CourseAdded {
        let course = try courses.add(name: name, geoJSON: geoJSON, replacing: replacing)
        var archive = try SessionArchive(directory)
        let searched = try Self.search(course, in: &archive)
        let found = try archive.index.attempts(courseKeys: [course.key]).map { CourseAttempt($0, course: course) }
        return CourseAdded(course: course, sessionsSearched: searched, attempts: found)
    }

    /// Removes the course and forgets its attempts.
    public func removeCourse(name: String) throws {
        let removed = try courses.remove(name: name)
        if try !courses.list().contains(where: { $0.key == removed.key }) {
            try SessionArchive(directory).index.forgetCourse(key: removed.key)
        }
    }

    /// The leaderboard: every attempt of the course named `course` (every course when nil), of
    /// boat `boat` when given, fastest first. Sessions not yet searched are searched first.
    public func attempts(course name: String? = nil, boat: String? = nil) throws -> [CourseAttempt] {
        let chosen = try name.map { [try courses.course(named: $0)] } ?? courses.list()
        guard !chosen.isEmpty else { return [] }
        var archive = try SessionArchive(directory)
        for course in chosen { _ = try Self.search(course, in: &archive) }
        let byKey = Dictionary(chosen.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        return try archive.index.attempts(courseKeys: chosen.map(\.key), boat: boat).compactMap { row in
            byKey[row.courseKey].map { CourseAttempt(row, course: $0) }
        }
    }

    /// Searches the session `id` for every course (after it is saved): its attempts.
    @discardableResult
    public func searchCourses(inSession id: String) throws -> [CourseAttempt] {
        let all = try courses.list()
        guard !all.isEmpty else { return [] }
        var archive = try SessionArchive(directory)
        for course in all { _ = try Self.search(course, in: &archive) }
        let byKey = Dictionary(all.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        return try archive.index.attempts(courseKeys: all.map(\.key)).filter { $0.session == id }.compactMap { row in
            byKey[row.courseKey].map { CourseAttempt(row, course: $0) }
        }
    }

    /// Searches every session not yet searched for `course` whose track could hold it; how many
    /// were read. Results go into the index 32 sessions at a time.
    static func search(_ course: SavedCourse, in archive: inout SessionArchive) throws -> Int {
        let candidates = try archive.index.unsearched(courseKey: course.key,
                                                      boxes: CourseSearch.startAndFinishBoxes(of: course.file))
        var batch: [(session: String, attempts: [ArchivedAttempt])] = []
        for candidate in candidates {
            batch.append((candidate.id, passages(of: course, inFile: candidate.path, session: candidate.id)))
            if batch.count == 32 {
                try archive.index.recordSearches(courseKey: course.key, batch)
                batch.removeAll(keepingCapacity: true)
            }
        }
        try archive.index.recordSearches(courseKey: course.key, batch)
        return candidates.count
    }

    /// The course's complete passages in one session file (none when it cannot be read: it is
    /// searched again when its file changes).
    static func passages(of course: SavedCourse, inFile path: String, session: String) -> [ArchivedAttempt] {
        guard let reader = try? SessionReader(path: path),
              let fixes = try? reader.fixes(onDamage: .skipDamagedChunks) else { return [] }
        let strokes = ((try? reader.strokes(onDamage: .skipDamagedChunks)) ?? []).map {
            CourseSearch.Stroke(catchTime: $0.stroke.catchTime, rate: $0.stroke.strokeRate ?? $0.smoothedRate)
        }
        return CourseSearch.passages(of: course.file, fixes: fixes, strokes: strokes).map { piece in
            ArchivedAttempt(courseKey: course.key, session: session, start: piece.startTime, time: piece.duration,
                            legs: piece.segments.map {
                                ArchivedAttempt.Leg(from: $0.from.name, to: $0.to.name, distance: $0.distance, time: $0.duration,
                                                    strokes: $0.strokes, strokeRate: $0.strokeRate)
                            })
        }
    }

    /// A course made on a session's map: start and finish where the person tapped, gates square
    /// to the session's own track, markers every 500 m of it (`CourseFromTrack`); kept as `name`
    /// and searched for like any course added.
    public func makeCourse(fromSession id: String, start: GeoPoint, finish: GeoPoint, name: String) throws -> CourseAdded {
        let reader = try reader(id: id)
        let trail = try Self.unreadable { try SessionTrail(reader) }
        let track = trail.points.map { CourseFromTrack.Point(position: GeoPoint(latitude: $0.latitude, longitude: $0.longitude), distance: $0.distance) }
        let text: String
        do { text = try CourseFromTrack.geoJSON(track: track, start: start, finish: finish, name: name) } catch {
            throw CourseLibraryError.badCourse(error.description)
        }
        return try addCourse(name: name, geoJSON: text)
    }
}

extension SessionStore {
    /// `oarlog courses add FILE --name NAME`: the GeoJSON file kept as the course `name`.
    public func addCourse(name: String, file path: String, replacing: Bool = false) throws -> CourseAdded {
        let file: FenceFile
        do { file = try FenceFile.load(path: path) } catch { throw CourseLibraryError.badCourse("\(error)") }
        guard let text = file.sourceText else { throw CourseLibraryError.badCourse("\(path) is over 1 MiB") }
        return try addCourse(name: name, geoJSON: text, replacing: replacing)
    }
}
