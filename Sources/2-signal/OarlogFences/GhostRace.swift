import OarlogCore

/// A crew racing a reference attempt of a course (its own best, or a chosen session's): the
/// pipeline's optional `ghost` stage. Fed every fix and every catch in time order, it
/// - times the course's gates with a fence monitor of its own over the course's gates (so it
///   needs no `--fences`, and the boat's crossings are timed exactly as the reference's were);
/// - starts the race at a start crossing the right way (a new one starts it again);
/// - at every catch while racing, gives the gap to the reference at the same course metres
///   (`GhostStatus`: + behind, − ahead, seconds and metres) and where the ghost is;
/// - at each course gate crossed, the boat's time from the start, the reference's, and the gap;
/// - at the finish, the final gap.
///
/// The boat's place along the course is its latest fix's (a catch falls between fixes: the gap is
/// the one at the last fix before it). Pure: no I/O; memory is the reference's (bounded, see
/// `GhostReference`) and a fixed amount per gate.
public struct GhostRace: Sendable {
    public let reference: GhostReference
    private var monitor: FenceMonitor
    private var progress: CourseProgress

    public init(reference: GhostReference) {
        self.reference = reference
        monitor = FenceMonitor(fences: CourseCheck.gateFences(reference.file))
        progress = CourseProgress(ruler: reference.ruler)
    }

    /// Says which reference is raced (call once, before the first record).
    public func announce(emit: (GhostEvent) -> Void) {
        emit(.reference(GhostReferenceInfo(reference)))
    }

    /// Feeds a fix: gate crossings it completes, then its place along the course.
    public mutating func process(_ fix: GPSFix, emit: (GhostEvent) -> Void) {
        var crossings: [GateCrossing] = []
        monitor.process(fix) { if case .cross(let c) = $0 { crossings.append(c) } }
        for crossing in crossings { crossed(crossing, emit: emit) }
        progress.fix(fix)
    }

    /// Feeds a gate crossing timed elsewhere (a test, or a monitor the caller runs). Crossings of
    /// gates outside the course are ignored.
    public mutating func crossed(_ crossing: GateCrossing, emit: (GhostEvent) -> Void) {
        for step in progress.crossed(crossing) {
            switch step {
            case .started(let t):
                emit(.started(time: t))
            case .gate(let k, let elapsed):
                let referenceTime = reference.gateTimes[k]
                emit(.gate(GhostGateSplit(gate: reference.course.gates[k].name, index: k, distance: reference.course.distances[k],
                                          crossingTime: crossing.time, time: elapsed, referenceTime: referenceTime,
                                          gapSeconds: referenceTime.map { elapsed - $0 })))
            case .finished(let elapsed):
                emit(.finished(time: elapsed, gapSeconds: elapsed - reference.time))
            }
        }
    }

    /// Feeds a catch: the race's status at it, while racing.
    public mutating func caught(at time: Seconds, emit: (GhostEvent) -> Void) {
        if let status = status(at: time) { emit(.status(status)) }
    }

    /// The gap at trace time `time` (a catch), from the boat's latest place; nil unless racing.
    /// The ghost's place is taken at the same moment as the boat's (its latest fix), so the two
    /// dots on a map and the two distances side by side are of one instant.
    public func status(at time: Seconds) -> GhostStatus? {
        guard progress.racing, let start = progress.startTime, let latest = progress.latest, time >= start else { return nil }
        let atFix = latest.time - start
        let elapsed = time - start
        return GhostStatus(time: time, elapsed: elapsed, along: latest.along,
                           gapSeconds: atFix - reference.elapsed(atAlong: latest.along),
                           gapMetres: reference.along(atElapsed: atFix) - latest.along,
                           ghostAlong: reference.along(atElapsed: atFix),
                           ghostPosition: reference.position(atElapsed: atFix))
    }

    /// The boat is racing (started, not finished).
    public var racing: Bool { progress.racing }
}
