import OarlogCore

/// Raw accelerometer samples in, strokes out: the mounting estimator feeding the stroke
/// detector. While the mounting settles the samples are held (bounded) and replayed once it
/// has, so the first strokes of a session are counted too.
public struct SurgeStrokeDetector: Sendable {
    public private(set) var mounting: MountingEstimator
    public private(set) var detector: StrokeDetector

    public init(mounting: MountingEstimatorConfiguration = .init(), detector: StrokeDetectorConfiguration = .init()) {
        self.mounting = MountingEstimator(configuration: mounting)
        self.detector = StrokeDetector(configuration: detector)
    }

    /// Feeds one raw sample; `emit` is called for each stroke recognised.
    public mutating func process(_ sample: AccelSample, emit: (StrokeEvent) -> Void) {
        guard let surge = mounting.surge(of: sample) else { return }
        if mounting.hasSettlingHistory {  // once per session
            var d = detector
            mounting.drainSettlingHistory { time, value in d.process(time: time, surge: value, emit: emit) }
            detector = d
        }
        detector.process(time: sample.time, surge: surge, emit: emit)
    }

    /// Ends the stream (emits a stroke whose drive is still in progress).
    public mutating func finish(emit: (StrokeEvent) -> Void) {
        detector.finish(emit: emit)
    }
}
