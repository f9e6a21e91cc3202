import OarlogCore

/// The analyzer's fused speed (`FusedSpeedFilter`): its corrections at the fixes, the live split
/// from it, each stroke's mean speed from it, and its `.speed` events.
///
/// Everything read here comes from the filter's history up to `now` (never its state beyond),
/// so the block path — which predicts a whole run before its bookkeeping walks it — gives
/// exactly what one sample at a time gives.
extension RowingAnalyzer {
    /// Positions only: the distance track's speed over this long corrects the filter.
    static let positionSpeedWindow: Seconds = 3

    /// Corrects the fused speed at a fix: by its Doppler speed, else (positions only) by the
    /// distance track's speed over the last `positionSpeedWindow` it has settled.
    mutating func correctFusedSpeed(_ fix: GPSFix) {
        if let v = fix.speed {
            fused.correct(time: fix.time, receiverSpeed: v)
            return
        }
        let history = distance.history
        guard distance.usedFixes > 0, let settled = history.newestTime, settled > lastPositionCorrection else { return }
        let start = max(settled - Self.positionSpeedWindow, history.oldestTime ?? settled)
        guard settled - start >= 1, let d0 = history.distance(at: start), let d1 = history.distance(at: settled) else { return }
        lastPositionCorrection = settled
        fused.correct(time: fix.time, meanSpeed: (d1 - d0) / (settled - start), from: start, to: settled)
    }

    /// A gap resets the fused speed (the next fix sets it).
    mutating func resetFusedSpeed() {
        fused.reset()
        fusedCatches.removeAll()
        speedDue = .infinity
    }

    /// Notes a complete stroke's catch (the fused split averages over strokes).
    mutating func noteFusedCatch(_ time: Seconds) {
        if let last = fusedCatches.last, time <= last { return }
        fusedCatches.append(time)
    }

    /// The live speed of the fused split: the fused speed over the last complete strokes
    /// (`fusedSplitAveraging` `.strokes(k)`: from the catch k strokes back to the newest catch,
    /// strokes longer than a pause not counted), else over the last seconds (`.seconds(w)`,
    /// or 5 s when there is no recent stroke); `nil` when the accelerometer does not drive it.
    mutating func fusedLiveSpeed() -> MetresPerSecond? {
        let history = fused.history
        let end = history.end(through: now)
        guard end > history.first else { return nil }
        let newest = history.entry(end - 1)
        guard newest.driven else { return nil }
        var window: Seconds = 5
        switch configuration.fusedSplitAveraging {
        case .seconds(let w):
            window = w
        case .strokes(let k):
            if let last = fusedCatches.last, now - last <= 2 * configuration.maximumStrokePeriod {
                var start = last, strokes = 0, i = fusedCatches.count - 2
                while i >= 0 && strokes < max(1, k), start - fusedCatches[i] <= configuration.maximumStrokePeriod {
                    start = fusedCatches[i]
                    strokes += 1
                    i -= 1
                }
                if strokes > 0, let v = history.meanSpeed(from: start, to: last, through: now) { return v }
            }
        }
        let start = max(newest.time - window, history.entry(history.first).time)
        guard newest.time - start >= min(0.5, window) else { return newest.speed }
        return history.meanSpeed(from: start, to: newest.time, through: now)
    }

    /// A stroke's mean speed from the fused speed (`splitSource` `.fused`), if the accelerometer
    /// drove it over the stroke.
    func fusedMeanSpeed(from start: Seconds, to end: Seconds) -> MetresPerSecond? {
        guard configuration.splitSource == .fused else { return nil }
        return fused.history.meanSpeed(from: start, to: end, through: now)
    }

    /// A stroke's lowest and highest speed from the fused speed (`splitSource` `.fused`), if the
    /// accelerometer drove it over the stroke: the speed itself sample by sample (its surge has
    /// gravity frozen, so its swing is the boat's), where the stroke quality meter's swing comes
    /// from the stroke detector's surge (a 5 s gravity, restored) and is off by 2–3 % of it.
    func fusedExtremes(from start: Seconds, to end: Seconds) -> (lowest: MetresPerSecond, highest: MetresPerSecond)? {
        guard configuration.splitSource == .fused else { return nil }
        return fused.history.extremes(from: start, to: end, through: now)
    }

    /// The time of the next fused speed entry not yet looked at (`.infinity` if none).
    mutating func refreshSpeedDue() {
        let history = fused.history
        speedDue = speedEmitted < history.count && configuration.speedInterval > 0
            ? history.entry(max(speedEmitted, history.first)).time : .infinity
    }

    /// Emits the fused speed entries up to `now` that the accelerometer drove (a GPS-only
    /// stretch has none: its speed is the receiver's, which the fixes already carry), at most
    /// every `speedInterval`.
    @inline(__always)
    mutating func emitSpeedIfDue(emit: (AnalyzerEvent) -> Void) {
        let interval = configuration.speedInterval
        guard interval > 0, speedEmitted < fused.history.count else { return }
        let history = fused.history
        var n = max(speedEmitted, history.first)
        while n < history.count {
            let e = history.entry(n)
            if e.time > now { break }
            if e.driven, e.time - lastSpeedTime >= interval - 1e-9 {
                lastSpeedTime = e.time
                emit(.speed(BoatSpeedSample(time: e.time, speed: e.speed)))
            }
            n += 1
        }
        speedEmitted = n
        speedDue = n < history.count ? history.entry(n).time : .infinity
    }
}
