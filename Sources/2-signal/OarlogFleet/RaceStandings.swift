import OarlogCore
import OarlogFences

/// A race on a course as the coach's launch sees it: each boat's gate crossings (interpolated
/// between fixes by the same `FenceMonitor` a boat runs), its position along the course now, the
/// gaps between boats at every gate in seconds and metres, and the results as a regatta shows
/// them.
///
/// A boat's race starts when it crosses the start gate the right way (a new crossing starts it
/// again). Times are from each boat's own start, so a head race with staggered starts and a
/// side-by-side race read alike. The gap in metres at a gate is how far the boat still had to
/// go to it when the boat ahead crossed it (the same time after each one's start), from the
/// boat's own distance log.
public struct RaceStandings: Sendable {
    public struct GateTime: Sendable, Equatable {
        public var boat: String
        /// Seconds from the boat's start.
        public var time: Seconds
        public var utc: Double
        /// Behind the first boat through the gate; 0 for it.
        public var behindSeconds: Seconds
        public var behindMetres: Metres?
    }
    public struct Gate: Sendable, Equatable {
        public var name: String
        /// Distance from the start, metres.
        public var distance: Metres
        /// Boats through the gate, first first.
        public var times: [GateTime]
    }
    public struct Result: Sendable, Equatable {
        public var place: Int?
        public var boat: String
        /// Finish time from the boat's start; nil if not finished.
        public var time: Seconds?
        public var margin: Seconds?
        public var split: SecondsPer500m?
        /// Metres along the course now (the course length once finished).
        public var alongCourse: Metres?
        /// The last gate crossed.
        public var lastGate: String?
    }

    public let file: FenceFile
    public let course: Course
    private var origin: Double?
    private var monitors: [String: FenceMonitor] = [:]
    /// Per boat: the UTC of its start and of each course gate crossed since, by gate index.
    private var crossed: [String: [Int: Double]] = [:]
    /// Per boat: recent (UTC, session distance), at most `logLimit`.
    private var logs: [String: [(utc: Double, distance: Metres)]] = [:]
    private let logLimit = 3600

    /// - Returns: nil when the file has no course.
    public init?(file: FenceFile) {
        guard let course = file.course, course.gates.count >= 2 else { return nil }
        self.file = file
        self.course = course
    }

    public mutating func add(boat: String, utc: Double, latitude: Degrees, longitude: Degrees, speed: MetresPerSecond?,
                             course heading: Degrees?, distance: Metres?) {
        let origin = self.origin ?? utc
        self.origin = origin
        // Each changed where it stands in its dictionary (a copy would copy the whole log or monitor).
        if let distance, logs[boat]?.last.map({ utc > $0.utc }) ?? true {
            logs[boat, default: []].append((utc, distance))
            if logs[boat]!.count > logLimit { logs[boat]!.removeFirst(logLimit / 10) }
        }
        var events: [FenceEvent] = []
        monitors[boat, default: FenceMonitor(fences: file.fences)].process(
            GPSFix(time: utc - origin, latitude: latitude, longitude: longitude, speed: speed, course: heading, mode: .threeD)) {
            events.append($0)
        }
        for case .cross(let c) in events where !c.wrongWay {
            guard let k = course.gates.firstIndex(of: c.gate) else { continue }
            let when = origin + c.time
            if k == 0 {
                crossed[boat] = [0: when]
            } else if var mine = crossed[boat], mine[k] == nil, let last = mine.keys.max(), k > last {
                mine[k] = when
                crossed[boat] = mine
            }
        }
    }

    /// Drops a boat that left the board (its crossings, log and monitor).
    public mutating func forget(boat: String) {
        monitors.removeValue(forKey: boat)
        crossed.removeValue(forKey: boat)
        logs.removeValue(forKey: boat)
    }

    /// Every gate with the boats through it since their start.
    public var gates: [Gate] {
        course.gates.indices.map { k in
            var times: [GateTime] = []
            for (boat, mine) in crossed {
                guard let start = mine[0], let at = mine[k] else { continue }
                times.append(GateTime(boat: boat, time: at - start, utc: at, behindSeconds: 0, behindMetres: nil))
            }
            times.sort { $0.time < $1.time || ($0.time == $1.time && $0.boat < $1.boat) }
            if let first = times.first {
                for i in times.indices {
                    times[i].behindSeconds = times[i].time - first.time
                    if i > 0, let start = crossed[times[i].boat]?[0] {
                        times[i].behindMetres = metresToGo(boat: times[i].boat, gate: k, at: start + first.time)
                    } else {
                        times[i].behindMetres = 0
                    }
                }
            }
            return Gate(name: course.gates[k].name, distance: course.distances[k], times: times)
        }
    }

    /// The results: finished boats by time, then the others by how far along they are.
    public func results(boats: [String]) -> [Result] {
        let last = course.gates.count - 1
        var rows: [Result] = boats.map { boat in
            let mine = crossed[boat] ?? [:]
            var row = Result(boat: boat)
            if let start = mine[0] {
                let lastGate = mine.keys.max() ?? 0
                row.lastGate = course.gates[lastGate].name
                if let finish = mine[last] {
                    row.time = finish - start
                    row.alongCourse = course.length
                    row.split = course.length > 0 ? (finish - start) * 500 / course.length : nil
                } else if let gateUTC = mine[lastGate], let now = logs[boat]?.last {
                    let rowed = max(0, now.distance - (distance(of: boat, at: gateUTC) ?? now.distance))
                    row.alongCourse = min(course.distances[lastGate] + rowed, course.distances[min(lastGate + 1, last)])
                } else {
                    row.alongCourse = course.distances[lastGate]
                }
            }
            return row
        }
        rows.sort {
            switch ($0.time, $1.time) {
            case let (a?, b?): return a < b || (a == b && $0.boat < $1.boat)
            case (.some, nil): return true
            case (nil, .some): return false
            default: return ($0.alongCourse ?? -1) > ($1.alongCourse ?? -1) || (($0.alongCourse ?? -1) == ($1.alongCourse ?? -1) && $0.boat < $1.boat)
            }
        }
        let winner = rows.first?.time
        var place = 0
        for i in rows.indices where rows[i].time != nil {
            place += 1
            rows[i].place = place
            rows[i].margin = winner.map { rows[i].time! - $0 }
        }
        return rows
    }

    /// Metres the boat still had to row to gate `k` at `utc`, from its distance log since its start.
    private func metresToGo(boat: String, gate k: Int, at utc: Double) -> Metres? {
        guard let start = crossed[boat]?[0], let d0 = distance(of: boat, at: start), let d = distance(of: boat, at: utc) else { return nil }
        return max(0, course.distances[k] - (d - d0))
    }

    private func distance(of boat: String, at utc: Double) -> Metres? {
        guard let log = logs[boat], let first = log.first, let last = log.last, utc >= first.utc, utc <= last.utc + 2 else { return nil }
        if utc >= last.utc { return last.distance }
        var lo = 0, hi = log.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if log[mid].utc <= utc { lo = mid } else { hi = mid }
        }
        let a = log[lo], b = log[hi]
        return b.utc > a.utc ? a.distance + (utc - a.utc) / (b.utc - a.utc) * (b.distance - a.distance) : a.distance
    }
}
