import OarlogCore

/// What the web app's course pages read (`GET /api/courses`, `GET /api/courses/{name}`), made
/// from the library and the leaderboard as `oarlog courses list --json` and `oarlog attempts
/// --json` make them.
extension SessionStore {
    /// Every course as `oarlog courses list --json` gives it: `name`, `length_m`, `gates`, `key`,
    /// `added`, `attempts` (how many) and `best_time_s`.
    public func coursesJSON() throws -> String {
        let all = try courses.list()
        let attempts = all.isEmpty ? [] : try self.attempts()
        let items = all.map { c in
            let mine = attempts.filter { $0.course == c.name }
            return c.json(withGeoJSON: false, attempts: mine.count, best: mine.first)
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    /// One course for its page: the object of the list with its GeoJSON as `fences`, and
    /// `leaderboard`, its attempts ranked fastest first (`oarlog attempts --course NAME --json`),
    /// only boat `boat`'s when given (`attempts` and `best_time_s` then count that boat's too).
    public func courseJSON(named name: String, boat: String? = nil) throws -> String {
        let course = try courses.course(named: name)
        let attempts = try self.attempts(course: course.name, boat: boat)
        let object = course.json(withGeoJSON: true, attempts: attempts.count, best: attempts.first)
        // The course object's closing brace makes way for the leaderboard.
        return String(object.dropLast()) + ",\"leaderboard\":" + CourseAttempt.json(attempts) + "}"
    }
}
