import OarlogCore
import OarlogSession
import OarlogWorkouts

/// A session cut into pieces for the session page's table (`/api/sessions/{id}/pieces`): the
/// intervals of the plan it rowed (the workout recorded with the session: pieces and rests, in
/// the order rowed), else the legs of its course as `oarlog course` timed them (the
/// `course.segment` events recorded with the session), or else the runs of rowing between rests
/// — a stop of `restGap` or more without a catch — of at least `minimumStrokes` strokes (a few
/// strokes to turn the boat are not a piece). Each piece has its time, distance, split, rate and
/// strokes, and the strokes it holds (indexes into the session's stroke list) for its stroke curve.
public struct SessionPieces {
    public enum Kind: String, Sendable {
        case rests
        case course
        case workout
    }

    public struct Piece: Sendable, Equatable {
        public var label: String
        public var start: Seconds
        public var end: Seconds
        public var distance: Metres?
        public var strokes: Int
        /// Indexes into the session's strokes, first and last (nil when the piece has none).
        public var strokeRange: ClosedRange<Int>?
        /// The rate as it was recorded (a course leg's, as `oarlog course` gave it; an interval's,
        /// as the workout tracker gave it).
        public var recordedRate: StrokesPerMinute?
        /// The plan's interval this piece is (its kind, target and time in band); nil for a
        /// course leg or a run between rests.
        public var interval: WorkoutInterval?
        /// The heart rates and oarlock strokes within the piece (nil when the session has none).
        public var device: IntervalDeviceFigures?
        public var time: Seconds { end - start }
        public var split: SecondsPer500m? {
            guard let distance, distance > 0, time > 0 else { return nil }
            return time / distance * 500
        }
        public var rate: StrokesPerMinute? {
            if let recordedRate { return recordedRate }
            guard strokes >= 2, time > 0 else { return nil }
            return Double(strokes) / time * 60
        }
    }

    public static let restGap: Seconds = 10
    public static let minimumStrokes = 5

    public let kind: Kind
    public private(set) var pieces: [Piece]
    /// The plan rowed, when the pieces are its intervals (`kind` is `workout`).
    public let plan: WorkoutPlan?

    /// `workout`: the plan recorded with the session (`SessionReader.workout()`); when it has at
    /// least one interval rowed, the pieces are its intervals, whatever else was recorded.
    public init(strokes: [StrokeMetrics], events: [SessionEvent], workout: RecordedWorkout? = nil) {
        let legs = events.filter { $0.name == "course.segment" }
        if let workout, !workout.intervals.isEmpty {
            (kind, plan) = (.workout, workout.plan)
            pieces = workout.intervals.map { Self.interval($0, strokes: strokes) }
        } else if !legs.isEmpty {
            (kind, plan) = (.course, nil)
            pieces = legs.compactMap { Self.leg($0, strokes: strokes) }
        } else {
            (kind, plan) = (.rests, nil)
            pieces = Self.rowing(strokes)
        }
    }

    /// A session's pieces from its file: its recorded workout, course legs or rests.
    /// Each piece has the heart rates and oarlock strokes recorded from its start to its end.
    static func read(_ reader: SessionReader, strokes: [StrokeMetrics], events: [SessionEvent]? = nil) throws -> SessionPieces {
        var pieces = SessionPieces(strokes: strokes, events: try events ?? reader.events(), workout: try reader.workout())
        guard !pieces.pieces.isEmpty else { return pieces }
        var device = [IntervalDeviceFigures](repeating: IntervalDeviceFigures(), count: pieces.pieces.count)
        var any = false
        try reader.forEachHeartRateAndOarlock { record in
            any = true
            guard let t = record.time else { return }
            for (k, p) in pieces.pieces.enumerated() where t >= p.start && t < p.end {
                device[k].add(record)
            }
        }
        guard any else { return pieces }
        pieces.pieces = zip(pieces.pieces, device).map { p, d in
            var p = p
            p.device = d
            return p
        }
        return pieces
    }

    /// The runs of rowing between rests.
    static func rowing(_ strokes: [StrokeMetrics]) -> [Piece] {
        var pieces: [Piece] = []
        var first = 0
        func close(_ last: Int) {
            let count = last - first + 1
            guard count >= minimumStrokes else { return }
            let a = strokes[first], b = strokes[last]
            let start = a.stroke.catchTime
            // The last stroke ends one average stroke after its catch.
            let period = (b.stroke.catchTime - start) / Double(count - 1)
            let end = b.stroke.catchTime + period
            var distance: Metres?
            if let d0 = a.distance, let d1 = b.distance {
                distance = d1 - d0 + (b.distancePerStroke ?? (d1 - d0) / Double(count - 1))
            }
            pieces.append(Piece(label: "Piece \(pieces.count + 1)", start: start, end: end, distance: distance,
                                strokes: count, strokeRange: first...last))
        }
        for i in strokes.indices.dropFirst() where !(strokes[i].stroke.catchTime - strokes[i - 1].stroke.catchTime < restGap) {
            close(i - 1)
            first = i
        }
        if !strokes.isEmpty { close(strokes.count - 1) }
        return pieces
    }

    /// A course leg from its recorded event (fields as `SessionEvent(FenceEvent.segment)` writes them).
    static func leg(_ event: SessionEvent, strokes: [StrokeMetrics]) -> Piece? {
        guard let start = event.field("start_s").flatMap(Double.init), let end = event.field("end_s").flatMap(Double.init),
              start.isFinite, end.isFinite, end > start else { return nil }
        let inside = strokes.indices.filter { strokes[$0].stroke.catchTime >= start && strokes[$0].stroke.catchTime < end }
        let label = "\(event.field("from") ?? "?") → \(event.field("to") ?? "?")"
        return Piece(label: label, start: start, end: end, distance: event.field("distance_m").flatMap(Double.init),
                     strokes: Int(event.field("strokes") ?? "") ?? inside.count,
                     strokeRange: inside.first.map { $0...inside.last! },
                     recordedRate: event.field("rate_spm").flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil })
    }

    /// The answer as JSON: `kind` ("rests", "course" or "workout") and one object per piece; for a
    /// workout also its `plan` (name, pieces, steps) and per piece the interval's own keys
    /// (`intervalFields`); when the session has heart rates or oarlock strokes, per piece their
    /// keys (`intervalDeviceFields`).
    public func json() -> String {
        var w = JSONWriter()
        w.beginObject()
        w.field("kind", kind.rawValue)
        w.field("rest_gap_s", Self.restGap, places: 1)
        if let plan { w.planObject("plan", plan) }
        w.beginArray(key: "pieces")
        for (k, p) in pieces.enumerated() {
            w.beginObject()
            w.field("piece", k)
            w.field("label", p.label)
            w.field("start_s", p.start, places: 2)
            w.field("end_s", p.end, places: 2)
            w.field("time_s", p.time, places: 2)
            w.field("distance_m", p.distance, places: 1)
            w.field("split_s_per_500m", p.split, places: 2)
            w.field("rate_spm", p.rate, places: 2)
            w.field("strokes", p.strokes)
            w.field("first_stroke", p.strokeRange?.lowerBound)
            w.field("last_stroke", p.strokeRange?.upperBound)
            if let interval = p.interval { w.intervalFields(of: interval) }
            if let device = p.device { w.intervalDeviceFields(device) }
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.take()
    }
}
