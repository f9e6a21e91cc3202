import OarlogCore

/// What the live page offers to race (`GET /api/live/ghost/choices`): every saved course with
/// its leaderboard's fastest attempts, each named as `PUT /api/live/ghost` takes it (`ID:K`).
extension SessionStore {
    /// `[{"name", "length_m", "attempts": [{"ghost": "ID:K", "session", "attempt", "boat", "date",
    /// "time_s"}]}]`: the courses by name, at most `perCourse` attempts each, fastest first.
    public func ghostChoicesJSON(perCourse: Int = 10) throws(SessionStoreError) -> String {
        try Self.unreadable {
            var w = JSONWriter()
            w.beginArray()
            for course in try courses.list().sorted(by: { $0.name.lowercased() < $1.name.lowercased() }) {
                let all = try attempts(course: course.name)
                // K: the attempt's place among its session's attempts of the course, by start.
                var starts: [String: [Seconds]] = [:]
                for a in all { starts[a.session, default: []].append(a.start) }
                for key in starts.keys { starts[key]!.sort() }
                w.beginObject()
                w.field("name", course.name)
                w.field("length_m", course.length, places: 1)
                w.beginArray(key: "attempts")
                for a in all.prefix(perCourse) {
                    let k = (starts[a.session]?.firstIndex(of: a.start) ?? 0) + 1
                    w.beginObject()
                    w.field("ghost", "\(a.session):\(k)")
                    w.field("session", a.session)
                    w.field("attempt", k)
                    w.field("boat", a.boat)
                    w.field("date", a.startUTC.map { SessionText.iso($0 + a.start) })
                    w.field("time_s", a.time, places: 2)
                    w.endObject()
                }
                w.endArray()
                w.endObject()
            }
            w.endArray()
            return w.take()
        }
    }
}
