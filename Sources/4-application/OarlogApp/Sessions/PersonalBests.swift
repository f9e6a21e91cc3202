import OarlogArchive
import OarlogCore
import OarlogSession

/// Personal bests over the standard distances and durations, as an ergometer gives them: the
/// fastest time over 500 m, 1,000 m, 2,000 m, 5,000 m and 6,000 m, and the most distance in 1,
/// 20 and 30 minutes, found anywhere in any outing (any window, not only marked pieces) on the
/// session's GPS distance (`SessionTrail`: the distance accumulator's, fix by fix). A window
/// that spans a GPS gap (fixes more than `gapLimit` apart) does not count: the boat's distance
/// over it is not measured.
public struct PersonalBests {
    /// What is measured.
    public enum Event: Sendable, Hashable, CustomStringConvertible {
        /// The fastest time over this distance.
        case distance(Metres)
        /// The most distance in this time.
        case duration(Seconds)

        /// How the index names it: `distance:500`, `duration:60`.
        public var key: String {
            switch self {
            case .distance(let m): return "distance:\(Int(m))"
            case .duration(let s): return "duration:\(Int(s))"
            }
        }

        public init?(key: String) {
            let parts = key.split(separator: ":")
            guard parts.count == 2, let v = Int(parts[1]), v > 0 else { return nil }
            switch parts[0] {
            case "distance": self = .distance(Metres(v))
            case "duration": self = .duration(Seconds(v))
            default: return nil
            }
        }

        public var description: String {
            switch self {
            case .distance(let m): return RowingFormat.distance(m)
            case .duration(let s): return "\(Int(s / 60)) min"
            }
        }
    }

    public static let standardEvents: [Event] = [.distance(500), .distance(1000), .distance(2000), .distance(5000), .distance(6000),
                                                 .duration(60), .duration(1200), .duration(1800)]
    /// Fixes further apart than this are a gap (a 1 Hz receiver, or a device's per-stroke
    /// positions at 12 spm, stay well inside it).
    public static let gapLimit: Seconds = 10

    /// One performance: the time (for a distance) or the metres (for a duration), where it began.
    public struct Performance: Sendable, Equatable {
        public var time: Seconds
        public var metres: Metres
        /// Seconds into the session where the window began.
        public var start: Seconds
    }

    /// One event's best in one session.
    public struct Result: Sendable, Equatable {
        public var event: Event
        public var performance: Performance
        public var session: String
        public var sessionStartUTC: Double
    }

    // MARK: One session

    /// The best performance of `event` in a session's trail, or nil when no gap-free window is
    /// long enough.
    public static func best(_ event: Event, in points: [SessionTrail.Point], gapLimit: Seconds = gapLimit) -> Performance? {
        var best: Performance?
        for run in runs(points, gapLimit: gapLimit) {
            let found: Performance?
            switch event {
            case .distance(let metres): found = fastest(over: metres, run)
            case .duration(let seconds): found = farthest(in: seconds, run)
            }
            guard let found else { continue }
            switch event {
            case .distance: if best.map({ found.time < $0.time }) ?? true { best = found }
            case .duration: if best.map({ found.metres > $0.metres }) ?? true { best = found }
            }
        }
        return best
    }

    /// The stretches of the trail without a gap.
    static func runs(_ points: [SessionTrail.Point], gapLimit: Seconds) -> [ArraySlice<SessionTrail.Point>] {
        var out: [ArraySlice<SessionTrail.Point>] = []
        var start = points.startIndex
        for i in points.indices.dropFirst() where !(points[i].time - points[i - 1].time <= gapLimit) {
            out.append(points[start..<i])
            start = i
        }
        if start < points.endIndex { out.append(points[start..<points.endIndex]) }
        return out
    }

    /// The fastest time over `metres`.
    static func fastest(over metres: Metres, _ run: ArraySlice<SessionTrail.Point>) -> Performance? {
        bestWindow(run, width: metres, along: \.distance, measuring: \.time, isBetter: { t, best in t > 0 && best.map { t < $0 } ?? true })
            .map { Performance(time: $0.amount, metres: metres, start: $0.start) }
    }

    /// The most distance in `seconds`.
    static func farthest(in seconds: Seconds, _ run: ArraySlice<SessionTrail.Point>) -> Performance? {
        bestWindow(run, width: seconds, along: \.time, measuring: \.distance, isBetter: { m, best in best.map { m > $0 } ?? true })
            .map { Performance(time: seconds, metres: $0.amount, start: $0.start) }
    }

    /// Over every window `width` long along `axis` (the trail's distance or its time), how much
    /// of `measure` (the other) it spans, and the session time where it starts; `isBetter(amount,
    /// best so far)` picks. The windows: each starting at a fix (its end placed between two
    /// fixes) and each ending at one (its start placed between two fixes). Two pointers: O(n).
    static func bestWindow(_ run: ArraySlice<SessionTrail.Point>, width: Double, along axis: KeyPath<SessionTrail.Point, Double>,
                           measuring measure: KeyPath<SessionTrail.Point, Double>,
                           isBetter: (Double, Double?) -> Bool) -> (amount: Double, start: Seconds)? {
        guard width > 0, let first = run.first, let last = run.last, last[keyPath: axis] - first[keyPath: axis] >= width else { return nil }
        // The value of `key` where the trail is at `x` along the axis, between points a and b.
        func value(_ key: KeyPath<SessionTrail.Point, Double>, at x: Double, _ a: SessionTrail.Point, _ b: SessionTrail.Point) -> Double {
            let (xa, xb) = (a[keyPath: axis], b[keyPath: axis])
            return xb > xa ? a[keyPath: key] + (x - xa) / (xb - xa) * (b[keyPath: key] - a[keyPath: key]) : b[keyPath: key]
        }
        var best: (amount: Double, start: Seconds)?
        func consider(_ amount: Double, _ start: Seconds) {
            if isBetter(amount, best?.amount) { best = (amount, start) }
        }
        var j = run.startIndex
        for i in run.indices {
            let from = run[i][keyPath: axis]
            while j < run.endIndex && run[j][keyPath: axis] - from < width { j += 1 }
            guard j < run.endIndex else { break }
            let end = j > i ? value(measure, at: from + width, run[j - 1], run[j]) : run[j][keyPath: measure]
            consider(end - run[i][keyPath: measure], run[i].time)
        }
        var i = run.startIndex
        for j in run.indices {
            let to = run[j][keyPath: axis]
            guard to - first[keyPath: axis] >= width else { continue }
            while i + 1 < j && to - run[i + 1][keyPath: axis] >= width { i += 1 }
            consider(run[j][keyPath: measure] - value(measure, at: to - width, run[i], run[i + 1]),
                     value(\.time, at: to - width, run[i], run[i + 1]))
        }
        return best
    }

    // MARK: Every session

    /// Every event's best in each session of the directory (sessions without GPS have none), in
    /// date order; the overall best and the progression follow from them.
    public let results: [Result]
    /// Sessions that could not be read, with why (a damaged file never stops the rest).
    public let unreadable: [(id: String, reason: String)]

    /// From the archive's index (each session's bests are found when the index reads its file,
    /// see `ArchivedSession(reading:)`): only the sessions of `boat` when one is given.
    public init(_ directory: SessionDirectory = .default, boat: String? = nil) throws {
        try self.init(archive: SessionArchive(directory), boat: boat)
    }

    public init(archive: SessionArchive, boat: String? = nil) throws {
        results = try archive.index.bests(boat: boat).compactMap { b in
            Event(key: b.best.event).map { event in
                Result(event: event, performance: Performance(time: b.best.time, metres: b.best.metres, start: b.best.start),
                       session: b.session, sessionStartUTC: b.sessionStartUTC)
            }
        }
        unreadable = try archive.index.damaged(boat: boat)
    }

    static func isBetter(_ a: Result, than b: Result) -> Bool {
        switch a.event {
        case .distance: return a.performance.time < b.performance.time
        case .duration: return a.performance.metres > b.performance.metres
        }
    }

    /// The best of each event over every session.
    public func best(_ event: Event) -> Result? {
        results.filter { $0.event == event }.reduce(nil) { best, r in best.map { Self.isBetter(r, than: $0) ? r : $0 } ?? r }
    }

    /// Each session that set a new best of `event`, in date order: the season's progression.
    public func progression(_ event: Event) -> [Result] {
        var out: [Result] = []
        for r in results where r.event == event {
            if out.last.map({ Self.isBetter(r, than: $0) }) ?? true { out.append(r) }
        }
        return out
    }

    // MARK: Output

    /// A JSON array: per event `distance_m` (or `duration_s`), `time_s` (or `metres`), `split_s_per_500m`,
    /// `session`, `start_s`, `date_utc` and the `progression` (the same fields for each new best); null
    /// for an event no session has.
    public func json(events: [Event] = standardEvents) -> String {
        var w = JSONWriter()
        w.beginArray()
        for event in events {
            w.beginObject()
            func fields(_ r: Result?) {
                w.field("time_s", r?.performance.time, places: 2)
                w.field("metres", r?.performance.metres, places: 1)
                w.field("split_s_per_500m", r.flatMap { $0.performance.metres > 0 ? $0.performance.time / $0.performance.metres * 500 : nil }, places: 2)
                w.field("session", r?.session)
                w.field("start_s", r?.performance.start, places: 2)
                w.field("date_utc", r.map { SessionText.iso($0.sessionStartUTC) })
            }
            switch event {
            case .distance(let m): w.field("distance_m", m, places: 0)
            case .duration(let s): w.field("duration_s", s, places: 0)
            }
            fields(best(event))
            w.beginArray(key: "progression")
            for r in progression(event) {
                w.beginObject()
                fields(r)
                w.endObject()
            }
            w.endArray()
            w.endObject()
        }
        w.endArray()
        return w.take()
    }

    /// The table: event, best (time or distance), its split, the date and the session.
    public func table(events: [Event] = standardEvents) -> String {
        var rows = [["EVENT", "BEST", "SPLIT", "DATE (UTC)", "AT", "SESSION"]]
        for event in events {
            guard let r = best(event) else {
                rows.append([event.description, RowingFormat.noData, RowingFormat.noData, "", "", ""])
                continue
            }
            let p = r.performance
            let value: String
            switch event {
            case .distance: value = RowingFormat.duration(p.time)
            case .duration: value = RowingFormat.distance(p.metres)
            }
            rows.append([event.description, value, RowingFormat.split(p.metres > 0 ? p.time / p.metres * 500 : nil),
                         SessionText.date(r.sessionStartUTC), RowingFormat.duration(p.start), r.session])
        }
        return TextTable.columns(rows, rightAligned: [1, 2, 4])
    }
}
