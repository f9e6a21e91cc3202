import OarlogCore

/// The attempt a crew races (its own best, or a chosen session's): the time from its start
/// crossing at every course metre, where it was at every moment (for the ghost's dot), and its
/// time at every gate — read from its fixes by the same fence monitor, `CourseProgress` and
/// `CourseRuler` the boat is measured by.
///
/// Memory is bounded: at most `maximumSamples` points (an hour of 10 Hz fixes); a longer attempt
/// keeps every second fix, then every fourth, and so on.
public struct GhostReference: Sendable, Equatable {
    /// One point of the attempt: seconds from its start, course metres, position.
    public struct Sample: Sendable, Equatable {
        public var elapsed: Seconds
        public var along: Metres
        public var position: GeoPoint
        public init(elapsed: Seconds, along: Metres, position: GeoPoint) {
            self.elapsed = elapsed
            self.along = along
            self.position = position
        }
    }

    public static let maximumSamples = 36_000

    /// Whose attempt it is (a session id), for reports.
    public var session: String
    /// The session time of its start crossing.
    public var startTime: Seconds
    /// Start to finish.
    public var time: Seconds
    /// The course's fences (gates) and course.
    public let file: FenceFile
    public let ruler: CourseRuler
    /// Time from the start at each course gate (nil where the attempt skipped a marker).
    public let gateTimes: [Seconds?]
    /// The attempt's points, in time order; `along` never decreases.
    public let samples: [Sample]

    public var course: Course { ruler.course }

    /// Reads an attempt from a session's fixes: the first race (start crossed the right way, then
    /// the finish) whose start crossing is within `tolerance` of `startTime` (any, when nil).
    /// - Returns: nil when the fixes hold no such finished race, or the file has no course.
    public static func read(file: FenceFile, fixes: some Sequence<GPSFix>, startTime: Seconds? = nil,
                            tolerance: Seconds = 2, session: String) -> GhostReference? {
        guard let ruler = CourseRuler(file: file) else { return nil }
        var monitor = FenceMonitor(fences: CourseCheck.gateFences(file))
        var progress = CourseProgress(ruler: ruler)
        var builder: SampleBuilder?
        var result: GhostReference?
        for fix in fixes {
            var crossings: [GateCrossing] = []
            monitor.process(fix) { if case .cross(let c) = $0 { crossings.append(c) } }
            for crossing in crossings {
                for step in progress.crossed(crossing) {
                    switch step {
                    case .started(let t):
                        let wanted = startTime.map { abs(t - $0) <= tolerance } ?? true
                        builder = wanted ? SampleBuilder(start: t, first: Sample(elapsed: 0, along: 0, position: crossing.position)) : nil
                    case .gate(let k, let elapsed):
                        builder?.add(Sample(elapsed: elapsed, along: ruler.course.distances[k], position: crossing.position), always: true)
                    case .finished(let elapsed):
                        if let b = builder {
                            result = GhostReference(session: session, startTime: b.start, time: elapsed, file: file, ruler: ruler,
                                                    gateTimes: progress.gateTimes, samples: b.samples)
                        }
                    }
                }
                if result != nil { return result }
            }
            if let along = progress.fix(fix), let b = builder {
                builder?.add(Sample(elapsed: fix.time - b.start, along: along, position: fix.point))
            }
        }
        return nil
    }

    /// The attempt's seconds from its start when it first reached `along` course metres
    /// (interpolated between its points; its time at the finish beyond the course).
    public func elapsed(atAlong along: Metres) -> Seconds {
        guard let first = samples.first, along > first.along else { return 0 }
        guard let last = samples.last, along <= last.along else { return time }
        // The first point at or beyond `along` (`along` never decreases along the list).
        var lo = 0, hi = samples.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if samples[mid].along >= along { hi = mid } else { lo = mid }
        }
        let a = samples[lo], b = samples[hi]
        let f = b.along > a.along ? (along - a.along) / (b.along - a.along) : 1
        return a.elapsed + f * (b.elapsed - a.elapsed)
    }

    /// Course metres the attempt had reached `elapsed` seconds after its start.
    public func along(atElapsed elapsed: Seconds) -> Metres {
        let (a, b, f) = bracket(elapsed)
        return a.along + f * (b.along - a.along)
    }

    /// Where the attempt was `elapsed` seconds after its start (at its finish after it).
    public func position(atElapsed elapsed: Seconds) -> GeoPoint {
        let (a, b, f) = bracket(elapsed)
        guard f > 0 else { return a.position }
        let plane = LocalTangentPlane(origin: a.position)
        let p = plane.project(b.position)
        return plane.unproject(east: p.east * f, north: p.north * f)
    }

    /// The two points either side of `elapsed` and the fraction between them.
    private func bracket(_ elapsed: Seconds) -> (Sample, Sample, Double) {
        let first = samples[0], last = samples[samples.count - 1]
        if elapsed <= first.elapsed { return (first, first, 0) }
        if elapsed >= last.elapsed { return (last, last, 0) }
        var lo = 0, hi = samples.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if samples[mid].elapsed <= elapsed { lo = mid } else { hi = mid }
        }
        let a = samples[lo], b = samples[hi]
        return (a, b, b.elapsed > a.elapsed ? (elapsed - a.elapsed) / (b.elapsed - a.elapsed) : 0)
    }

    /// Gathers an attempt's points, thinning them to stay within `maximumSamples`.
    private struct SampleBuilder {
        let start: Seconds
        var samples: [Sample]
        /// Keep one fix in `stride` (doubled each time the list fills and is halved).
        var stride = 1
        var skipped = 0
        init(start: Seconds, first: Sample) {
            self.start = start
            samples = [first]
        }
        /// Adds a fix's point (one in `stride`), or a gate's (`always`).
        mutating func add(_ sample: Sample, always: Bool = false) {
            skipped += 1
            guard always || skipped >= stride else { return }
            skipped = 0
            if samples.count >= GhostReference.maximumSamples {
                samples = samples.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
                stride *= 2
            }
            samples.append(sample)
        }
    }
}
