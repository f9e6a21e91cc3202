import ArgumentParser
import OarlogApp
import OarlogCore
import OarlogFences

/// `--course NAME --ghost best|SESSION[:K]` on `replay` and `record` (docs/GHOST.md): race an
/// attempt of a course — the fastest kept (of `--boat`, when given), or a session's K-th.
struct GhostOptions: ParsableArguments {
    @Option(help: "The course to race on: a saved course's name (`oarlog courses list`) or a GeoJSON course file; with --ghost.")
    var course: String?

    @Option(help: "The attempt to race: best (the fastest kept, of --boat when given) or SESSION[:K] (a session's K-th attempt, default 1).")
    var ghost: String?

    func validate() throws {
        try GhostArgument.validate(course: course, ghost: ghost)
    }

    /// The attempt to race, read through the store (nil without --ghost).
    func reference(boat: String?) throws -> GhostReference? {
        try GhostArgument.reference(course: course, ghost: ghost, boat: boat)
    }
}

/// The checks and the reading `--course`/`--ghost` share on every command (`serve` has its own
/// `--course`, also a coach's race course).
enum GhostArgument {
    static func validate(course: String?, ghost: String?) throws {
        if let ghost {
            guard course != nil else { throw ValidationError("--ghost races an attempt of a course: add --course NAME") }
            do { _ = try GhostChoice(parsing: ghost) } catch { throw ValidationError("--ghost \(error)") }
        } else if course != nil {
            throw ValidationError("--course names the course to race: add --ghost best or --ghost SESSION[:K]")
        }
    }

    static func reference(course: String?, ghost: String?, boat: String?) throws -> GhostReference? {
        guard let course, let ghost else { return nil }
        do {
            return try SessionStore.default.ghostReference(course: course, choice: try GhostChoice(parsing: ghost), boat: boat)
        } catch {
            throw CommandFailure("--ghost \(ghost): \(error)")
        }
    }

    /// The line said when the race is set: whose attempt, and its time.
    static func describe(_ reference: GhostReference) -> String {
        "racing the ghost of session \(reference.session) on \(reference.course.name) (\(RowingFormat.duration(reference.time)), start at \(RowingFormat.duration(reference.startTime)) into it)\n"
    }
}
