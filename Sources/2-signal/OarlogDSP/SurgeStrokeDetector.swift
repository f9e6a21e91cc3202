import OarlogCore

/// Raw accelerometer samples in, strokes out: the mounting estimator feeding the stroke
/// detector. While the mounting settles the samples are held (bounded) and replayed once it
/// has, so the first strokes of a session are counted too. The stroke quality meter takes the
/// same surge samples as the detector, on both paths.
public struct SurgeStrokeDetector: Sendable {
    /// The mounting estimator (while a lookahead computes the surges, it stands where the lookahead
    /// took over, and is brought up to date when the trace ends: `finish`).
    public private(set) var mounting: MountingEstimator
    /// The mounting computed ahead on the parsing thread, when it is followed (`follow`).
    private var lookahead: MountingLookahead? = nil
    private var lookaheadFusedSurge: Float = .nan
    public private(set) var detector: StrokeDetector
    public private(set) var qualityMeter = StrokeQualityMeter()

    // The block path's surge samples (times, values), a run at a time.
    private var runTimes: [Seconds]
    private var runValues: [Float]
    /// The fused speed's surge for the same samples (`MountingEstimator.fusedSurge`).
    private var runFusedValues: [Float]
    /// Samples per run on the block path.
    static let runCapacity = 512

    public init(mounting: MountingEstimatorConfiguration = .init(), detector: StrokeDetectorConfiguration = .init()) {
        self.mounting = MountingEstimator(configuration: mounting)
        self.detector = StrokeDetector(configuration: detector)
        qualityMeter = StrokeQualityMeter(gravityTimeConstant: self.mounting.configuration.gravityTimeConstant)
        runTimes = [Seconds](repeating: 0, count: Self.runCapacity)
        runValues = [Float](repeating: 0, count: Self.runCapacity)
        runFusedValues = [Float](repeating: 0, count: Self.runCapacity)
    }

    /// Whether `process(run:from:to:emit:)` takes samples now (the mounting has settled, or it
    /// is computed ahead).
    var takesRuns: Bool { lookahead != nil || mounting.takesRuns }

    /// The block path: exactly `process(_:emit:)` for the samples `samples[start..<end]`, in
    /// order, for as long as each takes the mounting estimator's common way (see
    /// `MountingEstimator.surges`); `emit` is also told the index of the sample that completed
    /// the stroke. At most `runCapacity` samples a call; returns the index after the last one
    /// taken (`start` if the first must go through `process(_:emit:)`). The mounting estimator
    /// projects the run, then the detector takes the surge values with their times, and the
    /// fused speed (`speed`) is predicted with its own surge of the same samples (the estimator's
    /// `fusedSurge`: slow gravity, frozen axis).
    mutating func process(run samples: UnsafeBufferPointer<AccelSample>, from start: Int, to end: Int,
                          speed: inout FusedSpeedFilter, emit: (Int, StrokeEvent) -> Void) -> Int {
        let limit = min(end, start + Self.runCapacity)
        var fusedValues = runFusedValues
        runFusedValues = []
        defer { runFusedValues = fusedValues }
        return runTimes.withUnsafeMutableBufferPointer { t in
            runValues.withUnsafeMutableBufferPointer { v in
                fusedValues.withUnsafeMutableBufferPointer { f in
                    let times = t.baseAddress.unsafelyUnwrapped, values = v.baseAddress.unsafelyUnwrapped
                    let fused = f.baseAddress.unsafelyUnwrapped
                    let next: Int
                    if let lookahead {
                        next = start + Self.copyRun(from: lookahead, samples, from: start, to: limit, times: times, values: values, fused: fused)
                    } else {
                        next = mounting.surges(of: samples, from: start, to: limit, times: times, values: values, fusedValues: fused)
                    }
                    qualityMeter.process(times: times, values: values, count: next - start)
                    speed.predict(times: times, values: fused, count: next - start)
                    detector.process(times: times, values: values, count: next - start) { k, stroke in emit(start + k, stroke) }
                    return next
                }
            }
        }
    }

    /// The surges of `samples[start..<end]` as the lookahead computed them, as far as they go
    /// through in one run (`MountingLookahead.runLength`): how many.
    @inline(__always)
    private static func copyRun(from lookahead: MountingLookahead, _ samples: UnsafeBufferPointer<AccelSample>,
                                from start: Int, to end: Int, times: UnsafeMutablePointer<Seconds>,
                                values: UnsafeMutablePointer<Float>, fused: UnsafeMutablePointer<Float>) -> Int {
        let n = lookahead.runLength(limit: end - start)
        guard n > 0 else { return 0 }
        let mounted = lookahead.takeRun(n)
        for k in 0..<n {
            times[k] = samples[start &+ k].time
            values[k] = mounted[k].surge
            fused[k] = mounted[k].fusedSurge
        }
        return n
    }

    /// Feeds one raw sample; `emit` is called for each stroke recognised. Returns the sample's
    /// surge (`nil` while the mounting settles; the samples held meanwhile are not returned).
    @discardableResult
    public mutating func process(_ sample: AccelSample, emit: (StrokeEvent) -> Void) -> MetresPerSecondSquared? {
        if let lookahead {
            switch lookahead.next() {
            case .handover(let state):
                mounting = state   // the estimator from here on, as the parsing thread left it
                self.lookahead = nil
            case .sample(let mounted, let settled):
                lookaheadFusedSurge = mounted.fusedSurge
                guard mounted.hasSurge else { return nil }
                if var state = settled { replaySettling(of: &state, emit: emit) }
                qualityMeter.process(time: sample.time, surge: mounted.surge)
                detector.process(time: sample.time, surge: mounted.surge, emit: emit)
                return mounted.surge
            }
        }
        guard let surge = mounting.surge(of: sample) else { return nil }
        if mounting.hasSettlingHistory {  // once per session
            var state = mounting
            replaySettling(of: &state, emit: emit)
            mounting = state
        }
        qualityMeter.process(time: sample.time, surge: surge)
        detector.process(time: sample.time, surge: surge, emit: emit)
        return surge
    }

    /// The samples held while the mounting settled, through the quality meter and the detector.
    private mutating func replaySettling(of estimator: inout MountingEstimator, emit: (StrokeEvent) -> Void) {
        var d = detector, q = qualityMeter
        estimator.drainSettlingHistory { time, value in
            q.process(time: time, surge: value)
            d.process(time: time, surge: value, emit: emit)
        }
        detector = d
        qualityMeter = q
    }

    /// The fused speed's surge of the latest sample (`MountingEstimator.fusedSurge`).
    var fusedSurge: Float { lookahead == nil ? mounting.fusedSurge : lookaheadFusedSurge }

    /// Takes each sample's surge from `lookahead` (the same estimator run ahead on the parsing
    /// thread) instead of running the estimator here. Only before the first sample, with the
    /// same configuration, and when a parsing thread feeds it; returns whether it follows.
    mutating func follow(_ lookahead: MountingLookahead) -> Bool {
        guard self.lookahead == nil, lookahead.isAttached, lookahead.configuration == mounting.configuration,
              mounting.count == 0 else { return false }
        self.lookahead = lookahead
        return true
    }

    /// The quality of the stroke from `catchTime` to `nextCatch` (see `StrokeQualityMeter`).
    public mutating func quality(catchTime: Seconds, nextCatch: Seconds, driveDuration: Seconds) -> StrokeQuality? {
        qualityMeter.quality(catchTime: catchTime, nextCatch: nextCatch, driveDuration: driveDuration)
    }

    /// Ends the stream (emits a stroke whose drive is still in progress).
    public mutating func finish(emit: (StrokeEvent) -> Void) {
        if let lookahead, let state = lookahead.finalEstimator() {
            mounting = state
            self.lookahead = nil
        }
        detector.finish(emit: emit)
    }
}
