import OarlogCore

/// The path for samples with their own (not necessarily uniform) times, as the mounting
/// estimator gives them.
extension StrokeDetector {
    /// Exactly `process(time: times[k], surge: values[k], emit:)` for each `k` in `0..<count`, in
    /// order; `emit` is also told the `k` whose sample completed the stroke.
    ///
    /// Like `runSteps` on the uniform block path: the input stage (interval tracking, gap and
    /// rate-change checks, the averaging box, the raw history) and the internal-rate stage
    /// (filters, level, signal history, `StrokeDecision.step`) run with their state in local
    /// variables and the histories written in place (`runTimed`); a sample the decision hands
    /// on goes to `decide` with the state written back, and anything uncommon at the input (a
    /// gap, a time that does not advance, a rate change, the first samples after a start or a
    /// gap) through `process(time:surge:emit:)`. The same arithmetic, sample for sample.
    mutating func process(times: UnsafePointer<Seconds>, values: UnsafePointer<Float>, count n: Int,
                          emit: (Int, StrokeEvent) -> Void) {
        var i = 0
        while i < n {
            guard lastInputTime.isFinite, designedInterval > 0, firstSample == nil, filtersPrimed else {
                let k = i
                process(time: times[k], surge: values[k]) { emit(k, $0) }
                i += 1
                continue
            }
            switch runTimed(times: times, values: values, from: &i, to: n) {
            case .end:
                break
            case .decide(let time, let band):
                let k = i - 1
                decide(time: time, band: band) { emit(k, $0) }
            case .plain:
                let k = i
                process(time: times[k], surge: values[k]) { emit(k, $0) }
                i += 1
            }
        }
    }

    /// Where `runTimed` stopped.
    enum TimedStop {
        /// At the end of the samples.
        case end
        /// After a sample `StrokeDecision.step` hands on to `decide` (its internal-rate time and band).
        case decide(time: Seconds, band: Float)
        /// At a sample for `process(time:surge:emit:)`.
        case plain
    }

    /// The samples from `i` on, for as long as they take the common way through the input stage
    /// and the decision step does not hand one on; the state is written back when it stops.
    @inline(__always)
    private mutating func runTimed(times: UnsafePointer<Seconds>, values: UnsafePointer<Float>,
                                   from i: inout Int, to n: Int) -> TimedStop {
        let d = decimation, designed = designedInterval, gapThreshold = configuration.gapThreshold
        // Between these the estimate is certainly within 25 % of the design (the quotient,
        // rounded, is within 0.76…1.24): no division needed to know there is no redesign.
        let surelyAbove = designed * 0.76, surelyBelow = designed * 1.24
        var last = lastInputTime, estimate = intervalEstimate
        var sum = boxSum, timeSum = boxTimeSum, filled = boxCount
        var hp = highPass, lp = lowPass, mean = level
        let alpha = levelAlpha
        // The decision's thresholds, and its running figures in variables of the loop's own.
        let rules = decision
        let inDrive = rules.phase == .drive
        var drivePeak = rules.drivePeak, recoveryTrough = rules.recoveryTrough
        var runMin = rules.runMin, armed = rules.armed
        var stop = TimedStop.end
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
                        stop = .plain
                        return
                    }
                    let next = estimate + 0.1 * (dt - estimate)
                    if !(next > surelyAbove && next < surelyBelow) && abs(next / designed - 1) > 0.25 {
                        stop = .plain  // a redesign
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
                    guard filled >= d else { continue }
                    // `flushBox` and `step`.
                    let boxValue = sum / Float(filled)
                    let boxTime = timeSum / Double(filled)
                    sum = 0; timeSum = 0; filled = 0
                    let band = lp.process(hp.process(boxValue))
                    mean += alpha * (boxValue - mean)
                    historyTimes[historyCount & historyMask] = boxTime
                    historyValues[historyCount & historyMask] = boxValue
                    historyCount &+= 1
                    if rules.step(time: boxTime, band: band, value: boxValue, level: mean, inDrive: inDrive,
                                  drivePeak: &drivePeak, recoveryTrough: &recoveryTrough, runMin: &runMin, armed: &armed) {
                        stop = .decide(time: boxTime, band: band)
                        return
                    }
                }
            }
        }
        lastInputTime = last; intervalEstimate = estimate
        boxSum = sum; boxTimeSum = timeSum; boxCount = filled
        highPass = hp; lowPass = lp
        level = mean
        decision.drivePeak = drivePeak; decision.recoveryTrough = recoveryTrough
        decision.runMin = runMin; decision.armed = armed
        return stop
    }
}
