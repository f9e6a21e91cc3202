#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import OarlogCore

/// The input stage: the sample rate followed from the timestamps, the averaging boxes down to
/// the internal rate, the filters designed for it, a gap's reset; and the internal-rate step
/// every averaged sample takes (the filters, the level, the history, the decision).
extension StrokeDetector {
    /// A time gap longer than this resets the detector.
    var gapLimit: Seconds { max(configuration.gapThreshold, 5 * intervalEstimate) }

    /// The first sample after a start or a gap: held until the second gives the interval.
    mutating func holdFirst(time: Seconds, surge: Float) {
        firstSample = (time, surge)
        raw.append(time: time, value: surge)
        lastInputTime = time
    }

    @inline(__always)
    mutating func accumulate(time: Seconds, value: Float, emit: (StrokeEvent) -> Void) {
        boxSum += value
        boxTimeSum += time
        boxCount += 1
        if boxCount >= decimation { flushBox(emit: emit) }
    }

    mutating func flushBox(emit: (StrokeEvent) -> Void) {
        let n = Float(boxCount)
        let value = boxSum / n
        let time = boxTimeSum / Double(boxCount)
        boxSum = 0; boxTimeSum = 0; boxCount = 0
        if designedInterval == 0 { redesign(interval: intervalEstimate > 0 ? intervalEstimate : 1 / configuration.internalRate, emit: emit) }
        step(time: time, value: value, emit: emit)
    }

    /// Chooses the decimation for the input interval and designs the filters for the resulting
    /// internal rate. Filter state is kept (a rate change mid-stream is not a gap).
    mutating func redesign(interval: Seconds, emit: (StrokeEvent) -> Void) {
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
    mutating func reset(emit: (StrokeEvent) -> Void) {
        if decision.phase == .drive, history.count > 0 { completeStroke(now: history.time(history.count - 1), emit: emit) }
        withdraw(emit: emit)
        announcing = true
        boxSum = 0; boxTimeSum = 0; boxCount = 0
        firstSample = nil
        intervalEstimate = 0
        designedInterval = 0
        filtersPrimed = false
        history.removeAll()
        raw.removeAll()
        decision = StrokeDecision()  // its thresholds follow below
        driveAmplitude = 0; recoveryAmplitude = 0
        lastCatch = nil
        lastDrivePeak = 0
        rhythm = 0
        lastFinish = -.infinity
        period = 0
        updateThresholds()
    }

    /// One internal-rate sample: the filters, the level, the history, the decision.
    @inline(__always)
    mutating func step(time: Seconds, value: Float, emit: (StrokeEvent) -> Void) {
        if !filtersPrimed {
            highPass.settle(at: value)
            lowPass.settle(at: 0)
            level = value
            filtersPrimed = true
        }
        let band = lowPass.process(highPass.process(value))
        level += levelAlpha * (value - level)
        history.append(time: time, value: value)
        if decision.step(time: time, band: band, value: value, level: level) { decide(time: time, band: band, emit: emit) }
    }
}
