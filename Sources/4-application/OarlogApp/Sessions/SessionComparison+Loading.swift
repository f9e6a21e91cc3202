import OarlogAPI
import OarlogCore
import OarlogFences
import OarlogSession

/// Loading the two sides: a session or one of its pieces, cut every 500 m or at a course's gates.
extension SessionComparison {

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
        var label: String?, interval: Int?
        if let k = reference.piece {
            let pieces: SessionPieces
            do { pieces = try SessionPieces.read(reader, strokes: strokes, events: events) } catch { throw Failure(.unusable, "\(id): \(error)") }
            if reference.interval, pieces.kind != .workout {
                throw Failure(.notFound, "\(id) rowed no plan (no workout intervals recorded): no interval \(k)")
            }
            guard k <= pieces.pieces.count else { throw missing(k, of: pieces, in: id) }
            let piece = pieces.pieces[k - 1]
            interval = piece.interval?.index
            guard piece.end > first.time, piece.start < last.time, min(piece.end, last.time) > max(piece.start, first.time) else {
                throw Failure(.unusable, "\(id): piece \(k) (\(piece.label)) has no GPS track")
            }
            window = max(piece.start, first.time)...min(piece.end, last.time)
            label = piece.label
        }
        let side = Side(id: id, title: SessionText.title(reader.metadata), startUTC: reader.metadata.startUTC, piece: reference.piece,
                        pieceLabel: label, interval: interval, from: window.lowerBound, to: window.upperBound,
                        points: stretch(trail, from: window.lowerBound, to: window.upperBound),
                        catches: strokes.map(\.stroke.catchTime), strokesKnown: figures.strokesKnown)
        return Loaded(side: side, trail: trail, reader: reader)
    }

    /// A piece (or interval) `k` the session does not have: how many it has, and of what kind.
    static func missing(_ k: Int, of pieces: SessionPieces, in id: String) -> Failure {
        let n = pieces.pieces.count
        switch pieces.kind {
        case .workout:
            return Failure(.notFound, "\(id) has \(n) interval\(n == 1 ? "" : "s") (of its plan, as rowed): no interval \(k)")
        case .course:
            return Failure(.notFound, "\(id) has \(n) piece\(n == 1 ? "" : "s") (the legs of its course, as recorded): no piece \(k)")
        case .rests:
            return Failure(.notFound, "\(id) has \(n) piece\(n == 1 ? "" : "s") (runs of rowing between rests): no piece \(k)")
        }
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
}
