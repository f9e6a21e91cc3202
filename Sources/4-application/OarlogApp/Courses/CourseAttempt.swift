import OarlogArchive
import OarlogCore

/// One complete passage of a kept course in a kept session, timed as `oarlog course` times it:
/// the leaderboard's row.
public struct CourseAttempt: Sendable, Equatable {
    /// A leg: `from`, `to` (gate names), `distance`, `time`, `strokes`, `strokeRate` (as the index
    /// keeps it), and its `split`.
    public typealias Leg = ArchivedAttempt.Leg

    public var course: String
    public var session: String
    public var boat: String
    /// The session's start (seconds since 1970, UTC): the attempt's date.
    public var startUTC: Double?
    /// Session time of the start crossing, seconds.
    public var start: Seconds
    /// Start to finish, seconds.
    public var time: Seconds
    public var distance: Metres
    public var legs: [Leg]

    public var finish: Seconds { start + time }
    public var split: SecondsPer500m? { distance > 0 && time > 0 ? time * 500 / distance : nil }
    public var strokes: Int { legs.reduce(0) { $0 + $1.strokes } }

    init(_ row: ArchivedAttempt, course: SavedCourse) {
        self.course = course.name
        session = row.session
        boat = row.boat
        startUTC = row.startUTC
        start = row.start
        time = row.time
        distance = course.length
        legs = row.legs
    }

    /// The attempt as `oarlog attempts --json` and `GET /api/courses/{name}/attempts` give it:
    /// `course`, `session`, `boat`, `date` (ISO 8601 UTC of the session's start, or null),
    /// `start_s`, `time_s`, `distance_m`, `split_s_per_500m`, `strokes`, and `legs`: `from`, `to`,
    /// `distance_m`, `time_s`, `split_s_per_500m`, `strokes`, `stroke_rate_spm`.
    public func write(into w: inout JSONWriter, rank: Int? = nil) {
        w.beginObject()
        if let rank { w.field("rank", rank) }
        w.field("course", course)
        w.field("session", session)
        w.field("boat", boat)
        w.field("date", startUTC.map { SessionText.iso($0 + start) })
        w.field("start_s", start, places: 2)
        w.field("time_s", time, places: 2)
        w.field("distance_m", distance, places: 1)
        w.field("split_s_per_500m", split, places: 2)
        w.field("strokes", strokes)
        w.beginArray(key: "legs")
        for leg in legs {
            w.beginObject()
            w.field("from", leg.from)
            w.field("to", leg.to)
            w.field("distance_m", leg.distance, places: 1)
            w.field("time_s", leg.time, places: 2)
            w.field("split_s_per_500m", leg.split, places: 2)
            w.field("strokes", leg.strokes)
            w.field("stroke_rate_spm", leg.strokeRate, places: 1)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    /// A leaderboard as a JSON array, ranked from 1.
    public static func json(_ attempts: [CourseAttempt]) -> String {
        var w = JSONWriter()
        w.beginArray()
        for (k, a) in attempts.enumerated() { a.write(into: &w, rank: k + 1) }
        w.endArray()
        return w.take()
    }
}

extension ArchivedAttempt.Leg {
    /// The leg's mean split, s/500 m.
    public var split: SecondsPer500m? { distance > 0 && time > 0 ? time * 500 / distance : nil }
}
