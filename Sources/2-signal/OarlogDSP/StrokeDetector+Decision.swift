import OarlogCore

/// What the decision hands on (`StrokeDecision.step` answered `true`): the thresholds, a drive
/// recognised, its catch timed and announced (or withdrawn), the stroke completed and emitted.
extension StrokeDetector {
    /// The phase logic of one internal-rate sample beyond `StrokeDecision.step`, which has just
    /// taken it (and answered `true`), after the filters, the level and the history.
    mutating func decide(time: Seconds, band: Float, emit: (StrokeEvent) -> Void) {
        guard decision.phase == .recovery else {
            completeStroke(now: time, emit: emit)  // the drive's lobe has ended
            return
        }
        let value = history.value(history.count - 1)
        if time - decision.triggerTime > decision.decayAfter {
            driveAmplitude *= amplitudeDecay
            recoveryAmplitude *= amplitudeDecay
            updateThresholds()
        }
        // The running figures: `step` left them for this when a check of the time was due
        // (`handOnFrom`), else took them already, with the same thresholds.
        decision.track(band: band, value: value)
        if decision.announcementExpired(at: time) { withdraw(emit: emit) }  // no drive followed
        if decision.mayTrigger(at: time) && decision.risesOutOfADip(value, level: level) {
            announceCatch(now: time, emit: emit)
        }
        if decision.mayTrigger(at: time) && band > decision.driveThreshold {
            recogniseDrive(now: time, emit: emit)
        }
    }

    /// Recomputes the thresholds and the refractory period after the amplitudes or the period
    /// changed.
    mutating func updateThresholds() {
        let fraction = configuration.thresholdFraction
        decision.driveThreshold = max(configuration.minimumDriveAmplitude, fraction * driveAmplitude)
        decision.armThreshold = -max(0.5 * configuration.minimumDriveAmplitude, fraction * recoveryAmplitude)
        decision.minimumTriggerInterval = max(0.8 * 60 / configuration.maximumRate, 0.5 * period)
        decision.decayAfter = max(1.5 * period, 2)
        let announces = configuration.announcesCatches && riseRange > 0 && announced == nil && announcing
        decision.riseNeeded = announces ? configuration.catchRiseFraction * riseRange : .infinity
        decision.dipOffset = configuration.catchDipFraction * riseRange
    }

    mutating func recogniseDrive(now: Seconds, emit: (StrokeEvent) -> Void) {
        decision.beginDrive(at: now)
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

    /// The raw samples' interval: as measured, else as designed.
    var rawInterval: Seconds { intervalEstimate > 0 ? intervalEstimate : designedInterval }

    /// The period from the catch before to `catchTime`, when it is one of a rowing rhythm (no
    /// longer than `minimumRate` allows; a longer gap was a pause and gives no rate).
    func strokePeriod(to catchTime: Seconds, from previous: Seconds) -> Seconds? {
        let p = catchTime - previous
        return p > 0 && p <= 60 / configuration.minimumRate ? p : nil
    }

    /// Where the catch dip is looked for: at most `catchSearchWindow` (and half the recent
    /// period) back, not before the last drive's finish.
    func catchSearchStart(now: Seconds) -> Seconds {
        var window = configuration.catchSearchWindow
        if period > 0 { window = min(window, max(0.5 * period, 0.5)) }
        return max(now - window, lastFinish)
    }

    /// The catch: the dip located on the averaged signal within `from...now`, timed on the raw
    /// samples (its history index kept). `nil` when there is no dip.
    func timedCatch(from: Seconds, now: Seconds) -> (time: Seconds, index: Int)? {
        guard let dip = history.extremum(from: from, to: now, sign: -1) else { return nil }
        let fine = StrokeCatchFit.catchTime(in: raw, near: dip.time, margin: 2 * designedInterval * Double(decimation),
                                            from: from, to: now, interval: rawInterval, level: level)
        return (fine ?? dip.time, dip.index)
    }

    /// The finish: the averaged surge's crossing of its running mean after the drive's peak
    /// (`coarse`), timed on the raw samples as the corner where the drive's fall meets the
    /// recovery (`StrokeFinishFit`); `coarse` itself when the raw samples do not show it.
    func timedFinish(near coarse: Seconds, after peak: Seconds, now: Seconds) -> Seconds {
        let fine = StrokeFinishFit.finishTime(in: raw, near: coarse, after: peak, to: now, interval: rawInterval)
        return fine ?? coarse
    }

    /// Whether a catch at `catchTime` comes sooner than the rhythm allows a stroke (the rhythm
    /// before, or `restartRate`'s period after a pause): then only a drive at least half as hard
    /// as the last makes it a stroke (`completeStroke`), and its catch is not announced.
    func soonerThanTheRhythm(_ catchTime: Seconds, after previous: Seconds) -> Bool {
        let expected = rhythm > 0 ? rhythm : 60 / configuration.restartRate
        return catchTime - previous < configuration.plausiblePeriodFraction * expected
    }

    /// The rise out of the catch has begun: the catch is timed as `recogniseDrive` times it and
    /// announced (`.caught`), unless it comes sooner than the rhythm allows a stroke (see
    /// `completeStroke`'s test of a recovery's bump), when the stroke waits for its drive.
    mutating func announceCatch(now: Seconds, emit: (StrokeEvent) -> Void) {
        announcing = false
        decision.riseNeeded = .infinity
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
    mutating func withdraw(emit: (StrokeEvent) -> Void) {
        guard let a = announced else { return }
        announced = nil
        announcing = false
        decision.riseNeeded = .infinity
        emit(StrokeEvent(index: strokeCount + 1, catchTime: a.time, driveDuration: 0, recoveryDuration: nil,
                         peakAcceleration: 0, strokeRate: nil, stage: .withdrawn))
    }

    mutating func completeStroke(now: Seconds, emit: (StrokeEvent) -> Void) {
        let catchTime = pendingCatch.time
        // Not a stroke: a bump in the recovery (the crew's slide, a wash) far weaker than the last
        // drive and far sooner than the rhythm allows. After a pause the remembered amplitudes
        // have faded and the thresholds sit at their floor, so without this the first strokes of
        // a restart would each count twice. A real change of rhythm (a sprint, a racing start)
        // comes with drives at least as hard as before.
        if let previous = lastCatch, lastDrivePeak > 0 {
            if soonerThanTheRhythm(catchTime, after: previous)
                && decision.drivePeak < configuration.plausibleDriveFraction * lastDrivePeak {
                decision.endDrive()
                withdraw(emit: emit)
                return
            }
        }
        // The first stroke after a pause (or at the start) sets the amplitudes it is remembered
        // by, rather than nudging faded ones.
        let restart = lastCatch.map { catchTime - $0 > 60 / configuration.minimumRate } ?? true
        if restart {
            driveAmplitude = max(driveAmplitude, 0.7 * decision.drivePeak)
            recoveryAmplitude = max(recoveryAmplitude, -0.7 * decision.recoveryTrough)
        }
        let peak = history.extremum(from: catchTime, to: now, sign: 1)
        let finish = peak.flatMap { p in history.downwardCrossing(of: level, after: p.index).map { timedFinish(near: $0, after: p.time, now: now) } } ?? now
        let fraction: Float = 0.3
        driveAmplitude = driveAmplitude == 0 ? decision.drivePeak : driveAmplitude + fraction * (decision.drivePeak - driveAmplitude)
        recoveryAmplitude = recoveryAmplitude == 0 ? -decision.recoveryTrough : recoveryAmplitude + fraction * (-decision.recoveryTrough - recoveryAmplitude)
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
        decision.runMin = .infinity
        strokeCount += 1
        emit(StrokeEvent(index: strokeCount, catchTime: catchTime, driveDuration: max(0, finish - catchTime),
                         recoveryDuration: nil, peakAcceleration: peak?.value ?? 0, strokeRate: rate))
        lastCatch = catchTime
        lastDrivePeak = decision.drivePeak
        lastFinish = finish
        decision.endDrive()
        updateThresholds()
    }
}
