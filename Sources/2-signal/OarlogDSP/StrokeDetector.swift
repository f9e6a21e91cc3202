#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
public struct StrokeDetector: Sendable {
    public let configuration: StrokeDetectorConfiguration

    private enum Phase: Sendable { case recovery, drive }

    // Input stage.
    private var lastInputTime: Seconds = -.infinity
    private var intervalEstimate: Seconds = 0        // 0 = unknown
    private var designedInterval: Seconds = 0        // input interval the filters are designed for
    private var decimation = 1
    private var boxSum: Float = 0
    private var boxTimeSum: Seconds = 0
    private var boxCount = 0
    private var firstSample: (time: Seconds, value: Float)? = nil
    private var raw = StrokeRawHistory()           // the input as it came, to time the catch

    // Internal-rate stage.
    private var highPass = Biquad(b0: 1, b1: 0, b2: 0, a1: 0, a2: 0)
    private var lowPass = Biquad(b0: 1, b1: 0, b2: 0, a1: 0, a2: 0)
    private var filtersPrimed = false
    private var level: Float = 0                  // slow running mean of the surge
    private var levelAlpha: Float = 0.01
    private var amplitudeDecay: Float = 1          // per internal sample, once strokes stop
    private var history = StrokeSignalHistory()
    private var phase = Phase.recovery
    private var armed = false
    private var drivePeak: Float = 0               // band-passed, this drive
    private var recoveryTrough: Float = 0          // band-passed, this recovery (negative)
    private var driveAmplitude: Float = 0          // remembered, band-passed
    private var recoveryAmplitude: Float = 0
    private var driveThreshold: Float = 0          // band-passed level that recognises a drive
    private var armThreshold: Float = 0            // band-passed level (negative) that arms it
    private var minimumTriggerInterval: Seconds = 0 // the refractory period
    private var decayAfter: Seconds = 2            // amplitudes fade this long after a drive
    private var triggerTime: Seconds = -.infinity
    private var pendingCatch: (time: Seconds, index: Int) = (0, 0)
    private var lastCatch: Seconds? = nil
    private var lastDrivePeak: Float = 0           // band-passed, the last stroke's
    private var rhythm: Seconds = 0                // the period of the strokes before, 0 = unknown (a pause breaks it)
    // Announcing the catch (`announcesCatches`).
    private var runMin: Float = .infinity          // averaged surge, its lowest since the last drive ended
    private var riseRange: Float = 0               // averaged surge, recent strokes' dip to peak; 0 = unknown
    private var riseNeeded: Float = .infinity      // a rise above `runMin` that announces the catch (∞: not now)
    private var dipOffset: Float = 0               // `runMin` must be this far below the mean
    private var announced: (time: Seconds, index: Int)? = nil
    private var announcing = true                  // false once this stroke's announcement was refused or withdrawn
    private var lastFinish: Seconds = -.infinity
    private var period: Seconds = 0                // recent catch-to-catch period, 0 = unknown
    private var overflow: StrokeEvent? = nil

    /// Strokes emitted so far.
    public private(set) var strokeCount = 0

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
            firstSample = (time, surge)
            raw.append(time: time, value: surge)
            lastInputTime = time
            return
        }
        if let first = firstSample {
            firstSample = nil
            intervalEstimate = dt
            redesign(interval: dt, emit: emit)
            accumulate(time: first.time, value: first.value, emit: emit)
        } else if dt > gapLimit {
            reset(emit: emit)
            firstSample = (time, surge)
            raw.append(time: time, value: surge)
            lastInputTime = time
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

    /// Exactly `process(time: times[k], surge: values[k], emit:)` for each `k` in `0..<count`, in
    /// order; `emit` is also told the `k` whose sample completed the stroke. The path for samples
    /// with their own (not necessarily uniform) times, as the mounting estimator gives them.
    ///
    /// Like `runSteps` on the uniform block path: the input stage (interval tracking, gap and
    /// rate-change checks, the averaging box, the raw history) and the internal-rate stage
    /// (filters, level, signal history, the decision's trough, peak and arming) run with their
    /// state in local variables and the histories written in place; whenever `decide` would do
    /// more than that (a drive recognised, a stroke completed, amplitudes fading) the state is
    /// written back and `decide` takes that sample, and anything uncommon at the input (a gap, a
    /// time that does not advance, a rate change, the first samples after a start or a gap)
    /// goes through `process(time:surge:emit:)`. The same arithmetic, sample for sample.
    mutating func process(times: UnsafePointer<Seconds>, values: UnsafePointer<Float>, count n: Int,
                          emit: (Int, StrokeEvent) -> Void) {
        var i = 0
        let gapThreshold = configuration.gapThreshold
        while i < n {
            guard lastInputTime.isFinite, designedInterval > 0, firstSample == nil, filtersPrimed else {
                let k = i
                process(time: times[k], surge: values[k]) { emit(k, $0) }
                i += 1
                continue
            }
            let d = decimation, designed = designedInterval
            // Between these the estimate is certainly within 25 % of the design (the quotient,
            // rounded, is within 0.76…1.24): no division needed to know there is no redesign.
            let surelyAbove = designed * 0.76, surelyBelow = designed * 1.24
            var last = lastInputTime, estimate = intervalEstimate
            var sum = boxSum, timeSum = boxTimeSum, filled = boxCount
            var hp = highPass, lp = lowPass
            var mean = level
            let alpha = levelAlpha
            var trough = recoveryTrough, peak = drivePeak, isArmed = armed
            let inDrive = phase == .drive
            let trigger = triggerTime, decayFrom = decayAfter, arm = armThreshold, drive = driveThreshold
            let refractory = minimumTriggerInterval
            var lowest = runMin
            let rise = riseNeeded, dip = dipOffset
            var event: (time: Seconds, band: Float)? = nil
            var plain = false  // sample `i` goes through `process(time:surge:emit:)`
            raw.withUnsafeRing { rawTimes, rawValues, rawCount in
                history.withUnsafeRing { historyTimes, historyValues, historyCount in
                    let rawMask = StrokeRawHistory.mask, historyMask = StrokeSignalHistory.mask
                    while i < n {
                        let time = times[i], value = values[i]
                        let dt = time - last
                        // Not the common case: the sample is ignored, ends a gap (the limit is the
                        // estimate before this sample, as in `gapLimit`), or its interval is
                        // clamped (more than twice the estimate: here `min(dt, 2 · estimate)` is
                        // `dt`, so the estimate's update does not wait for the comparison).
                        guard dt > 0, value.isFinite, !(dt > max(gapThreshold, 5 * estimate)), !(2 * estimate < dt) else {
                            plain = true
                            return
                        }
                        let next = estimate + 0.1 * (dt - estimate)
                        if !(next > surelyAbove && next < surelyBelow) && abs(next / designed - 1) > 0.25 {
                            plain = true  // a redesign
                            return
                        }
                        estimate = next
                        last = time
                        rawTimes[rawCount & rawMask] = time
                        rawValues[rawCount & rawMask] = value
                        rawCount &+= 1
                        sum += value
                        timeSum += time
                        filled += 1
                        i += 1
                        if filled >= d {
                            // `flushBox` and `step`.
                            let boxValue = sum / Float(filled)
                            let boxTime = timeSum / Double(filled)
                            sum = 0; timeSum = 0; filled = 0
                            let band = lp.process(hp.process(boxValue))
                            mean += alpha * (boxValue - mean)
                            historyTimes[historyCount & historyMask] = boxTime
                            historyValues[historyCount & historyMask] = boxValue
                            historyCount &+= 1
                            // `decide`, as long as it only tracks the trough, the peak, the arming.
                            let special: Bool
                            if inDrive {
                                if band > peak { peak = band }
                                special = band < 0 || boxTime - trigger > 3
                            } else if boxTime - trigger > decayFrom {
                                special = true
                            } else {
                                if band < trough { trough = band }
                                if band < arm { isArmed = true }
                                if boxValue < lowest { lowest = boxValue }
                                special = isArmed && boxTime - trigger >= refractory
                                    && (band > drive || Self.risesOutOfADip(boxValue, lowest: lowest, rise: rise, level: mean, dip: dip))
                            }
                            if special {
                                event = (boxTime, band)
                                return
                            }
                        }
                    }
                }
            }
            lastInputTime = last; intervalEstimate = estimate
            boxSum = sum; boxTimeSum = timeSum; boxCount = filled
            highPass = hp; lowPass = lp
            level = mean
            recoveryTrough = trough; drivePeak = peak; armed = isArmed
            runMin = lowest
            if let e = event {
                let k = i - 1
                decide(time: e.time, band: e.band) { emit(k, $0) }
            } else if plain {
                let k = i
                process(time: times[k], surge: values[k]) { emit(k, $0) }
                i += 1
            }
        }
    }

    @inline(__always)
    private mutating func accumulate(time: Seconds, value: Float, emit: (StrokeEvent) -> Void) {
        boxSum += value
        boxTimeSum += time
        boxCount += 1
        if boxCount >= decimation { flushBox(emit: emit) }
    }

    /// Feeds a block of uniformly sampled surge values (m/s²): sample `i` is at
    /// `startTime + i * sampleInterval`. The fast path for recorded data.
    public mutating func process(block: UnsafeBufferPointer<Float>, startTime: Seconds,
                                 sampleInterval: Seconds, emit: (StrokeEvent) -> Void) {
        guard block.count > 0, sampleInterval > 0 else { return }
        if lastInputTime.isFinite {
            let dt = startTime - lastInputTime
            if dt <= 0 { return }
            if dt > max(configuration.gapThreshold, 5 * max(sampleInterval, intervalEstimate)) { reset(emit: emit) }
        }
        intervalEstimate = sampleInterval
        if let first = firstSample {
            firstSample = nil
            redesign(interval: sampleInterval, emit: emit)
            accumulate(time: first.time, value: first.value, emit: emit)
        }
        if designedInterval == 0 || abs(sampleInterval / designedInterval - 1) > 0.01 {
            redesign(interval: sampleInterval, emit: emit)
        }
        raw.attach(block, startTime: startTime, interval: sampleInterval)  // read in place, its tail kept
        defer { raw.detach() }
        let n = block.count
        var i = 0
        // Complete a box left over from the previous call.
        while boxCount > 0 && i < n {
            boxSum += block[i]; boxTimeSum += startTime + Double(i) * sampleInterval; boxCount += 1; i += 1
            if boxCount >= decimation { flushBox(emit: emit) }
        }
        if decimation == 4 {
            i = runSteps(block, from: i, decimation: 4, startTime: startTime, sampleInterval: sampleInterval, emit: emit)
        } else {
            i = runSteps(block, from: i, decimation: decimation, startTime: startTime, sampleInterval: sampleInterval, emit: emit)
        }
        while i < n {
            boxSum += block[i]; boxTimeSum += startTime + Double(i) * sampleInterval; boxCount += 1; i += 1
        }
        lastInputTime = startTime + Double(n - 1) * sampleInterval
    }

    /// Ends the stream: a stroke whose drive is still in progress is emitted with what is known.
    public mutating func finish(emit: (StrokeEvent) -> Void) {
        if let event = overflow { emit(event); overflow = nil }
        firstSample = nil
        if boxCount > 0 { flushBox(emit: emit) }
        if phase == .drive, let now = history.count > 0 ? history.time(history.count - 1) : nil {
            completeStroke(now: now, emit: emit)
        }
        withdraw(emit: emit)
    }

    // MARK: Input stage

    private var gapLimit: Seconds { max(configuration.gapThreshold, 5 * intervalEstimate) }

    private mutating func flushBox(emit: (StrokeEvent) -> Void) {
        let n = Float(boxCount)
        let value = boxSum / n
        let time = boxTimeSum / Double(boxCount)
        boxSum = 0; boxTimeSum = 0; boxCount = 0
        if designedInterval == 0 { redesign(interval: intervalEstimate > 0 ? intervalEstimate : 1 / configuration.internalRate, emit: emit) }
        step(time: time, value: value, emit: emit)
    }

    /// Chooses the decimation for the input interval and designs the filters for the resulting
    /// internal rate. Filter state is kept (a rate change mid-stream is not a gap).
    private mutating func redesign(interval: Seconds, emit: (StrokeEvent) -> Void) {
        if boxCount > 0 {
            let pendingValue = boxSum / Float(boxCount), pendingTime = boxTimeSum / Double(boxCount)
            boxSum = 0; boxTimeSum = 0; boxCount = 0
            if designedInterval > 0 { step(time: pendingTime, value: pendingValue, emit: emit) }
        }
        designedInterval = interval
        decimation = max(1, Int((1 / (interval * configuration.internalRate)).rounded(.down)))
        let internalRate = 1 / (interval * Double(decimation))
        highPass.setCoefficients(from: .highPass(cutoff: configuration.bandLow, sampleRate: internalRate))
        lowPass.setCoefficients(from: .lowPass(cutoff: configuration.bandHigh, sampleRate: internalRate))
        levelAlpha = Float(1 - exp(-1 / (internalRate * 4)))  // 4 s running mean
        amplitudeDecay = Float(exp(-1 / (internalRate * configuration.amplitudeDecayTime)))
    }

    /// Forgets the signal (a gap): a drive in progress is emitted with what is known; the stroke
    /// count carries on, the next stroke has no rate.
    private mutating func reset(emit: (StrokeEvent) -> Void) {
        if phase == .drive, history.count > 0 { completeStroke(now: history.time(history.count - 1), emit: emit) }
        withdraw(emit: emit)
        announcing = true
        runMin = .infinity
        boxSum = 0; boxTimeSum = 0; boxCount = 0
        firstSample = nil
        intervalEstimate = 0
        designedInterval = 0
        filtersPrimed = false
        history.removeAll()
        raw.removeAll()
        phase = .recovery
        armed = false
        drivePeak = 0; recoveryTrough = 0
        driveAmplitude = 0; recoveryAmplitude = 0
        triggerTime = -.infinity
        lastCatch = nil
        lastDrivePeak = 0
        rhythm = 0
        lastFinish = -.infinity
        period = 0
        updateThresholds()
    }

    // MARK: Internal-rate stage

    @inline(__always)
    private mutating func step(time: Seconds, value: Float, emit: (StrokeEvent) -> Void) {
        if !filtersPrimed {
            highPass.settle(at: value)
            lowPass.settle(at: 0)
            level = value
            filtersPrimed = true
        }
        let band = lowPass.process(highPass.process(value))
        level += levelAlpha * (value - level)
        history.append(time: time, value: value)
        decide(time: time, band: band, emit: emit)
    }

    /// The phase logic of one internal-rate sample, after the filters, the level and the
    /// history have taken it in.
    @inline(__always)
    private mutating func decide(time: Seconds, band: Float, emit: (StrokeEvent) -> Void) {
        switch phase {
        case .recovery:
            if time - triggerTime > decayAfter {
                driveAmplitude *= amplitudeDecay
                recoveryAmplitude *= amplitudeDecay
                updateThresholds()
            }
            let value = history.value(history.count - 1)
            if value < runMin { runMin = value }
            if band < recoveryTrough { recoveryTrough = band }
            if band < armThreshold { armed = true }
            if let a = announced, time - a.time > 1 { withdraw(emit: emit) }  // no drive followed
            if armed && time - triggerTime >= minimumTriggerInterval
                && Self.risesOutOfADip(value, lowest: runMin, rise: riseNeeded, level: level, dip: dipOffset) {
                announceCatch(now: time, emit: emit)
            }
            if armed && band > driveThreshold && time - triggerTime >= minimumTriggerInterval {
                recogniseDrive(now: time, emit: emit)
            }
        case .drive:
            if band > drivePeak { drivePeak = band }
            if band < 0 || time - triggerTime > 3 { completeStroke(now: time, emit: emit) }
        }
    }

    /// The block path's internal-rate loop: averages `d` samples at a time from `block[i...]`
    /// and runs them through `step`, with the filter state, the level and the thresholds in
    /// local variables and the history written in place; whenever `decide` would do more than
    /// track the trough or the peak (a drive recognised, a stroke completed, amplitudes fading)
    /// the state is written back and `decide` handles that sample. Exactly `step`, sample for
    /// sample. Returns the index of the first sample not taken (fewer than `d` remain).
    @inline(__always)
    private mutating func runSteps(_ block: UnsafeBufferPointer<Float>, from start: Int, decimation d: Int,
                                   startTime: Seconds, sampleInterval: Seconds, emit: (StrokeEvent) -> Void) -> Int {
        let n = block.count
        var i = start
        let scale = 1 / Float(d)
        let centre = Double(d - 1) * 0.5
        let base = UnsafeRawPointer(block.baseAddress!)
        @inline(__always) func average(_ i: Int) -> Float {
            if d == 4 {  // the sum in the order of the loop below (adding to zero is exact)
                let v = base.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<Float>.self)
                return (((v[0] + v[1]) + v[2]) + v[3]) * scale
            }
            var k = 0
            var lanes = SIMD4<Float>.zero
            while k + 4 <= d {
                lanes += base.loadUnaligned(fromByteOffset: (i + k) * 4, as: SIMD4<Float>.self)
                k += 4
            }
            var sum = lanes.sum()
            while k < d { sum += block[i + k]; k += 1 }
            return sum * scale
        }
        if !filtersPrimed && i + d <= n {
            step(time: startTime + (Double(i) + centre) * sampleInterval, value: average(i), emit: emit)
            i += d
        }
        // The two biquads run side by side in the lanes of one vector, pipelined: each pass
        // high-passes the new sample (lane 0) and low-passes the previous one (lane 1) — the
        // same arithmetic, lane by lane, as `Biquad.process`. So the band-passed value, the
        // history and the decision lag one sample behind the input inside the loop.
        let b0 = SIMD4<Float>(highPass.b0, lowPass.b0, 0, 0), b1 = SIMD4<Float>(highPass.b1, lowPass.b1, 0, 0)
        let b2 = SIMD4<Float>(highPass.b2, lowPass.b2, 0, 0)
        let a1 = SIMD4<Float>(highPass.a1, lowPass.a1, 0, 0), a2 = SIMD4<Float>(highPass.a2, lowPass.a2, 0, 0)
        while i + d <= n {
            // Start the pipeline: the first sample's high-pass alone.
            var pendingTime = startTime + (Double(i) + centre) * sampleInterval
            var pendingValue = average(i)
            var highPassed = highPass.process(pendingValue)
            i += d
            var z1 = SIMD4<Float>(highPass.z1, lowPass.z1, 0, 0), z2 = SIMD4<Float>(highPass.z2, lowPass.z2, 0, 0)
            var mean = level
            let alpha = levelAlpha
            var trough = recoveryTrough, peak = drivePeak, isArmed = armed
            let inDrive = phase == .drive
            let trigger = triggerTime, decayFrom = decayAfter, arm = armThreshold, drive = driveThreshold
            let refractory = minimumTriggerInterval
            var lowest = runMin
            let rise = riseNeeded, dip = dipOffset
            var event: (time: Seconds, band: Float)? = nil
            history.withUnsafeRing { ringTimes, ringValues, count in
                let mask = StrokeSignalHistory.mask
                while i &+ d <= n {
                    let value = average(i)
                    let x = SIMD4<Float>(value, highPassed, 0, 0)
                    let (saved1, saved2) = (z1, z2)
                    let y = b0 * x + z1
                    z1 = b1 * x - a1 * y + z2
                    z2 = b2 * x - a2 * y
                    // The pending sample: band-passed, into the level and the history, decided.
                    let band = y[1], time = pendingTime
                    mean += alpha * (pendingValue - mean)
                    ringTimes[count & mask] = time
                    ringValues[count & mask] = pendingValue
                    count &+= 1
                    var special = false
                    if inDrive {
                        if band > peak { peak = band }
                        special = band < 0 || time - trigger > 3
                    } else if time - trigger > decayFrom {
                        special = true
                    } else {
                        if band < trough { trough = band }
                        if band < arm { isArmed = true }
                        if pendingValue < lowest { lowest = pendingValue }
                        special = isArmed && time - trigger >= refractory
                            && (band > drive || Self.risesOutOfADip(pendingValue, lowest: lowest, rise: rise, level: mean, dip: dip))
                    }
                    if special {
                        // The new sample was not taken after all: its high-pass is undone.
                        z1[0] = saved1[0]; z2[0] = saved2[0]
                        event = (time, band)
                        return
                    }
                    pendingTime = startTime + (Double(i) + centre) * sampleInterval
                    pendingValue = value
                    highPassed = y[0]
                    i &+= d
                }
            }
            highPass.z1 = z1[0]; highPass.z2 = z2[0]
            lowPass.z1 = z1[1]; lowPass.z2 = z2[1]
            level = mean
            recoveryTrough = trough; drivePeak = peak; armed = isArmed
            runMin = lowest
            if let e = event {
                decide(time: e.time, band: e.band, emit: emit)
            } else {
                // The block's last whole box, high-passed already: the rest of `step`.
                let band = lowPass.process(highPassed)
                level += levelAlpha * (pendingValue - level)
                history.append(time: pendingTime, value: pendingValue)
                decide(time: pendingTime, band: band, emit: emit)
            }
        }
        return i
    }

    /// Recomputes the thresholds and the refractory period after the amplitudes or the period
    /// changed.
    private mutating func updateThresholds() {
        let fraction = configuration.thresholdFraction
        driveThreshold = max(configuration.minimumDriveAmplitude, fraction * driveAmplitude)
        armThreshold = -max(0.5 * configuration.minimumDriveAmplitude, fraction * recoveryAmplitude)
        minimumTriggerInterval = max(0.8 * 60 / configuration.maximumRate, 0.5 * period)
        decayAfter = max(1.5 * period, 2)
        let announces = configuration.announcesCatches && riseRange > 0 && announced == nil && announcing
        riseNeeded = announces ? configuration.catchRiseFraction * riseRange : .infinity
        dipOffset = configuration.catchDipFraction * riseRange
    }

    private mutating func recogniseDrive(now: Seconds, emit: (StrokeEvent) -> Void) {
        phase = .drive
        triggerTime = now
        drivePeak = 0
        let from = catchSearchStart(now: now)
        if let a = announced {
            // The catch announced on the rise out of it: this drive's (the same dip, timed then).
            if a.time >= from {
                pendingCatch = a
                return
            }
            withdraw(emit: emit)
        }
        pendingCatch = timedCatch(from: from, now: now) ?? (now, history.count - 1)
    }

    /// Whether the averaged surge has risen `rise` out of a dip (its `lowest` since the last
    /// drive) that went at least `dip` below the running mean `level`: the catch's announcement.
    @inline(__always)
    private static func risesOutOfADip(_ value: Float, lowest: Float, rise: Float, level: Float, dip: Float) -> Bool {
        value - lowest >= rise && lowest <= level - dip
    }

    /// The raw samples' interval: as measured, else as designed.
    private var rawInterval: Seconds { intervalEstimate > 0 ? intervalEstimate : designedInterval }

    /// The period from the catch before to `catchTime`, when it is one of a rowing rhythm (no
    /// longer than `minimumRate` allows; a longer gap was a pause and gives no rate).
    private func strokePeriod(to catchTime: Seconds, from previous: Seconds) -> Seconds? {
        let p = catchTime - previous
        return p > 0 && p <= 60 / configuration.minimumRate ? p : nil
    }

    /// Where the catch dip is looked for: at most `catchSearchWindow` (and half the recent
    /// period) back, not before the last drive's finish.
    private func catchSearchStart(now: Seconds) -> Seconds {
        var window = configuration.catchSearchWindow
        if period > 0 { window = min(window, max(0.5 * period, 0.5)) }
        return max(now - window, lastFinish)
    }

    /// The catch: the dip located on the averaged signal within `from...now`, timed on the raw
    /// samples (its history index kept). `nil` when there is no dip.
    private func timedCatch(from: Seconds, now: Seconds) -> (time: Seconds, index: Int)? {
        guard let dip = history.extremum(from: from, to: now, sign: -1) else { return nil }
        let fine = StrokeCatchFit.catchTime(in: raw, near: dip.time, margin: 2 * designedInterval * Double(decimation),
                                            from: from, to: now, interval: rawInterval, level: level)
        return (fine ?? dip.time, dip.index)
    }

    /// The finish: the averaged surge's crossing of its running mean after the drive's peak
    /// (`coarse`), timed on the raw samples as the corner where the drive's fall meets the
    /// recovery (`StrokeFinishFit`); `coarse` itself when the raw samples do not show it.
    private func timedFinish(near coarse: Seconds, after peak: Seconds, now: Seconds) -> Seconds {
        let fine = StrokeFinishFit.finishTime(in: raw, near: coarse, after: peak, to: now, interval: rawInterval)
        return fine ?? coarse
    }

    /// Whether a catch at `catchTime` comes sooner than the rhythm allows a stroke (the rhythm
    /// before, or `restartRate`'s period after a pause): then only a drive at least half as hard
    /// as the last makes it a stroke (`completeStroke`), and its catch is not announced.
    private func soonerThanTheRhythm(_ catchTime: Seconds, after previous: Seconds) -> Bool {
        let expected = rhythm > 0 ? rhythm : 60 / configuration.restartRate
        return catchTime - previous < configuration.plausiblePeriodFraction * expected
    }

    /// The rise out of the catch has begun: the catch is timed as `recogniseDrive` times it and
    /// announced (`.caught`), unless it comes sooner than the rhythm allows a stroke (see
    /// `completeStroke`'s test of a recovery's bump), when the stroke waits for its drive.
    private mutating func announceCatch(now: Seconds, emit: (StrokeEvent) -> Void) {
        announcing = false
        riseNeeded = .infinity
        guard let (catchTime, dipIndex) = timedCatch(from: catchSearchStart(now: now), now: now) else { return }
        var rate: StrokesPerMinute? = nil
        if let previous = lastCatch {
            guard !soonerThanTheRhythm(catchTime, after: previous) else { return }
            rate = strokePeriod(to: catchTime, from: previous).map { 60 / $0 }
        }
        announced = (catchTime, dipIndex)
        emit(StrokeEvent(index: strokeCount + 1, catchTime: catchTime, driveDuration: 0, recoveryDuration: nil,
                         peakAcceleration: 0, strokeRate: rate, stage: .caught))
    }

    /// The catch announced was no stroke: its index is free again.
    private mutating func withdraw(emit: (StrokeEvent) -> Void) {
        guard let a = announced else { return }
        announced = nil
        announcing = false
        riseNeeded = .infinity
        emit(StrokeEvent(index: strokeCount + 1, catchTime: a.time, driveDuration: 0, recoveryDuration: nil,
                         peakAcceleration: 0, strokeRate: nil, stage: .withdrawn))
    }

    private mutating func completeStroke(now: Seconds, emit: (StrokeEvent) -> Void) {
        let catchTime = pendingCatch.time
        // Not a stroke: a bump in the recovery (the crew's slide, a wash) far weaker than the last
        // drive and far sooner than the rhythm allows. After a pause the remembered amplitudes
        // have faded and the thresholds sit at their floor, so without this the first strokes of
        // a restart would each count twice. A real change of rhythm (a sprint, a racing start)
        // comes with drives at least as hard as before.
        if let previous = lastCatch, lastDrivePeak > 0 {
            if soonerThanTheRhythm(catchTime, after: previous)
                && drivePeak < configuration.plausibleDriveFraction * lastDrivePeak {
                phase = .recovery
                armed = false
                recoveryTrough = 0
                withdraw(emit: emit)
                return
            }
        }
        // The first stroke after a pause (or at the start) sets the amplitudes it is remembered
        // by, rather than nudging faded ones.
        let restart = lastCatch.map { catchTime - $0 > 60 / configuration.minimumRate } ?? true
        if restart {
            driveAmplitude = max(driveAmplitude, 0.7 * drivePeak)
            recoveryAmplitude = max(recoveryAmplitude, -0.7 * recoveryTrough)
        }
        let peak = history.extremum(from: catchTime, to: now, sign: 1)
        let finish = peak.flatMap { p in history.downwardCrossing(of: level, after: p.index).map { timedFinish(near: $0, after: p.time, now: now) } } ?? now
        let fraction: Float = 0.3
        driveAmplitude = driveAmplitude == 0 ? drivePeak : driveAmplitude + fraction * (drivePeak - driveAmplitude)
        recoveryAmplitude = recoveryAmplitude == 0 ? -recoveryTrough : recoveryAmplitude + fraction * (-recoveryTrough - recoveryAmplitude)
        var rate: StrokesPerMinute? = nil
        if let previous = lastCatch {
            period = strokePeriod(to: catchTime, from: previous) ?? 0
            if period > 0 { rate = 60 / period }
            // The rhythm follows the period unless it jumped (a pause, a stop and restart).
            rhythm = period > 0 && (rhythm == 0 || (period < 1.6 * rhythm && period > 0.5 * rhythm)) ? period : 0
        }
        // The averaged surge's dip to peak, for announcing the next catches.
        if let p = peak, pendingCatch.index < history.count, pendingCatch.index >= max(0, history.count - StrokeSignalHistory.mask) {
            let range = p.value - history.value(pendingCatch.index)
            if range > 0 { riseRange = riseRange == 0 || restart ? range : riseRange + fraction * (range - riseRange) }
        }
        announced = nil
        announcing = true
        runMin = .infinity
        strokeCount += 1
        emit(StrokeEvent(index: strokeCount, catchTime: catchTime, driveDuration: max(0, finish - catchTime),
                         recoveryDuration: nil, peakAcceleration: peak?.value ?? 0, strokeRate: rate))
        lastCatch = catchTime
        lastDrivePeak = drivePeak
        lastFinish = finish
        phase = .recovery
        armed = false
        recoveryTrough = 0
        updateThresholds()
    }
}
