import Foundation
import OarlogCore
import OarlogFences
import OarlogSession

/// The attempt a crew races (`--course NAME --ghost best|SESSION[:K]`, the live page's choice),
/// read from its session's fixes through the one door.
///
/// The reference is read from every fix of its session (not only those of the attempt), through
/// the same fence monitor the boat's ghost stage and the attempt search run from the first fix,
/// so the attempt's start and gates are timed exactly as they were when it was found; only the
/// points between its start and finish are kept (`GhostReference`).
extension SessionStore {
    /// A course a person names: a saved course's name, else a GeoJSON file (with the saved course
    /// of the same gates, if one is kept: its attempts are the leaderboard `best` is taken from).
    public func ghostCourse(named name: String) throws -> (file: FenceFile, saved: SavedCourse?) {
        if let saved = try? courses.course(named: name) { return (saved.file, saved) }
        guard FileManager.default.fileExists(atPath: name) else {
            throw AppError("--course '\(name)': no course is saved by that name (`oarlog courses list`) and no such file")
        }
        let file = try FenceFile.load(path: name)
        guard file.course != nil, CourseRuler(file: file) != nil else {
            throw AppError("--course \(name): the file has no course (gates with \"role\": start and finish; docs/FENCES.md)")
        }
        let key = CourseCheck.key(file)
        return (file, try courses.list().first { $0.key == key })
    }

    /// The reference for `--course NAME --ghost CHOICE` as a person names them: a course's name
    /// or file, a session's id, unique start of one, or `last`. `best` is the fastest kept attempt
    /// of `boat` (any boat when nil).
    public func ghostReference(course name: String, choice: GhostChoice, boat: String?) throws -> GhostReference {
        let (file, saved) = try ghostCourse(named: name)
        switch choice {
        case .best:
            guard let saved else {
                throw AppError("--ghost best: \(name) is not a saved course, so it has no leaderboard; add it "
                    + "(`oarlog courses add \(name) --name NAME`) or race a session's attempt: --ghost SESSION[:K]")
            }
            return try best(of: saved, boat: boat)
        case .session(let reference, let k):
            let path = try path(of: reference)
            return try Self.attempt(k, of: file, inFile: path, session: SessionText.id(of: path))
        }
    }

    /// The reference as the live page chooses it: a saved course by name and an exact session id
    /// (never a file). Errors are the store's: no such course, session or attempt (404), a
    /// session that cannot be read (422).
    public func ghostReference(savedCourse name: String, choice: GhostChoice, boat: String?) throws(SessionStoreError) -> GhostReference {
        let saved: SavedCourse
        do { saved = try courses.course(named: name) } catch { throw .notFound("\(error)") }
        switch choice {
        case .best:
            do { return try best(of: saved, boat: boat) } catch let error as SessionStoreError { throw error } catch {
                throw .unreadable("\(error)")
            }
        case .session(let id, let k):
            let path = try file(id: id)
            return try Self.unreadable { try Self.attempt(k, of: saved.file, inFile: path, session: id) }
        }
    }

    /// The fastest kept attempt of `course` (of `boat` when given).
    func best(of course: SavedCourse, boat: String?) throws -> GhostReference {
        guard let fastest = try attempts(course: course.name, boat: boat).first else {
            throw SessionStoreError.notFound("no attempt of \(course.name) is kept yet" + (boat.map { " for boat \($0)" } ?? ""))
        }
        let path = try file(id: fastest.session)
        let fixes = try Self.unreadable { try SessionReader(path: path).fixes(onDamage: .skipDamagedChunks) }
        guard let reference = GhostReference.read(file: course.file, fixes: fixes, startTime: fastest.start, session: fastest.session) else {
            throw SessionStoreError.unreadable("the attempt of \(course.name) at \(RowingFormat.duration(fastest.start)) in \(fastest.session) was not found again in its fixes")
        }
        return reference
    }

    /// The `k`-th complete passage (1-based) of the course in a session file.
    static func attempt(_ k: Int, of file: FenceFile, inFile path: String, session: String) throws -> GhostReference {
        let fixes = try SessionReader(path: path).fixes(onDamage: .skipDamagedChunks)
        let passages = CourseSearch.passages(of: file, fixes: fixes, strokes: [])
        guard k <= passages.count else {
            let name = file.course?.name ?? "the course"
            throw SessionStoreError.notFound(passages.isEmpty ? "session \(session) has no complete attempt of \(name)"
                : "session \(session) has \(passages.count) attempt\(passages.count == 1 ? "" : "s") of \(name): no attempt \(k)")
        }
        guard let reference = GhostReference.read(file: file, fixes: fixes, startTime: passages[k - 1].startTime, session: session) else {
            throw SessionStoreError.unreadable("attempt \(k) of session \(session) was found but could not be read again")
        }
        return reference
    }
}
