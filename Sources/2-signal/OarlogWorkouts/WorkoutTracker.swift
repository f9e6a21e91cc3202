import OarlogCore
import OarlogDSP

/// Times a workout plan as the crew rows it: pure, no I/O, the same code live, in a replay and in
/// the tests. The first step starts at the first catch (as a SpeedCoach does) or at a go
/// (`start(at:)`); a timed step ends exactly at its time, a distance step at the moment the GPS
/// distance reaches it (interpolated between fixes, not at the next stroke or fix); a rest lasts
/// its time and the next step starts as it ends.
///
/// Fed by the pipeline: every analyzer event (`observe`: catches, withdrawn catches, live
/// figures) and the clock with the analyzer's distance history after each record or run of
/// samples (`advance`). Each step's figures follow as `.interval` once the catches and the
/// distance up to its end are in. Memory is bounded by the plan's limits.
public struct WorkoutTracker: Sendable {
    public let plan: WorkoutPlan
    /// After a step's end, how long to wait for a catch just before it to be announced.
    public static let catchSettle: Seconds = 1.5
    /// How long to wait for GPS to cover a step's end before its distance is given up.
    public static let distanceSettle: Seconds = 30
    /// At most this many catches are held for steps not yet reported.
    static let catchCapacity = 50_000

    public private(set) var phase = WorkoutStatus.Phase.waiting
    public private(set) var stepIndex = 0
    private var stepStart: Seconds = 0
    private var startDistance: Metres?
    private var clock: Seconds = -.infinity
    private var pending: [StepSpan] = []
    private var tally = IntervalTally()
    private var nextIntervalIndex = 1
    private var announcedPlan = false
    // Live figures for the status.
    private var liveDistance: Metres?
    private var liveDistanceAtStart: Metres?
    private var liveRate: StrokesPerMinute?
    private var liveSplit: SecondsPer500m?

    struct StepSpan: Sendable {
        var stepIndex: Int
        var start: Seconds
        var end: Seconds
        var startDistance: Metres?
        var completed: Bool
    }

    /// The go: when set, the first step starts at this time (a countdown's zero, or the start a
    /// recorded session gives its replay), not at the first catch.
    public let goTime: Seconds?

    public init(plan: WorkoutPlan, goTime: Seconds? = nil) {
        self.plan = plan
        self.goTime = goTime.flatMap { $0.isFinite ? $0 : nil }
    }

    /// The plan is announced once, before anything else (the recorder writes it first).
    public mutating func announce(emit: (WorkoutEvent) -> Void) {
        guard !announcedPlan else { return }
        announcedPlan = true
        emit(.planned(plan))
    }

    /// The go: the first step starts now unless a catch started it already.
    public mutating func start(at time: Seconds, emit: (WorkoutEvent) -> Void) {
        announce(emit: emit)
        guard phase == .waiting, time.isFinite, !plan.steps.isEmpty else { return }
        begin(step: 0, at: time, emit: emit)
    }

    /// An analyzer event: the catches count the strokes (the first starts the plan), the live
    /// figures give the status its rate and split and the intervals their split in band.
    public mutating func observe(_ event: AnalyzerEvent, emit: (WorkoutEvent) -> Void) {
        switch event {
        case .caught(let metrics):
            let t = metrics.stroke.catchTime
            guard t.isFinite else { return }
            advanceClock(to: t, distance: nil, emit: emit)
            if phase == .waiting, goTime == nil { start(at: t, emit: emit) }
            if phase == .rowing || !pending.isEmpty {
                tally.addCatch(index: metrics.stroke.index, time: t, capacity: Self.catchCapacity)
            }
            if let rate = metrics.smoothedRate ?? metrics.stroke.strokeRate { liveRate = rate }
        case .withdrawn(let stroke):
            tally.withdraw(index: stroke.index)
        case .live(let figures):
            guard figures.time.isFinite else { return }
            advanceClock(to: figures.time, distance: nil, emit: emit)
            liveRate = figures.strokeRate
            liveSplit = figures.split
            liveDistance = figures.distance
            if phase == .rowing { tally.addSplit(time: figures.time, split: figures.split, capacity: Self.catchCapacity) }
            emit(.status(status))
        case .stroke, .speed:
            break
        }
    }

    /// The clock moved to `time`; `distance` is the analyzer's distance history (it ends distance
    /// steps and gives every interval its metres).
    public mutating func advance(to time: Seconds, distance: DistanceHistory, emit: (WorkoutEvent) -> Void) {
        advanceClock(to: time, distance: distance, emit: emit)
        while let span = pending.first, ready(span, distance) {
            pending.removeFirst()
            report(span, distance: distance, emit: emit)
        }
    }

    /// The session ended: a step still running ends here (not completed) and every step is reported.
    public mutating func finish(at time: Seconds?, distance: DistanceHistory, emit: (WorkoutEvent) -> Void) {
        if let time { advanceClock(to: time, distance: distance, emit: emit) }
        if phase == .rowing {
            let end = max(stepStart, clock)
            resolveStartDistance(distance)
            pending.append(StepSpan(stepIndex: stepIndex, start: stepStart, end: end, startDistance: startDistance, completed: false))
            phase = .finished
            emit(.finished(time: end))
        }
        while !pending.isEmpty {
            report(pending.removeFirst(), distance: distance, emit: emit)
        }
    }

    private mutating func begin(step: Int, at time: Seconds, emit: (WorkoutEvent) -> Void) {
        stepIndex = step
        stepStart = time
        startDistance = nil
        liveDistanceAtStart = liveDistance
        phase = .rowing
        emit(.started(step: step, time: time))
    }

    /// Ends every step whose time (or, with `distance`, whose metres) is done by the clock.
    private mutating func advanceClock(to time: Seconds, distance: DistanceHistory?, emit: (WorkoutEvent) -> Void) {
        if time > clock { clock = time }
        if phase == .waiting, let go = goTime, clock >= go { start(at: go, emit: emit) }
        while phase == .rowing {
            let step = plan.steps[stepIndex]
            let end: Seconds
            switch step.length {
            case .time(let seconds):
                guard clock >= stepStart + seconds else { return }
                end = stepStart + seconds
            case .distance(let metres):
                guard let distance else { return }
                resolveStartDistance(distance)
                guard let d0 = startDistance, let reached = distance.time(reaching: d0 + metres, from: stepStart) else { return }
                end = reached
            }
            pending.append(StepSpan(stepIndex: stepIndex, start: stepStart, end: end, startDistance: startDistance, completed: true))
            if stepIndex + 1 < plan.steps.count {
                begin(step: stepIndex + 1, at: end, emit: emit)
            } else {
                phase = .finished
                emit(.finished(time: end))
            }
        }
    }

    private mutating func resolveStartDistance(_ distance: DistanceHistory) {
        guard startDistance == nil, let newest = distance.newestTime, newest >= stepStart else { return }
        startDistance = distance.distanceFromStart(at: stepStart)
    }

    /// A step can be reported once the catches just before its end have come in and GPS covers
    /// its end (or has not for `distanceSettle`, or there is no GPS at all).
    private func ready(_ span: StepSpan, _ distance: DistanceHistory) -> Bool {
        guard clock >= span.end + Self.catchSettle else { return false }
        guard let newest = distance.newestTime else { return true }
        return newest >= span.end || clock >= span.end + Self.distanceSettle
    }

    private mutating func report(_ span: StepSpan, distance history: DistanceHistory, emit: (WorkoutEvent) -> Void) {
        let step = plan.steps[span.stepIndex]
        var metres: Metres?
        if let d0 = span.startDistance ?? history.distanceFromStart(at: span.start), let d1 = history.distanceFromStart(at: span.end) {
            metres = max(0, d1 - d0)
        }
        let figures = tally.figures(from: span.start, to: span.end, target: step.target)
        emit(.interval(WorkoutInterval(
            index: nextIntervalIndex, stepIndex: span.stepIndex, kind: step.kind,
            pieceNumber: plan.pieceNumber(ofStep: span.stepIndex), label: step.label,
            start: span.start, end: span.end, distance: metres, strokes: figures.strokes,
            averageStrokeRate: figures.averageRate, target: step.target,
            strokeRateInBand: figures.rateInBand, splitInBand: figures.splitInBand, completed: span.completed)))
        nextIntervalIndex += 1
        tally.drop(before: pending.first?.start ?? span.end)
    }

    /// Where the crew is now, for the cox's screen.
    public var status: WorkoutStatus {
        let step = plan.steps[min(stepIndex, plan.steps.count - 1)]
        var status = WorkoutStatus(
            phase: phase, stepIndex: stepIndex, stepCount: plan.steps.count, kind: step.kind, label: step.label,
            pieceNumber: plan.pieceNumber(ofStep: stepIndex), pieceCount: plan.pieceCount, length: step.length,
            target: step.target, strokeRate: liveRate, split: liveSplit,
            next: stepIndex + 1 < plan.steps.count ? plan.steps[stepIndex + 1] : nil)
        guard phase == .rowing else { return status }
        status.elapsed = max(0, clock - stepStart)
        if let d = liveDistance, let d0 = liveDistanceAtStart { status.distance = max(0, d - d0) }
        switch step.length {
        case .time(let seconds): status.remainingTime = max(0, seconds - status.elapsed)
        case .distance(let metres): status.remainingDistance = status.distance.map { max(0, metres - $0) }
        }
        if step.kind != .rest {
            if let band = step.target.strokeRate, let rate = liveRate {
                status.strokeRateBand = TargetBand(rate, in: band, tolerance: TargetBand.strokeRateTolerance)
            }
            if let band = step.target.split, let split = liveSplit {
                status.splitBand = TargetBand(split, in: band, tolerance: TargetBand.splitTolerance)
            }
        }
        return status
    }
}
