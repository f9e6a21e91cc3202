import OarlogCore

/// Finds strokes in the boat's surge (fore-aft) acceleration, sample by sample.
///
/// How it works:
/// 1. The input is averaged over blocks of `D` samples down to about `internalRate` (the stroke
///    band is below 2 Hz, so nothing of value is lost and the rest is cheap). The sample rate is
///    estimated from the timestamps and followed as it changes; a time gap resets the detector.
/// 2. A band-pass (two Butterworth biquads, `bandLow`…`bandHigh`) turns each stroke into one
///    clean cycle: a negative lobe over the late recovery and the catch dip, a positive lobe over
///    the drive.
/// 3. A drive is recognised when the band-passed signal, having first fallen below the
///    recovery threshold, rises above the drive threshold — both a fraction of the recent
///    amplitudes, never below `minimumDriveAmplitude` — and at least a refractory period (half
///    the recent stroke period, at least 80 % of the shortest period) after the last drive.
/// 4. The catch is then timed on the raw input samples (a ring of the last 4,096, not
///    averaged, not filtered, so no delay and the input's full time resolution): the dip is
///    located on the averaged signal, its bottom found on the raw samples (smoothed only over
///    ±10 ms, not at all at 50 Hz and below), and timed as the corner of two lines fitted to
///    the slow fall into the catch and the steep rise out of it (`StrokeCatchFit`). Any
///    symmetric smoothing or a parabola would pull the bottom of this lopsided V early by up
///    to half the smoothing width (the former [1 2 1] + parabola on the 25 Hz signal: 20–30 ms).
/// 5. When the band-passed drive lobe ends, the stroke is emitted with its drive duration, the
///    peak acceleration and the rate from the previous catch. The drive ends at the finish, where
///    the blade's push ends: located where the averaged surge falls below its running mean after
///    the drive's peak (zero acceleration: the push only equals the drag there, 15–20 ms before
///    the finish, and the averaging pulls it earlier), timed on the raw samples as the corner
///    where the drive's steep fall meets the recovery's level (`StrokeFinishFit`).
///
/// The event is emitted at the end of the drive, so `recoveryDuration` is `nil`; use
/// `StrokeEvent.completed(nextCatch:)` when the next stroke arrives.
///
/// The type is in several files, a file per stage: the input stage (`StrokeDetector+Input`),
/// the decision every internal-rate sample goes through (`StrokeDecision`) and what it hands on
/// (`StrokeDetector+Decision`: drives, catches, strokes), and the two block paths
/// (`StrokeDetector+TimedRun`, `StrokeDetector+Block`), which run the same stages with their
/// state in local variables.
public struct StrokeDetector: Sendable {
    public let configuration: StrokeDetectorConfiguration

    // Input stage.
    var lastInputTime: Seconds = -.infinity
    var intervalEstimate: Seconds = 0        // 0 = unknown
    var designedInterval: Seconds = 0        // input interval the filters are designed for
    var decimation = 1
    var boxSum: Float = 0
    var boxTimeSum: Seconds = 0
    var boxCount = 0
    var firstSample: (time: Seconds, value: Float)? = nil
    var raw = StrokeRawHistory()           // the input as it came, to time the catch

    // Internal-rate stage.
    var highPass = Biquad(b0: 1, b1: 0, b2: 0, a1: 0, a2: 0)
    var lowPass = Biquad(b0: 1, b1: 0, b2: 0, a1: 0, a2: 0)
    var filtersPrimed = false
    var level: Float = 0                   // slow running mean of the surge
    var levelAlpha: Float = 0.01
    var amplitudeDecay: Float = 1          // per internal sample, once strokes stop
    var history = StrokeSignalHistory()
    /// The phase, its running figures and thresholds: what every internal-rate sample reads.
    var decision = StrokeDecision()
    var driveAmplitude: Float = 0          // remembered, band-passed
    var recoveryAmplitude: Float = 0
    var pendingCatch: (time: Seconds, index: Int) = (0, 0)
    var lastCatch: Seconds? = nil
    var lastDrivePeak: Float = 0           // band-passed, the last stroke's
    var rhythm: Seconds = 0                // the period of the strokes before, 0 = unknown (a pause breaks it)
    // Announcing the catch (`announcesCatches`).
    var riseRange: Float = 0               // averaged surge, recent strokes' dip to peak; 0 = unknown
    /// The catch announced, whose drive has not been recognised yet.
    var announced: (time: Seconds, index: Int)? = nil {
        didSet { decision.announcedAt = announced?.time ?? .infinity }
    }
    var announcing = true                  // false once this stroke's announcement was refused or withdrawn
    var lastFinish: Seconds = -.infinity
    var period: Seconds = 0                // recent catch-to-catch period, 0 = unknown
    var overflow: StrokeEvent? = nil

    /// Strokes emitted so far.
    public internal(set) var strokeCount = 0

    public init(configuration: StrokeDetectorConfiguration = .init()) {
        self.configuration = configuration
        updateThresholds()
    }

    /// The input sample rate the detector currently assumes (from the timestamps), if known.
    public var estimatedSampleRate: Hertz? { intervalEstimate > 0 ? 1 / intervalEstimate : nil }

    // MARK: Public entry points

    /// Feeds one surge sample (m/s², gravity removed, positive = boat speeding up).
    /// Returns a stroke when one has been recognised. Samples whose time does not advance are
    /// ignored.
    public mutating func process(time: Seconds, surge: MetresPerSecondSquared) -> StrokeEvent? {
        var result = overflow
        var extra: StrokeEvent? = nil
        overflow = nil
        process(time: time, surge: surge) { event in
            if result == nil { result = event } else { extra = event }
        }
        overflow = extra
        return result
    }

    /// Feeds one surge sample; `emit` is called for each stroke recognised.
    public mutating func process(time: Seconds, surge: MetresPerSecondSquared, emit: (StrokeEvent) -> Void) {
        let dt = time - lastInputTime
        guard dt > 0, surge.isFinite else { return }
        if !lastInputTime.isFinite || designedInterval == 0 && dt > configuration.gapThreshold {
            // The first sample (after a start or a gap) waits for the second: the interval
            // between them sets the decimation before anything is filtered.
            if lastInputTime.isFinite { reset(emit: emit) }
            holdFirst(time: time, surge: surge)
            return
        }
        if let first = firstSample {
            firstSample = nil
            intervalEstimate = dt
            redesign(interval: dt, emit: emit)
            accumulate(time: first.time, value: first.value, emit: emit)
        } else if dt > gapLimit {
            reset(emit: emit)
            holdFirst(time: time, surge: surge)
            return
        } else {
            let clamped = min(dt, 2 * intervalEstimate)
            intervalEstimate += 0.1 * (clamped - intervalEstimate)
            if abs(intervalEstimate / designedInterval - 1) > 0.25 { redesign(interval: intervalEstimate, emit: emit) }
        }
        lastInputTime = time
        raw.append(time: time, value: surge)
        accumulate(time: time, value: surge, emit: emit)
    }

    /// Ends the stream: a stroke whose drive is still in progress is emitted with what is known.
    public mutating func finish(emit: (StrokeEvent) -> Void) {
        if let event = overflow { emit(event); overflow = nil }
        firstSample = nil
        if boxCount > 0 { flushBox(emit: emit) }
        if decision.phase == .drive, let now = history.count > 0 ? history.time(history.count - 1) : nil {
            completeStroke(now: now, emit: emit)
        }
        withdraw(emit: emit)
    }
}
