import OarlogCore

/// The whole rowing DSP in one streaming value: mounting → stroke detection → rate; GPS → speed,
/// split, distance; strokes joined with distance. Feed records in time order.
///
/// Strokes come from the accelerometer, or in GPS-only traces from the device's `.reference`
/// strokes (see `AnalyzerConfiguration.StrokeSource`); GPS-only strokes have no drive data
/// (`driveDuration` and `peakAcceleration` are 0). A stroke spans its catch to the next catch;
/// its figures are: its rate, 60 / (next catch − catch), or none for the first stroke of a piece
/// and a stroke whose period holds a pause (`AnalyzerStrokeRateAverage`, `StrokePauseRule`; at the
/// catch, `.caught` and the display show the stroke just finished); cumulative distance at its
/// catch and distance per stroke, from the distance track at the catch times; split by default
/// (`splitSource` `.fused`) from the fused speed over the stroke where the accelerometer drives
/// it (`RowingAnalyzer+FusedSpeed`), else from the mean receiver (Doppler) speed over the stroke
/// when every fix in it had one, else from the distance per stroke. Memory is bounded and
/// nothing is allocated per sample.
public struct RowingAnalyzer: Sendable {
    public let configuration: AnalyzerConfiguration
    public private(set) var distance: DistanceAccumulator
    /// The device's own distances (reference strokes): the track while no fix has been used.
    public private(set) var deviceTrack = DeviceDistanceTrack()

    /// The trace says the device's own distance is the session's even with positions (a SpeedCoach
    /// whose speed input is its impeller: metadata `distance_source: device`).
    public private(set) var prefersDeviceDistance = false
    /// Whether the device's distances are the session's: asked for, or no fix used.
    private var usesDeviceTrack: Bool {
        deviceTrack.points > 0 && (prefersDeviceDistance || distance.usedFixes == 0)
    }

    /// The distance track strokes are joined to: the GPS's, else (no fix used) the device's own.
    private var track: DistanceHistory { usesDeviceTrack ? deviceTrack.history : distance.history }
    /// Distance is known up to here.
    private var settledTime: Seconds? { usesDeviceTrack ? deviceTrack.history.newestTime : distance.settledTime }
    /// Mounting estimation and stroke detection on the accelerometer.
    var strokeStage: SurgeStrokeDetector
    private var speed: SpeedEstimator
    private var split: SplitCalculator
    private var rate: AnalyzerStrokeRateAverage
    private var totals = SummaryAccumulator()
    /// The fused speed, its recent catches, and its `.speed` events (`RowingAnalyzer+FusedSpeed`).
    var fused: FusedSpeedFilter
    var fusedCatches = RingBuffer<Seconds>(capacity: 16, filler: 0)
    var lastPositionCorrection: Seconds = -.infinity
    var speedEmitted = 0
    var lastSpeedTime: Seconds = -.infinity
    var speedDue: Seconds = .infinity

    private struct PendingStroke: Sendable {
        var stroke: StrokeEvent
        var end: Seconds?
        var smoothedRate: StrokesPerMinute?
        /// From the accelerometer, once the next catch is known (speed not yet anchored).
        var quality: StrokeQuality? = nil
    }
    private var pending: GPSRingBuffer<PendingStroke>
    /// The newest stroke, whose next catch is not known yet.
    private var current: PendingStroke?
    private var referenceIndex = 0
    /// Strokes found so far, as the display counts them (at detection; `totals` at release).
    private var strokesFound = 0
    /// The stroke announced at its catch whose drive is still on (its index, and the smoothed
    /// rate shown at its catch: the stroke just finished's), shown until it is complete.
    private var announced: (index: Int, smoothedRate: StrokesPerMinute?)? = nil
    private var lastReferenceTime: Seconds?
    /// The device's stroke count at its last stroke taken, if it gives counts.
    private var lastReferenceCount: Int?
    private var accelerometerSeen = false
    private var gpsGaps = 0
    private var accelerometerGaps = 0
    private var firstTime: Seconds?
    private(set) var now: Seconds = 0
    private var lastLive: Seconds = -.infinity
    /// `releasePending` finds nothing to release before `now` reaches this (see there).
    private var releaseWaitsUntil: Seconds = -.infinity
    /// The block path's strokes of one run, with the index of the sample that completed each
    /// (room for far more than a run can hold: nothing is allocated per run).
    private var runStrokes: [(index: Int, stroke: StrokeEvent)] = []

    public init(configuration: AnalyzerConfiguration = .init()) {
        self.configuration = configuration
        distance = DistanceAccumulator(configuration: configuration.distance)
        // The display shows each stroke at its catch: the detector announces catches.
        var detection = configuration.strokeDetection
        detection.announcesCatches = true
        strokeStage = SurgeStrokeDetector(mounting: configuration.mounting, detector: detection)
        speed = SpeedEstimator(window: configuration.splitAveraging.windowSeconds ?? 5)
        split = SplitCalculator(averaging: configuration.splitAveraging, minimumSpeed: configuration.stoppedSpeed)
        rate = AnalyzerStrokeRateAverage(strokes: configuration.rateSmoothingStrokes, minimumPeriod: configuration.minimumStrokePeriod,
                                         maximumPeriod: configuration.maximumStrokePeriod)
        // The fused surge's gravity is the mounting's slow one (`FusedSurgeFrame`): nothing to restore.
        fused = FusedSpeedFilter(noise: configuration.fusedSpeedNoise, interval: configuration.speedInterval,
                                 gravityTimeConstant: 0)
        let filler = PendingStroke(stroke: StrokeEvent(index: 0, catchTime: 0, driveDuration: 0, recoveryDuration: nil,
                                                       peakAcceleration: 0, strokeRate: nil), end: nil, smoothedRate: nil)
        pending = GPSRingBuffer(capacity: 64, filler: filler)
        runStrokes.reserveCapacity(64)
    }

    public mutating func process(_ record: TraceRecord, emit: (AnalyzerEvent) -> Void) {
        if case .accel(let sample) = record {
            processAccel(sample, emit: emit)
            return
        }
        if let t = record.time, t.isFinite {
            if firstTime == nil { firstTime = t }
            now = max(now, t)
            totals.observeTime(t)
        }
        switch record {
        case .accel:
            break
        case .fix(let received):
            let fix = configuration.distance.withPlausibleSpeed(received)  // a corrupt row's speed is none
            distance.process(fix)
            correctFusedSpeed(fix)
            releaseWaitsUntil = -.infinity
            if let v = fix.speed { speed.add(time: fix.time, speed: v) }
        case .reference(let r):
            if let d = r.distance {
                deviceTrack.add(time: r.time, distance: d)
                distance.noteDeviceDistance(time: r.time, distance: d)
            }
            if let p = r.power { totals.addPower(p) }
            if usesReferenceStrokes { addReference(r, emit: emit) }
        case .gap(let g):
            switch g.sensor {
            case .gps:
                gpsGaps += 1
                if g.breaksTrack {
                    distance.breakTrack(deviceDistance: g.deviceDistance)
                    resetFusedSpeed()
                }
            case .accelerometer:
                accelerometerGaps += 1
                resetFusedSpeed()
            case .heartRate: break  // a strap's gap takes nothing from the boat's figures
            }
        case .heartRate(let h):
            totals.addHeartRate(h.bpm, sensor: h.sensor)
        case .oarlock(let o):
            totals.addOarlock(o)
        case .metadata(let key, let value):
            if key == "distance_source" { prefersDeviceDistance = value == "device" }
        case .note:
            break
        }
        releasePending(final: false, emit: emit)
        emitSpeedIfDue(emit: emit)
        emitLiveIfDue(emit: emit)
    }

    /// Feeds a run of accelerometer samples, oldest first: exactly `process(.accel(sample))` for
    /// each, without wrapping each in a `TraceRecord` (the fast path for recorded data).
    ///
    /// Once the mounting has settled the samples go through in runs: the mounting estimator
    /// projects a whole run onto the surge axis, the stroke detector takes the run (each stroke
    /// tagged with the sample that completed it), then the analyzer's own per-sample bookkeeping
    /// (time, strokes added at their sample, release of completed strokes, live figures) walks
    /// the run. The three stages do not depend on each other within a run, so this is the same,
    /// event for event, as one sample at a time. Before settling, and for any sample the run
    /// path does not take, `process(.accel(sample))`'s own path.
    public mutating func process(accel samples: UnsafeBufferPointer<AccelSample>, emit: (AnalyzerEvent) -> Void) {
        let n = samples.count
        var i = 0
        let detecting = configuration.strokeSource != .reference
        while i < n {
            var end = n
            var strokes = runStrokes
            runStrokes = []
            if !strokes.isEmpty { strokes.removeAll(keepingCapacity: true) }
            if detecting {
                if strokeStage.takesRuns {
                    end = strokeStage.process(run: samples, from: i, to: n, speed: &fused) { index, stroke in strokes.append((index, stroke)) }
                } else {
                    end = i
                }
                if end == i {
                    runStrokes = strokes
                    processAccel(samples[i], emit: emit)
                    i += 1
                    continue
                }
            }
            bookkeep(samples, from: i, to: end, strokes: strokes, emit: emit)
            runStrokes = strokes
            i = end
        }
    }

    /// The analyzer's own part of `processAccel` for `samples[start..<end]`, whose strokes
    /// (`strokes`, in order, each with the index of the sample that completed it) are known:
    /// time, the strokes added at their sample, release of completed strokes, live figures.
    /// Between strokes, a sample changes only `now` and the latest time until `now` reaches the
    /// time a release or a live event is due (both conditions only grow true as `now` grows), so
    /// the run is scanned for the first such sample with just those two in registers.
    @inline(__always)
    private mutating func bookkeep(_ samples: UnsafeBufferPointer<AccelSample>, from start: Int, to end: Int,
                                   strokes: [(index: Int, stroke: StrokeEvent)], emit: (AnalyzerEvent) -> Void) {
        guard start < end else { return }
        accelerometerSeen = true
        var k = start
        var nextStroke = 0
        let strokeCount = strokes.count
        let liveInterval = configuration.liveInterval
        refreshSpeedDue()
        while k < end {
            let stop = nextStroke < strokeCount ? strokes[nextStroke].index : end
            if k < stop, firstTime != nil, var latest = totals.latestTime {
                // Samples without a stroke: the scan.
                var nowHere = now
                let release = releaseWaitsUntil, liveAfter = lastLive, speedAt = speedDue
                var due = false
                while k < stop {
                    let t = samples[k].time
                    k += 1
                    if t.isFinite {
                        nowHere = max(nowHere, t)
                        latest = max(latest, t)
                        if nowHere >= release || nowHere >= speedAt || (liveInterval > 0 && nowHere - liveAfter >= liveInterval) {
                            due = true
                            break
                        }
                    }
                }
                now = nowHere
                totals.observeTimes(latest: latest)
                if due {
                    if now >= releaseWaitsUntil { releasePending(final: false, emit: emit) }
                    emitSpeedIfDue(emit: emit)
                    emitLiveIfDue(emit: emit)
                }
                continue
            }
            // One sample the plain way: before the first time is known, or a sample that
            // completed strokes.
            let t = samples[k].time
            if t.isFinite {
                if firstTime == nil { firstTime = t }
                now = max(now, t)
                totals.observeTime(t)
            }
            while nextStroke < strokeCount && strokes[nextStroke].index == k {
                add(strokes[nextStroke].stroke, emit: emit)
                nextStroke += 1
            }
            if now >= releaseWaitsUntil { releasePending(final: false, emit: emit) }
            emitSpeedIfDue(emit: emit)
            emitLiveIfDue(emit: emit)
            k += 1
        }
    }

    /// `process(.accel(sample))`.
    @inline(__always)
    private mutating func processAccel(_ sample: AccelSample, emit: (AnalyzerEvent) -> Void) {
        let t = sample.time
        if t.isFinite {
            if firstTime == nil { firstTime = t }
            now = max(now, t)
            totals.observeTime(t)
        }
        accelerometerSeen = true
        if configuration.strokeSource != .reference {
            // Strokes are rare (one per ~2 s): `found` holds the first, the array allocates only
            // when a sample completes two.
            var found: StrokeEvent? = nil
            var more: [StrokeEvent] = []
            let surge = strokeStage.process(sample) { if found == nil { found = $0 } else { more.append($0) } }
            if surge != nil { fused.predict(time: t, surge: strokeStage.fusedSurge) }
            if let stroke = found {
                add(stroke, emit: emit)
                for stroke in more { add(stroke, emit: emit) }
            }
        }
        // Nothing can be released before `releaseWaitsUntil` (no fix since the last look).
        if now >= releaseWaitsUntil { releasePending(final: false, emit: emit) }
        emitSpeedIfDue(emit: emit)
        emitLiveIfDue(emit: emit)
    }

    @inline(__always)
    private mutating func emitLiveIfDue(emit: (AnalyzerEvent) -> Void) {
        if configuration.liveInterval > 0, now - lastLive >= configuration.liveInterval, firstTime != nil {
            lastLive = now
            let figures = currentFigures()
            if let s = figures.split { totals.observeLiveSplit(s) }
            emit(.live(figures))
        }
    }

    public mutating func finish(emit: (AnalyzerEvent) -> Void) {
        if configuration.strokeSource != .reference {
            var found: [StrokeEvent] = []
            strokeStage.finish { found.append($0) }
            for stroke in found { add(stroke, emit: emit) }
        }
        distance.finish()
        if let c = current {  // the last stroke: no next catch, no rate
            if pending.isFull { releaseOldest(emit: emit) }
            pending.append(c)
            current = nil
        }
        releasePending(final: true, emit: emit)
    }

    /// The average stroke curve of the strokes since the last rest (see `StrokeQualityMeter`).
    public var pieceCurve: StrokeCurveAverage { strokeStage.qualityMeter.pieceCurve }

    /// The accelerometer mounting as estimated so far (gravity, surge axis), for a mounting check.
    public var mounting: MountingEstimator { strokeStage.mounting }

    public var summary: SessionSummary {
        totals.summary(distance: usesDeviceTrack ? deviceTrack.distance : distance.usedFixes > 0 ? distance.distance : nil,
                       movingTime: usesDeviceTrack ? deviceTrack.movingTime : distance.usedFixes > 0 ? distance.movingTime : nil,
                       rejectedFixes: distance.rejectedFixes, reanchors: distance.reanchors,
                       gpsGaps: gpsGaps, accelerometerGaps: accelerometerGaps)
    }

    /// Current figures (what a `.live` event carries).
    public var live: LiveFigures {
        var analyzer = self
        return analyzer.currentFigures()
    }

    // `currentFigures`, `averagedSpeed` and `metrics` change nothing, but are `mutating`: a
    // non-mutating method called from a mutating one gets a copy of the whole analyzer (2.7 kB,
    // once per live event and per stroke), a mutating one its address.

    /// `live`.
    private mutating func currentFigures() -> LiveFigures {
        let v = configuration.splitSource == .fused ? fusedLiveSpeed() ?? averagedSpeed() : averagedSpeed()
        let rateNow: StrokesPerMinute?
        if let a = announced {
            rateNow = a.smoothedRate
        } else if let c = current, now - c.stroke.catchTime <= configuration.maximumStrokePeriod {
            rateNow = rate.latest
        } else {
            rateNow = nil
        }
        return LiveFigures(time: now, elapsed: now - (firstTime ?? now),
                           distance: usesDeviceTrack ? deviceTrack.distance : distance.provisionalDistance,
                           speed: v, split: split.split(speed: v), strokeRate: rateNow, strokes: strokesFound)
    }

    private var usesReferenceStrokes: Bool {
        switch configuration.strokeSource {
        case .reference: return true
        case .accelerometer: return false
        case .automatic: return !accelerometerSeen
        }
    }

    /// Speed averaged as configured: receiver speed over the window, else from the distance track.
    private mutating func averagedSpeed() -> MetresPerSecond? {
        let window = configuration.splitAveraging.windowSeconds ?? 5
        var windowSpeed = speed.averageSpeed(now: now)
        if windowSpeed == nil, let settled = settledTime, now - settled <= window + configuration.distance.coarseSmoothingWindow + distance.smoothingLag,
           let d1 = track.distance(at: settled) {
            let start = max(settled - window, track.oldestTime ?? settled)
            if settled - start > 0.5, let d0 = track.distance(at: start) {
                windowSpeed = (d1 - d0) / (settled - start)
            }
        }
        return split.speed(now: now, windowSpeed: windowSpeed, staleAfter: 2 * configuration.maximumStrokePeriod)
    }

    private mutating func addReference(_ r: ReferenceStroke, emit: (AnalyzerEvent) -> Void) {
        if let last = lastReferenceTime, r.time <= last { return }
        // A row that repeats the device's stroke count is no new stroke (a SpeedCoach writes one at
        // the end of each interval, with rate 0); its distance still feeds the device's track.
        if let count = r.strokeCount {
            if let previous = lastReferenceCount, count == previous { return }
            lastReferenceCount = count
        }
        referenceIndex += 1
        lastReferenceTime = r.time
        // Its rate is its own, as a detected stroke's (`add`), not the device's.
        add(StrokeEvent(index: referenceIndex, catchTime: r.time, driveDuration: 0, recoveryDuration: nil,
                        peakAcceleration: 0, strokeRate: nil), emit: emit)
    }

    private mutating func add(_ stroke: StrokeEvent, emit: (AnalyzerEvent) -> Void) {
        lastLive = -.infinity  // the display shows the stroke now, not at the next tick
        switch stroke.stage {
        case .caught:
            announce(stroke, emit: emit)
            return
        case .withdrawn:
            if announced?.index == stroke.index {
                strokesFound -= 1
                announced = nil
                emit(.withdrawn(stroke))
            }
            return
        case .complete:
            // A stroke the detector did not announce (a reference stroke, one found when the
            // mounting settled) is announced now: every stroke reaches the sinks at its catch first.
            if announced?.index != stroke.index {
                var caught = stroke
                caught.stage = .caught
                caught.driveDuration = 0
                caught.peakAcceleration = 0
                announce(caught, emit: emit)
            }
            announced = nil
        }
        noteFusedCatch(stroke.catchTime)
        releaseWaitsUntil = -.infinity
        if var c = current {
            c.end = stroke.catchTime
            (c.stroke.strokeRate, c.smoothedRate) = rate.conclude(period: stroke.catchTime - c.stroke.catchTime)
            if c.stroke.recoveryDuration == nil, c.stroke.driveDuration > 0 {
                let recovery = stroke.catchTime - c.stroke.catchTime - c.stroke.driveDuration
                if recovery > 0 { c.stroke.recoveryDuration = recovery }
            }
            if c.stroke.driveDuration > 0 {
                c.quality = strokeStage.quality(catchTime: c.stroke.catchTime, nextCatch: stroke.catchTime,
                                                driveDuration: c.stroke.driveDuration)
            }
            if pending.isFull { releaseOldest(emit: emit) }
            pending.append(c)
        }
        var newest = stroke
        newest.strokeRate = nil  // its own, at the next catch
        current = PendingStroke(stroke: newest, end: nil, smoothedRate: nil)
    }

    /// Counts and shows a stroke at its catch, and tells the sinks (`.caught`).
    /// Its rate is the stroke just finished (`AnalyzerStrokeRateAverage.preview`).
    private mutating func announce(_ caught: StrokeEvent, emit: (AnalyzerEvent) -> Void) {
        strokesFound += 1
        var stroke = caught
        let smoothed: StrokesPerMinute?
        (stroke.strokeRate, smoothed) = current.map { rate.preview(period: stroke.catchTime - $0.stroke.catchTime) } ?? (nil, nil)
        announced = (stroke.index, smoothed)
        // The distance at the catch only if the track already covers it (a reference stroke
        // replayed behind its fixes); live, it comes with the update.
        let covered = settledTime.map { $0 >= stroke.catchTime } ?? false
        emit(.caught(StrokeMetrics(stroke: stroke, smoothedRate: smoothed,
                                   distance: covered ? track.distance(at: stroke.catchTime) : nil)))
    }

    /// Emits completed strokes whose next catch is covered by the distance track (or that have
    /// waited long enough, or all at the end).
    private mutating func releasePending(final: Bool, emit: (AnalyzerEvent) -> Void) {
        let lag = usesDeviceTrack ? 0 : distance.smoothingLag
            + (distance.isSmoothingCoarsePositions ? configuration.distance.coarseSmoothingWindow / 2 : 0)
        releaseWaitsUntil = -.infinity
        while let p = pending.first {
            let end = p.end ?? p.stroke.catchTime
            let covered = settledTime.map { $0 >= end } ?? false
            let wait = lag + configuration.maximumWaitForGPS
            guard final || covered || now - end > wait else {
                // Until a fix arrives or a stroke is added, only `now` changes: no need to look
                // again before `now - end` can exceed `wait` (a millisecond early, for rounding).
                releaseWaitsUntil = end + wait - 0.001
                return
            }
            releaseOldest(emit: emit)
        }
        releaseWaitsUntil = .infinity  // nothing pending: nothing to do until a stroke is added
    }

    private mutating func releaseOldest(emit: (AnalyzerEvent) -> Void) {
        guard let p = pending.first else { return }
        pending.removeFirst()
        let m = metrics(of: p)
        totals.add(m)
        if let dps = m.distancePerStroke, let end = p.end {
            split.addStroke(end: end, duration: end - p.stroke.catchTime, distance: dps)
        } else if p.end != nil {
            split.resetStrokes()
        }
        emit(.stroke(m))
    }

    private mutating func metrics(of p: PendingStroke) -> StrokeMetrics {
        let start = p.stroke.catchTime
        let startDistance = track.distance(at: start)
        var m = StrokeMetrics(stroke: p.stroke, smoothedRate: p.smoothedRate, distance: startDistance, quality: p.quality)
        guard let end = p.end, end > start, end - start <= configuration.maximumStrokePeriod else { return m }
        if let d0 = startDistance, let d1 = track.distance(at: end) {
            m.distancePerStroke = d1 - d0
        }
        let period = end - start
        // The stroke's mean speed: the receiver's, else from the distance per stroke.
        let meanSpeed = fusedMeanSpeed(from: start, to: end) ?? track.meanReceiverSpeed(from: start, to: end)
            ?? m.distancePerStroke.map { $0 / period }
        if let v = meanSpeed {
            m.split = Double.split(fromSpeed: v, minimumSpeed: configuration.stoppedSpeed)
        }
        m.quality?.meanSpeed = meanSpeed   // anchors the stroke's speed swing
        if m.quality != nil, let v = meanSpeed, let x = fusedExtremes(from: start, to: end) {
            m.quality?.speedBelowMean = max(0, v - x.lowest)
            m.quality?.speedAboveMean = max(0, x.highest - v)
        }
        return m
    }
}
