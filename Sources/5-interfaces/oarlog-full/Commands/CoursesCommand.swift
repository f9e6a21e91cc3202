import ArgumentParser
import OarlogApp
import OarlogCore
import OarlogTerminal

/// `oarlog courses`: the club's measured courses (`CourseLibrary`, beside the sessions). A
/// course added is searched for in every kept session; `oarlog attempts` is its leaderboard.
/// docs/COURSES.md.
struct Courses: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "courses",
        abstract: "Keep the club's measured courses: add, list, show, delete (see docs/COURSES.md).",
        discussion: """
            A course is a GeoJSON file with a start, markers and a finish (as `oarlog course` \
            reads; `oarlog fences make-course` makes a straight one). Every session kept, and every \
            one saved later, is searched for complete passages: `oarlog attempts --course NAME`.
            Examples:
              oarlog courses add bridge-to-boathouse.geojson --name "Bridge 2k"
              oarlog courses list
              oarlog courses show "Bridge 2k"
              oarlog courses delete "Bridge 2k"
            """,
        subcommands: [Add.self, List.self, Show.self, Delete.self]
    )

    /// Runs `work`, printing its error as `Error: …` with exit status 1.
    static func reporting<T>(_ work: () throws -> T) throws -> T {
        do { return try work() } catch {
            StandardStreams.error("Error: \(StoredText.escapedForTerminal("\(error)"))\n")
            throw ExitCode.failure
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Keep a GeoJSON course by name and find its attempts.")

        @Argument(help: "The GeoJSON course (start, markers, finish).")
        var file: String

        @Option(help: "The course's name: 1 to 80 printable characters.")
        var name: String

        @Flag(help: "Replace a course kept under this name.")
        var replace = false

        func run() throws {
            let added = try Courses.reporting { try SessionStore.default.addCourse(name: name, file: file, replacing: replace) }
            let c = added.course
            StandardStreams.write("kept \(StoredText.escapedForTerminal(c.name)): \(RowingFormat.distance(c.length)), "
                + "\(c.course.gates.count) gates; searched \(added.sessionsSearched) session\(added.sessionsSearched == 1 ? "" : "s"), "
                + "\(added.attempts.count) attempt\(added.attempts.count == 1 ? "" : "s") found\n")
            if !added.attempts.isEmpty { StandardStreams.write(AttemptTable.text(added.attempts)) }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "The kept courses: name, length, gates, attempts, best.")

        @Flag(help: "Print a JSON array: name, length_m, gates (name, distance_m), key, added, attempts, best_time_s.")
        var json = false

        func run() throws {
            let store = SessionStore.default
            if json {
                StandardStreams.write(try Courses.reporting { try store.coursesJSON() } + "\n")
                return
            }
            let (courses, attempts) = try Courses.reporting { (try store.courses.list(), try store.attempts()) }
            if courses.isEmpty {
                StandardStreams.error("no courses kept (oarlog courses add FILE --name NAME)\n")
            } else {
                let rows = [["name", "length", "gates", "attempts", "best"]] + courses.map { c in
                    let mine = attempts.filter { $0.course == c.name }
                    return [StoredText.escapedForTerminal(c.name), RowingFormat.distance(c.length), String(c.course.gates.count),
                            String(mine.count), mine.first.map { RowingFormat.duration($0.time) } ?? "—"]
                }
                StandardStreams.write(TextTable.columns(rows, rightAligned: [1, 2, 3, 4]))
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "A course's gates and its best attempts.")

        @Argument(help: "The course's name.")
        var name: String

        @Flag(help: "Print the course as JSON, with its GeoJSON as `fences`.")
        var json = false

        func run() throws {
            let store = SessionStore.default
            let (course, attempts) = try Courses.reporting {
                let c = try store.courses.course(named: name)
                return (c, try store.attempts(course: c.name))
            }
            if json {
                StandardStreams.write(course.json(withGeoJSON: true, attempts: attempts.count, best: attempts.first) + "\n")
                return
            }
            StandardStreams.write("\(StoredText.escapedForTerminal(course.name)): \(RowingFormat.distance(course.length))\n")
            let gates = [["gate", "distance"]] + zip(course.gateNames, course.course.distances).map {
                [StoredText.escapedForTerminal($0.0), RowingFormat.distance($0.1)]
            }
            StandardStreams.write(TextTable.columns(gates, rightAligned: [1]))
            StandardStreams.write(attempts.isEmpty ? "no attempts yet\n" : "\(attempts.count) attempt\(attempts.count == 1 ? "" : "s"):\n"
                                  + AttemptTable.text(Array(attempts.prefix(10))))
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Forget a course (its attempts are forgotten too; sessions stay).")

        @Argument(help: "The course's name.")
        var name: String

        func run() throws {
            try Courses.reporting { try SessionStore.default.removeCourse(name: name) }
            StandardStreams.write("deleted \(StoredText.escapedForTerminal(name))\n")
        }
    }
}

/// `oarlog attempts`: the leaderboard of the kept courses' attempts, fastest first.
struct Attempts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attempts",
        abstract: "Every complete passage of the kept courses, fastest first (see docs/COURSES.md).")

    @Option(help: "Only this course's attempts.")
    var course: String?

    @Option(help: "Only this boat's attempts.")
    var boat: String?

    @Flag(help: "Print a JSON array: course, session, boat, date, start_s, time_s, legs (from, to, time_s, split_s_per_500m, …).")
    var json = false

    func run() throws {
        let attempts = try Courses.reporting { try SessionStore.default.attempts(course: course, boat: boat) }
        if json {
            StandardStreams.write(CourseAttempt.json(attempts) + "\n")
        } else if attempts.isEmpty {
            StandardStreams.error("no attempts\(course.map { " of \(StoredText.escapedForTerminal($0))" } ?? "")\n")
        } else {
            StandardStreams.write(AttemptTable.text(attempts))
        }
    }
}

/// The leaderboard as a table: rank, course, time, split, boat, date, session.
enum AttemptTable {
    static func text(_ attempts: [CourseAttempt]) -> String {
        let rows = [["#", "course", "time", "split", "boat", "date", "session"]] + attempts.enumerated().map { k, a in
            [String(k + 1), StoredText.escapedForTerminal(a.course), RowingFormat.duration(a.time), RowingFormat.split(a.split),
             a.boat.isEmpty ? "—" : StoredText.escapedForTerminal(a.boat), a.startUTC.map { SessionText.date($0 + a.start) } ?? "—", a.session]
        }
        return TextTable.columns(rows, rightAligned: [0, 2, 3])
    }
}
