import OarlogCore

/// Raw accelerometer samples in, strokes out: the mounting estimator feeding the stroke
/// detector. While the mounting settles the samples are held (bounded) and replayed once it
/// has, so the first strokes of a session are counted too. The stroke quality meter takes the
/// same surge samples as the detector, on both paths.
public struct SurgeStrokeDetector: Sendable {
    public private(set) var mounting: MountingEstimator
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

    /// Whether `process(run:from:to:emit:)` takes samples now (the mounting has settled).
    var takesRuns: Bool { mounting.takesRuns }

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
                    let next = mounting.surges(of: samples, from: start, to: limit, times: times, values: values, fusedValues: fused)
                    qualityMeter.process(times: times, values: values, count: next - start)
                    speed.predict(times: times, values: fused, count: next - start)
                    detector.process(times: times, values: values, count: next - start) { k, stroke in emit(start + k, stroke) }
                    return next
                }
            }
        }
    }

    /// Feeds one raw sample; `emit` is called for each stroke recognised. Returns the sample's
    /// surge (`nil` while the mounting settles; the samples held meanwhile are not returned).
    @discardableResult
    public mutating func process(_ sample: AccelSample, emit: (StrokeEvent) -> Void) -> MetresPerSecondSquared? {
        guard let surge = mounting.surge(of: sample) else { return nil }
        if mounting.hasSettlingHistory {  // once per session
            var d = detector, q = qualityMeter
            mounting.drainSettlingHistory { time, value in
                q.process(time: time, surge: value)
                d.process(time: time, surge: value, emit: emit)
            }
            detector = d
            qualityMeter = q
        }
        qualityMeter.process(time: sample.time, surge: surge)
        detector.process(time: sample.time, surge: surge, emit: emit)
        return surge
    }

    /// The quality of the stroke from `catchTime` to `nextCatch` (see `StrokeQualityMeter`).
    public mutating func quality(catchTime: Seconds, nextCatch: Seconds, driveDuration: Seconds) -> StrokeQuality? {
        qualityMeter.quality(catchTime: catchTime, nextCatch: nextCatch, driveDuration: driveDuration)
    }

    /// Ends the stream (emits a stroke whose drive is still in progress).
    public mutating func finish(emit: (StrokeEvent) -> Void) {
        detector.finish(emit: emit)
    }
}
