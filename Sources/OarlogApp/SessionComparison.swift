import OarlogAPI
import OarlogCore
import OarlogFences
import OarlogReport
import OarlogSession

/// Two outings, or two pieces, on the same water side by side (`oarlog compare`, `GET
/// /api/compare`): each cut at every 500 m of its own GPS distance (`SessionTrail`: the distance
/// accumulator's, fix by fix; the time at a mark interpolated between the two fixes around it),
/// or at the gates of a course; per segment each side's time at its end, the segment's time,
/// split, strokes and rate, and the gap — B's time at the mark minus A's (positive: A ahead) —
/// with what A gained in the segment. Segments run to the shorter side's end; the last may be a
/// partial one (flagged).
///
/// A side is a whole session (from when its GPS distance first grows to when it last grows: not
/// the wait at the landing stage before or after) or one of its pieces
/// (`SessionPieces`: the runs of rowing between rests, or its recorded course legs; `ID:K`, K
/// from 1), from the piece's first catch to its end. With a course, each side's stretch runs
/// from its start-gate crossing to its finish (the first complete passage in the stretch, else
/// the one that got furthest), the crossings found by `FenceMonitor` over the session's fixes.
///
/// Strokes are the catches in the segment (`[start, end)`); the rate counts the stroke under way
/// at each end as the fraction of its cycle done, so a constant 30 spm gives 30.0 whatever the
/// segment's phase. No accelerometer (and no device strokes): strokes and rate are nil ("—").
public struct SessionComparison {
    /// Why a comparison cannot be made: a session or piece that is not there (`notFound`: the
    /// API's 404), or one that cannot be compared (no GPS, a damaged file, a course it never
    /// rowed: 422).
    public struct Failure: Error, CustomStringConvertible, Equatable, Sendable {
        public enum Kind: Sendable { case notFound, unusable }
        public let kind: Kind
        public let description: String
        public init(_ kind: Kind, _ description: String) {
            self.kind = kind
            self.description = description
        }
    }

    /// One side: which session and piece, and its stretch of trail.
    public struct Side: Sendable {
        public var id: String
        public var title: String
        public var startUTC: Double
        /// The piece (from 1) and its label, nil for the whole session.
        public var piece: Int?
        public var pieceLabel: String?
        /// The stretch compared, session seconds.
        public var from: Seconds
        public var to: Seconds
        /// The trail over the stretch: session times; distances from the stretch's start.
        public var points: [SessionTrail.Point]
        /// Every catch of the session (session seconds), in order.
        public var catches: [Seconds]
        /// False when the session had neither an accelerometer nor a device's strokes.
        public var strokesKnown: Bool

        public var time: Seconds { to - from }
        public var distance: Metres { points.last?.distance ?? 0 }
        /// The side's whole stretch as a leg (its time, distance, split, strokes, rate).
        public var total: Leg { leg(from: from, to: to, distance: distance, elapsed: time) }

        /// The leg between session times `t0` and `t1`.
        func leg(from t0: Seconds?, to t1: Seconds?, distance: Metres, elapsed: Seconds?) -> Leg {
            guard let t0, let t1, t1 >= t0 else { return Leg(elapsed: elapsed, time: nil, distance: distance, strokes: nil, rate: nil) }
            guard strokesKnown else { return Leg(elapsed: elapsed, time: t1 - t0, distance: distance, strokes: nil, rate: nil) }
            let strokes = SessionComparison.catches(catches, before: t1) - SessionComparison.catches(catches, before: t0)
            var rate: StrokesPerMinute?
            if strokes >= 2, t1 > t0 {
                rate = (SessionComparison.strokesRowed(catches, by: t1) - SessionComparison.strokesRowed(catches, by: t0)) / (t1 - t0) * 60
            }
            return Leg(elapsed: elapsed, time: t1 - t0, distance: distance, strokes: strokes, rate: rate)
        }
    }

    /// One side's figures over a segment.
    public struct Leg: Sendable, Equatable {
        /// Time from the side's start to the segment's end (nil: a course gate it did not cross).
        public var elapsed: Seconds?
        /// The segment's time.
        public var time: Seconds?
        public var distance: Metres
        /// Catches in the segment; nil without stroke data.
        public var strokes: Int?
        public var rate: StrokesPerMinute?
        public var split: SecondsPer500m? {
            guard let time, time > 0, distance > 0 else { return nil }
            return time / distance * 500
        }
    }

    public struct Segment: Sendable, Equatable {
        public var number: Int
        /// `0–500 m`, or a course leg's `Start → 500 m`.
        public var label: String
        /// Where it starts and ends: metres from each side's start (along the course's gates).
        public var from: Metres
        public var to: Metres
        /// The last segment, to the shorter side's end, when it is shorter than the others.
        public var partial: Bool
        public var a: Leg
        public var b: Leg
        public var distance: Metres { to - from }
        /// B's time at the segment's end minus A's: positive, A is ahead by that much.
        public var gap: Seconds? {
            guard let ta = a.elapsed, let tb = b.elapsed else { return nil }
            return tb - ta
        }
        /// What A gained on B in this segment (B's segment time minus A's); negative: A lost.
        public var gained: Seconds? {
            guard let ta = a.time, let tb = b.time else { return nil }
            return tb - ta
        }
    }

    public static let defaultSegment: Metres = 500

    public let a: Side
    public let b: Side
    /// Metres per segment; nil when cut at a course's gates.
    public let segmentLength: Metres?
    public let courseName: String?
    public let segments: [Segment]

    // MARK: Loading

    /// Compares what `a` and `b` name; `path` finds a session's file from its id (the command
    /// line: `SessionLookup`; the server: an exact id in its directory) and throws when there is
    /// none. With `fences`, the segments are its course's legs.
    public init(_ a: CompareReference, _ b: CompareReference, fences: FenceFile? = nil, every segment: Metres = defaultSegment,
                path: (String) throws -> String) throws {
        var course: Course?
        if let fences {
            guard let c = fences.course else {
                throw Failure(.unusable, "the fences file defines no course (no gate has a \"role\": start, marker or finish)")
            }
            course = c
        }
        let loadedA = try Self.load(a, path: path)
        let loadedB = try Self.load(b, path: path)
        if let fences, let course {
            let onA = try Self.gateTimes(loadedA, fences: fences, course: course)
            let onB = try Self.gateTimes(loadedB, fences: fences, course: course)
            self.init(course: course, a: onA.side, onA.times, b: onB.side, onB.times)
        } else {
            try self.init(a: loadedA.side, b: loadedB.side, every: segment)
        }
    }

    /// Every `segment` metres of each side's own distance, to the shorter side's end.
    public init(a: Side, b: Side, every segment: Metres = defaultSegment) throws {
        precondition(segment > 0, "a segment has a length")
        let total = min(a.distance, b.distance)
        guard total >= 1 else {
            let still = a.distance < b.distance ? a : b
            throw Failure(.unusable, "\(still.id) covers no distance in its GPS trail: nothing to compare")
        }
        var marks = Array(stride(from: segment, through: total, by: segment))
        // A last partial segment to the shorter side's end (a metre or more).
        if total - (marks.last ?? 0) >= 1 { marks.append(total) }
        var segments: [Segment] = []
        var fromA: Seconds? = a.from, fromB: Seconds? = b.from, from: Metres = 0
        for (k, mark) in marks.enumerated() {
            let toA = Self.time(at: mark, in: a.points), toB = Self.time(at: mark, in: b.points)
            let label = RowingFormat.distance(from).dropLast(2) + "–" + RowingFormat.distance(mark)
            segments.append(Segment(number: k + 1, label: String(label), from: from, to: mark, partial: mark - from < segment - 1e-9,
                                    a: a.leg(from: fromA, to: toA, distance: mark - from, elapsed: toA.map { $0 - a.from }),
                                    b: b.leg(from: fromB, to: toB, distance: mark - from, elapsed: toB.map { $0 - b.from })))
            (fromA, fromB, from) = (toA, toB, mark)
        }
        self.a = a
        self.b = b
        segmentLength = segment
        courseName = nil
        self.segments = segments
    }

    /// At a course's gates, from each side's gate times (nil: a gate it did not cross).
    init(course: Course, a: Side, _ timesA: [Seconds?], b: Side, _ timesB: [Seconds?]) {
        var segments: [Segment] = []
        for k in course.gates.indices.dropFirst() {
            func leg(_ side: Side, _ times: [Seconds?]) -> Leg {
                side.leg(from: times[k - 1], to: times[k], distance: course.distances[k] - course.distances[k - 1],
                         elapsed: times[k].map { $0 - side.from })
            }
            segments.append(Segment(number: k, label: "\(course.gates[k - 1].name) → \(course.gates[k].name)",
                                    from: course.distances[k - 1], to: course.distances[k], partial: false,
                                    a: leg(a, timesA), b: leg(b, timesB)))
        }
        self.a = a
        self.b = b
        segmentLength = nil
        courseName = course.name
        self.segments = segments
    }

    /// A side as loaded, before its stretch is cut to a course.
    struct Loaded {
        var side: Side
        var trail: [SessionTrail.Point]
        var reader: SessionReader
    }

    static func load(_ reference: CompareReference, path resolve: (String) throws -> String) throws -> Loaded {
        let path: String
        do { path = try resolve(reference.session) } catch { throw Failure(.notFound, "\(error)") }
        let id = SessionText.id(of: path)
        let reader: SessionReader
        let trail: [SessionTrail.Point]
        let figures: SessionFigures
        let events: [SessionEvent]
        do {
            reader = try SessionReader(path: path)
            trail = try SessionTrail(reader).points
            figures = try SessionFigures.load(reader, includeStrokes: true)
            events = try reader.events()
        } catch {
            throw Failure(.unusable, "\(id): \(error)")
        }
        guard let first = trail.first, let last = trail.last, trail.count >= 2 else {
            throw Failure(.unusable, "\(id) has no GPS track: compare needs each side's GPS distance")
        }
        let strokes = figures.strokes ?? []
        var window = first.time...last.time
        if reference.piece == nil {
            // From when the boat moves off (its distance first grows) to when it stops for good: a
            // wait at the landing stage before or after is not part of the row.
            let moving = trail.firstIndex { $0.distance > first.distance }.map { max($0 - 1, 0) } ?? 0
            let stopped = trail.lastIndex { $0.distance < last.distance }.map { $0 + 1 } ?? trail.count - 1
            if stopped > moving { window = trail[moving].time...trail[stopped].time }
        }
        var label: String?
        if let k = reference.piece {
            let pieces = SessionPieces(strokes: strokes, events: events)
            guard k <= pieces.pieces.count else {
                let n = pieces.pieces.count
                let kind = pieces.kind == .course ? "the legs of its course, as recorded" : "runs of rowing between rests"
                throw Failure(.notFound, "\(id) has \(n) piece\(n == 1 ? "" : "s") (\(kind)): no piece \(k)")
            }
            let piece = pieces.pieces[k - 1]
            guard piece.end > first.time, piece.start < last.time, min(piece.end, last.time) > max(piece.start, first.time) else {
                throw Failure(.unusable, "\(id): piece \(k) (\(piece.label)) has no GPS track")
            }
            window = max(piece.start, first.time)...min(piece.end, last.time)
            label = piece.label
        }
        let side = Side(id: id, title: SessionText.title(reader.metadata), startUTC: reader.metadata.startUTC, piece: reference.piece,
                        pieceLabel: label, from: window.lowerBound, to: window.upperBound,
                        points: stretch(trail, from: window.lowerBound, to: window.upperBound),
                        catches: strokes.map(\.stroke.catchTime), strokesKnown: figures.strokesKnown)
        return Loaded(side: side, trail: trail, reader: reader)
    }

    /// A side's time at each gate of `course` (nil where it missed one), its stretch cut to its
    /// start-gate crossing and the last gate it crossed. Crossings a rest's length either side of
    /// a piece count (a standing start crosses the line after the first catch).
    static func gateTimes(_ loaded: Loaded, fences: FenceFile, course: Course) throws -> (side: Side, times: [Seconds?]) {
        var side = loaded.side
        var monitor = FenceMonitor(fences: fences.fences, course: nil)
        var crossings: [GateCrossing] = []
        do {
            for fix in try loaded.reader.fixes() {
                monitor.process(fix) { if case .cross(let c) = $0 { crossings.append(c) } }
            }
        } catch {
            throw Failure(.unusable, "\(side.id): \(error)")
        }
        let margin = side.piece == nil ? 0 : SessionPieces.restGap
        let window = (side.from - margin)...(side.to + margin)
        let n = course.gates.count
        var best: [Seconds?]?, bestReached = 0
        var current: [Seconds?]?, reached = 0
        for c in crossings where !c.wrongWay && window.contains(c.time) {
            guard let k = course.gates.firstIndex(of: c.gate) else { continue }
            if k == 0 {
                current = [c.time] + Array(repeating: nil, count: n - 1)
                reached = 0
                continue
            }
            guard current != nil, k > reached else { continue }
            current?[k] = c.time
            reached = k
            if reached > bestReached { (best, bestReached) = (current, reached) }
            if k == n - 1 { break }
        }
        guard let times = best, let start = times[0], let end = times[bestReached] else {
            throw Failure(.unusable, "\(side.id) never rowed the course '\(course.name)' from its start gate (\(course.gates[0].name)) "
                          + "to another of its gates\(side.piece.map { " in piece \($0)" } ?? "")")
        }
        side.from = start
        side.to = end
        side.points = stretch(loaded.trail, from: start, to: end)
        return (side, times)
    }

    // MARK: The trail and the strokes

    /// The trail between session times `t0` and `t1`, a point placed at each end between the two
    /// fixes around it; distances from `t0`.
    static func stretch(_ points: [SessionTrail.Point], from t0: Seconds, to t1: Seconds) -> [SessionTrail.Point] {
        guard !points.isEmpty else { return [] }
        func at(_ t: Seconds) -> SessionTrail.Point {
            guard let j = points.firstIndex(where: { $0.time >= t }) else { return points[points.count - 1] }
            guard j > 0, points[j].time > points[j - 1].time else { return points[j] }
            let p = points[j - 1], q = points[j], f = (t - p.time) / (q.time - p.time)
            return SessionTrail.Point(time: t, latitude: p.latitude + f * (q.latitude - p.latitude),
                                      longitude: p.longitude + f * (q.longitude - p.longitude), distance: p.distance + f * (q.distance - p.distance))
        }
        let start = at(t0)
        var out = [start] + points.filter { $0.time > t0 && $0.time < t1 } + [at(t1)]
        for i in out.indices { out[i].distance -= start.distance }
        return out
    }

    /// The session time at which a stretch's distance reaches `d`, between the two points around
    /// it (a trail's distance never decreases); nil beyond its end.
    static func time(at d: Metres, in points: [SessionTrail.Point]) -> Seconds? {
        var lo = 0, hi = points.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if points[mid].distance >= d { hi = mid } else { lo = mid + 1 }
        }
        guard lo < points.count else {
            // The end of the stretch, to rounding (a partial segment's mark is its last point).
            return points.last.flatMap { abs($0.distance - d) < 1e-6 ? $0.time : nil }
        }
        guard lo > 0 else { return points[0].time }
        let p = points[lo - 1], q = points[lo]
        return q.distance > p.distance ? p.time + (d - p.distance) / (q.distance - p.distance) * (q.time - p.time) : q.time
    }

    /// How many of `catches` (in order) are before `t`.
    static func catches(_ catches: [Seconds], before t: Seconds) -> Int {
        var lo = 0, hi = catches.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if catches[mid] < t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The strokes rowed by session time `t`: the catches up to it, the last one counted as the
    /// fraction of its cycle (to the next catch, or the one before it at the end of a run) done.
    /// A rest (no catch for `SessionPieces.restGap`) is not a cycle.
    static func strokesRowed(_ catches: [Seconds], by t: Seconds) -> Double {
        let i = Self.catches(catches, before: t.nextUp)
        guard i > 0 else { return 0 }
        let c = catches[i - 1]
        var period: Seconds?
        if i < catches.count, catches[i] - c < SessionPieces.restGap { period = catches[i] - c }
        else if i >= 2, c - catches[i - 2] < SessionPieces.restGap { period = c - catches[i - 2] }
        guard let period, period > 0 else { return Double(i) }
        return Double(i - 1) + min(1, (t - c) / period)
    }

    // MARK: Output

    /// One JSON object: `segment_m` (null with a course), `course`, `a` and `b` (the session, its
    /// piece, start, and the compared stretch's time, distance, split, strokes and rate; with
    /// `trailPoints`, its `trail` for a map: `t_s` from the stretch's start, `lat_deg`, `lon_deg`,
    /// `distance_m`) and `segments` (each side's `elapsed_s`, `time_s`, `split_s_per_500m`,
    /// `strokes`, `rate_spm`; `gap_s`, B's elapsed minus A's; `a_gained_s`, B's segment time minus
    /// A's). Null where a side has no data.
    public func json(trailPoints: Int? = nil) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("segment_m", segmentLength, places: 0)
        w.field("course", courseName)
        for (key, side) in [("a", a), ("b", b)] {
            w.beginObject(key: key)
            w.field("id", side.id)
            w.field("title", side.title)
            w.field("start_utc", SessionText.iso(side.startUTC))
            w.field("piece", side.piece)
            w.field("piece_label", side.pieceLabel)
            w.field("from_s", side.from, places: 2)
            w.field("to_s", side.to, places: 2)
            let total = side.total
            w.field("time_s", total.time, places: 2)
            w.field("distance_m", total.distance, places: 1)
            w.field("split_s_per_500m", total.split, places: 2)
            w.field("strokes", total.strokes)
            w.field("rate_spm", total.rate, places: 2)
            if let trailPoints {
                let chosen = SessionTrail.thinned(side.points, to: trailPoints)
                w.beginObject(key: "trail")
                w.field("points", chosen.count)
                let columns: [(String, (SessionTrail.Point) -> Double, Int)] = [
                    ("t_s", { $0.time - side.from }, 2), ("lat_deg", \.latitude, 7), ("lon_deg", \.longitude, 7), ("distance_m", \.distance, 1),
                ]
                for (name, value, places) in columns {
                    w.beginArray(key: name)
                    for p in chosen { w.element(value(p), places: places) }
                    w.endArray()
                }
                w.endObject()
            }
            w.endObject()
        }
        w.beginArray(key: "segments")
        for s in segments {
            w.beginObject()
            w.field("number", s.number)
            w.field("label", s.label)
            w.field("from_m", s.from, places: 1)
            w.field("to_m", s.to, places: 1)
            w.field("distance_m", s.distance, places: 1)
            w.field("partial", s.partial)
            for (key, leg) in [("a", s.a), ("b", s.b)] {
                w.beginObject(key: key)
                w.field("elapsed_s", leg.elapsed, places: 2)
                w.field("time_s", leg.time, places: 2)
                w.field("split_s_per_500m", leg.split, places: 2)
                w.field("strokes", leg.strokes)
                w.field("rate_spm", leg.rate, places: 2)
                w.endObject()
            }
            w.field("gap_s", s.gap, places: 2)
            w.field("a_gained_s", s.gained, places: 2)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.take()
    }

    /// Who is ahead and by how much: `A by 3.2 s`, `level`, or "—".
    public static func gapText(_ gap: Seconds?) -> String {
        guard let gap, gap.isFinite else { return RowingFormat.noData }
        let tenths = (abs(gap) * 10).rounded() / 10
        if tenths == 0 { return "level" }
        return (gap > 0 ? "A" : "B") + " by " + RowingFormat.decimal(tenths, places: 1) + " s"
    }

    /// Who gained in a segment and how much: `A +1.6 s`, `even`, or "—".
    public static func gainedText(_ gained: Seconds?) -> String {
        guard let gained, gained.isFinite else { return RowingFormat.noData }
        let tenths = (abs(gained) * 10).rounded() / 10
        if tenths == 0 { return "even" }
        return (gained > 0 ? "A" : "B") + " +" + RowingFormat.decimal(tenths, places: 1) + " s"
    }

    /// The two sides named, then one row per segment: each side's time at the segment's end,
    /// split, rate and strokes; the gap at its end and who gained in it.
    public func table() -> String {
        var out = ""
        for (name, side) in [("A", a), ("B", b)] {
            let total = side.total
            var line = "\(name)  \(side.id)  \(side.title)"
            if let k = side.piece { line += "  piece \(k)" + (side.pieceLabel.map { " (\($0))" } ?? "") }
            line += "  " + RowingFormat.duration(total.time) + "  " + RowingFormat.distance(total.distance)
                + "  " + RowingFormat.split(total.split) + " /500m  " + RowingFormat.decimal(total.rate, places: 1, unit: "spm")
            out += line + "\n"
        }
        out += courseName.map { "Course \($0): time at each gate, the leg's split, rate and strokes.\n" }
            ?? "Every \(RowingFormat.distance(segmentLength ?? 0)) of each side's own GPS distance.\n"
        out += "\n"
        var rows = [[courseName == nil ? "DISTANCE" : "LEG", "A TIME", "A SPLIT", "A RATE", "A STR", "B TIME", "B SPLIT", "B RATE", "B STR", "GAP", "IN LEG"]]
        for s in segments {
            var cells = [s.label + (s.partial ? " *" : "")]
            for leg in [s.a, s.b] {
                cells += [RowingFormat.duration(leg.elapsed), RowingFormat.split(leg.split), RowingFormat.decimal(leg.rate, places: 1),
                          leg.strokes.map(String.init) ?? RowingFormat.noData]
            }
            cells += [Self.gapText(s.gap), Self.gainedText(s.gained)]
            rows.append(cells)
        }
        out += TextTable.columns(rows, rightAligned: Set(1...10))
        if segments.contains(where: \.partial) {
            out += "* to the end of the shorter side (\(RowingFormat.distance(min(a.distance, b.distance))))\n"
        }
        return out
    }
}
