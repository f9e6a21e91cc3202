import OarlogCore

/// Two attempts of one course side by side (`GET /api/courses/{name}/compare?a=…&b=…`): each
/// one's time at every gate (from its start crossing), the gap at each gate — B's time there
/// minus A's, positive when A is ahead — and what each leg gained, with both attempts' tracks
/// from their start crossing to their finish (the session's `SessionTrail`, cut at the two
/// crossings, times and distances from the start) for the course page's map.
public struct CourseComparison: Sendable {
    public struct Side: Sendable {
        public var attempt: CourseAttempt
        /// Its place on the course's whole leaderboard, from 1.
        public var rank: Int
        /// Seconds from the start crossing to each gate, in course order (the start's is 0).
        public var gateTimes: [Seconds]
        /// The track from the start crossing to the finish: `time` and `distance` from the start.
        public var trail: [SessionTrail.Point]
    }

    /// An attempt as a person names it on the page: `3` (its rank on the leaderboard, from 1),
    /// `SESSION:K` (the session's K-th passage of the course, in the order rowed) or `SESSION`
    /// (its first).
    public enum Reference: Sendable, Equatable {
        case rank(Int)
        case session(String, passage: Int)

        public init(_ text: String) throws(SessionStoreError) {
            if !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }) {
                guard let k = Int(text), k >= 1 else { throw .badRequest("\(text): a rank is a whole number from 1") }
                self = .rank(k)
                return
            }
            guard let colon = text.lastIndex(of: ":") else {
                guard !text.isEmpty else { throw .badRequest("name an attempt: its rank (1, 2, …) or SESSION:K") }
                self = .session(text, passage: 1)
                return
            }
            let id = String(text[..<colon])
            guard !id.isEmpty, let k = Int(text[text.index(after: colon)...]), k >= 1 else {
                throw .badRequest("\(text): an attempt is its rank (1, 2, …) or SESSION:K, K a whole number from 1")
            }
            self = .session(id, passage: k)
        }
    }

    public let course: SavedCourse
    public let a: Side
    public let b: Side

    /// The gap at each gate, B's time minus A's (seconds; positive: A ahead).
    public var gaps: [Seconds] { zip(a.gateTimes, b.gateTimes).map { $1 - $0 } }

    /// `course`, `length_m`, `a` and `b` (each the leaderboard's object, with its `rank`),
    /// `gates` (in course order: `gate`, `distance_m`, `a_s` and `b_s` from each start crossing,
    /// `gap_s`, and for the leg that ends there `a_leg_s`, `b_leg_s`, `leg_gap_s` — B's leg time
    /// minus A's — null at the start), `gap_s` (at the finish) and `trails` (`a`, `b`: `points`,
    /// `t_s` and `distance_m` from the start crossing, `lat_deg`, `lon_deg`; at most `points`
    /// each, evenly spread with the first and last kept).
    public func json(trailPoints: Int) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("course", course.name)
        w.field("length_m", course.length, places: 1)
        for (key, side) in [("a", a), ("b", b)] {
            var one = JSONWriter()
            side.attempt.write(into: &one, rank: side.rank)
            w.field(key, json: one.take())
        }
        w.beginArray(key: "gates")
        let names = course.gateNames
        for k in 0..<min(a.gateTimes.count, b.gateTimes.count, names.count) {
            w.beginObject()
            w.field("gate", names[k])
            w.field("distance_m", course.course.distances[k], places: 1)
            w.field("a_s", a.gateTimes[k], places: 2)
            w.field("b_s", b.gateTimes[k], places: 2)
            w.field("gap_s", b.gateTimes[k] - a.gateTimes[k], places: 2)
            let legA = k > 0 ? a.gateTimes[k] - a.gateTimes[k - 1] : nil
            let legB = k > 0 ? b.gateTimes[k] - b.gateTimes[k - 1] : nil
            w.field("a_leg_s", legA, places: 2)
            w.field("b_leg_s", legB, places: 2)
            w.field("leg_gap_s", legA.flatMap { la in legB.map { $0 - la } }, places: 2)
            w.endObject()
        }
        w.endArray()
        w.field("gap_s", b.attempt.time - a.attempt.time, places: 2)
        w.beginObject(key: "trails")
        for (key, side) in [("a", a), ("b", b)] {
            let chosen = SessionTrail.thinned(side.trail, to: trailPoints)
            w.beginObject(key: key)
            w.field("points", chosen.count)
            w.array("t_s", chosen.map(\.time), places: 2)
            w.array("lat_deg", chosen.map(\.latitude), places: 7)
            w.array("lon_deg", chosen.map(\.longitude), places: 7)
            w.array("distance_m", chosen.map(\.distance), places: 1)
            w.endObject()
        }
        w.endObject()
        w.endObject()
        return w.take()
    }

    /// Seconds from the start crossing to each gate: 0, then the legs' times added up.
    static func gateTimes(_ attempt: CourseAttempt) -> [Seconds] {
        var times: [Seconds] = [0]
        for leg in attempt.legs { times.append(times[times.count - 1] + leg.time) }
        return times
    }

    /// The part of `points` from session time `from` to `to`, with a point at each end placed
    /// between its neighbours; time and distance counted from `from`.
    static func stretch(_ points: [SessionTrail.Point], from: Seconds, to: Seconds) -> [SessionTrail.Point] {
        guard let first = points.first, let last = points.last, to > from else { return [] }
        func at(_ t: Seconds) -> SessionTrail.Point {
            if t <= first.time { return first }
            if t >= last.time { return last }
            let k = points.firstIndex { $0.time >= t }!
            let (p, q) = (points[k - 1], points[k])
            let f = q.time > p.time ? (t - p.time) / (q.time - p.time) : 0
            return SessionTrail.Point(time: t, latitude: p.latitude + f * (q.latitude - p.latitude),
                                      longitude: p.longitude + f * (q.longitude - p.longitude), distance: p.distance + f * (q.distance - p.distance))
        }
        let start = at(from), end = at(to)
        let inside = [start] + points.filter { $0.time > from && $0.time < to } + [end]
        return inside.map {
            SessionTrail.Point(time: $0.time - from, latitude: $0.latitude, longitude: $0.longitude, distance: $0.distance - start.distance)
        }
    }
}

extension SessionStore {
    /// The attempts `a` and `b` of the course named `course` compared gate by gate, with their
    /// tracks. A reference that does not read is `badRequest`; a rank past the leaderboard, or a
    /// session without that passage, `notFound`.
    public func compareAttempts(course name: String, _ a: CourseComparison.Reference, _ b: CourseComparison.Reference) throws -> CourseComparison {
        let course = try courses.course(named: name)
        let board = try attempts(course: course.name)
        func side(_ reference: CourseComparison.Reference) throws -> CourseComparison.Side {
            let rank: Int
            switch reference {
            case .rank(let k):
                guard k <= board.count else {
                    throw CourseLibraryError.notFound("no attempt ranked \(k): \(CourseLibrary.quoted(course.name)) has \(board.count)")
                }
                rank = k
            case .session(let id, let passage):
                let mine = board.enumerated().filter { $0.element.session == id }.sorted { $0.element.start < $1.element.start }
                guard passage <= mine.count else {
                    throw CourseLibraryError.notFound(mine.isEmpty ? "the session \(id) has no attempt of \(CourseLibrary.quoted(course.name))"
                                                                   : "the session \(id) has \(mine.count) attempt\(mine.count == 1 ? "" : "s") of \(CourseLibrary.quoted(course.name)), not \(passage)")
                }
                rank = mine[passage - 1].offset + 1
            }
            let attempt = board[rank - 1]
            let trail = try Self.unreadable { try SessionTrail(try reader(id: attempt.session)) }
            return CourseComparison.Side(attempt: attempt, rank: rank, gateTimes: CourseComparison.gateTimes(attempt),
                                         trail: CourseComparison.stretch(trail.points, from: attempt.start, to: attempt.finish))
        }
        return CourseComparison(course: course, a: try side(a), b: try side(b))
    }
}
