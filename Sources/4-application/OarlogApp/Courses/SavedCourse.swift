import OarlogCore
import OarlogFences

/// A course kept in the `CourseLibrary`: its name, the GeoJSON as it was added, and what that
/// file defines (the gates in order, their distances, the geometry key attempts are kept by).
public struct SavedCourse: Sendable, Equatable {
    public let name: String
    /// The GeoJSON text as added.
    public let geoJSON: String
    public let file: FenceFile
    public let course: Course
    /// The geometry key (`CourseCheck.key`): the archive keeps the course's attempts by it.
    public let key: String
    /// When it was added (seconds since 1970, UTC).
    public let addedUTC: Double?

    /// The course in `geoJSON`, checked as `oarlog courses add` checks it.
    init(name: String, geoJSON: String, addedUTC: Double?) throws(CourseLibraryError) {
        if let problem = CourseLibrary.nameProblem(name) { throw .badCourse("name: \(problem)") }
        let file: FenceFile
        do { file = try FenceFile.parse(geoJSON, file: name) } catch { throw .badCourse("\(error)") }
        if let problem = CourseCheck.problem(file) { throw .badCourse("\(CourseLibrary.quoted(name)) is not a course to keep: \(problem)") }
        self.name = name
        self.geoJSON = geoJSON
        self.file = file
        course = file.course!
        key = CourseCheck.key(file)
        self.addedUTC = addedUTC
    }

    public var length: Metres { course.length }

    /// The gates' names in course order.
    public var gateNames: [String] { course.gates.map(\.name) }

    /// What `courses list --json` and `GET /api/courses` give for it: `name`, `length_m`,
    /// `gates` (names in order, with `distance_m`), `key`, `added` (ISO 8601) and, when asked,
    /// the GeoJSON object as `fences`.
    public func json(withGeoJSON: Bool, attempts: Int? = nil, best: CourseAttempt? = nil) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("name", name)
        w.field("length_m", length, places: 1)
        w.beginArray(key: "gates")
        for (k, gate) in course.gates.enumerated() {
            w.beginObject()
            w.field("name", gate.name)
            w.field("distance_m", course.distances[k], places: 1)
            w.endObject()
        }
        w.endArray()
        w.field("key", key)
        w.field("added", addedUTC.map(SessionText.iso))
        if let attempts { w.field("attempts", attempts) }
        if attempts != nil { w.field("best_time_s", best?.time, places: 1) }
        if withGeoJSON { w.field("fences", json: geoJSON) }
        w.endObject()
        return w.take()
    }
}
