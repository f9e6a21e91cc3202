import OarlogCore
import OarlogDSP
import OarlogPipeline
import OarlogWorkouts

/// The streaming heart of every exporter: turns pipeline events into time-ordered export items
/// (points with distance and cadence, strokes with position, laps with totals).
///
/// - Distance: the assembler runs its own `DistanceAccumulator` with the analyzer's settings on
///   the same fixes, so each point's distance is the analyzer's distance at that moment and the
///   last point's equals the summary's. A fix is exported when the accumulator used it (fixes
///   with no fix, bad values, repeated times or rejected as jumps are left out).
/// - Positions: in replay and export (the accumulator smooths) each point and stroke is drawn
///   where the smoothed track puts it, the track the distance is measured on; forward only
///   (live, a test's bare pipeline) the fixes' own positions.
/// - Cadence: the smoothed rate of the latest catch at or before the point.
/// - Laps: `LapRule`; a lap spans from its start to the next lap's start, so the laps partition
///   the session exactly (first record to last record). With a workout plan (the pipeline's
///   tracker sends `.workout(.planned)` first) the laps are its steps instead (`WorkoutLaps`):
///   cut at each step's start, a lap's distance ends at the distance at its boundary
///   (interpolated between fixes), its strokes and mean rate are the tracker's interval's.
/// - Speed: a point's is the boat's fused speed at its time (`AnalyzerEvent.speed`, held in
///   `ExportBoatSpeeds`) when the pipeline gives one, else the receiver's; a stroke's split and
///   mean speed are the analyzer's own (`StrokeMetrics`: from the fused speed sample by sample).
/// - Heart rate and power: a point carries the latest heart rate (5 s) and power (10 s: a device
///   stroke's, else an oarlock's). The records themselves (`ExportReading`) are held back and
///   released in time order with the points and strokes: each counts in its lap's and the
///   session's figures, and each stroke gets the heart rate at its catch and the oarlock stroke
///   nearest it (`StrokeReadings`).
/// - Order: the analyzer releases a stroke only once GPS covers it, so points and strokes are
///   held back `holdBack` seconds of trace time and then released merged in time order.
///   Memory is bounded by that span.
public struct ExportAssembler: Sendable {
    public let configuration: ExportConfiguration

    private struct PendingPoint: Sendable {
        var time: Seconds
        var latitude: Degrees
        var longitude: Degrees
        var altitude: Metres?
        var speed: MetresPerSecond?
        var heartRate: BeatsPerMinute?
        var power: Watts?
    }

    private struct LapState: Sendable {
        var index: Int
        var startTime: Seconds
        var startDistance: Metres
        var distanceMark: Metres
        var strokes = 0
        var ratedStrokes = 0
        var ratedPeriods: Seconds = 0
        var maxRate: StrokesPerMinute?
        var maxSpeed: MetresPerSecond?
        var firstPosition: GeoPoint?
        var lastPosition: GeoPoint?
        var lastDistance: Metres
        var points = 0
        var readings = ReadingTotals()
        /// With a plan: the part of it the lap covers.
        var segment: WorkoutLaps.Segment?
    }

    private var distance: DistanceAccumulator
    private var points = ExportQueue<PendingPoint>()
    private var strokes = ExportQueue<StrokeMetrics>()
    /// Heart rates and power figures, released in time order with the points and strokes.
    private var readings = ExportQueue<ExportReading>()
    private var sessionReadings = ReadingTotals()
    private var strokeReadings = StrokeReadings()
    /// The fused speed, held until the points and strokes it belongs to are released.
    private var fusedSpeeds = ExportBoatSpeeds()
    private var firstTime: Seconds?
    private var now: Seconds = 0
    private var startUTCMetadata: Double?
    private var fixOriginUTC: Double?
    private var title: String?
    private var start: ExportStart?
    private var lap: LapState?
    private var lapCount = 0
    private var lastPoint: ExportPoint?
    private var firstPoint: ExportPoint?
    private var lastStroke: StrokeMetrics?
    private var pointCount = 0
    private var maxSpeed: MetresPerSecond?
    private var finished = false
    /// The plan's laps, from the tracker's events; nil when the session rows no plan.
    private var workout: WorkoutLaps?
    /// The latest heart rate and power heard (a device's stroke's, an oarlock's), put on the next fixes.
    private var latestHeartRate = Latest()
    private var latestPower = Latest()
    private var latestOarlockPower = Latest()
    /// Hard bound on each queue whatever the timing (about 100 s of 100 Hz fixes).
    private static let queueLimit = 10_000

    public init(configuration: ExportConfiguration = ExportConfiguration()) {
        self.configuration = configuration
        var d = configuration.distance
        // A longer history than the analyzer's: points are looked up `holdBack` seconds late.
        d.historyCapacity = max(d.historyCapacity, 8192)
        distance = DistanceAccumulator(configuration: d)
        title = configuration.title
    }

    /// Feeds one pipeline event; `emit` receives whatever became final.
    public mutating func receive(_ event: PipelineEvent, emit: (ExportItem) throws -> Void) throws {
        switch event {
        case .record(let record):
            if let t = record.time, t.isFinite {
                if firstTime == nil { firstTime = t }
                now = max(now, t)
            }
            switch record {
            case .fix(let fix):
                let used = distance.usedFixes
                distance.process(fix)
                if fix.time.isFinite, let u = fix.utc, u.isFinite, fixOriginUTC == nil { fixOriginUTC = u - fix.time }
                if distance.usedFixes > used {
                    points.append(PendingPoint(time: fix.time, latitude: fix.latitude, longitude: fix.longitude,
                                               altitude: fix.altitude.flatMap { $0.isFinite ? $0 : nil },
                                               speed: fix.speed.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil },
                                               heartRate: latestHeartRate.value(at: fix.time, within: 5),
                                               power: latestPower.value(at: fix.time, within: 10)
                                                   ?? latestOarlockPower.value(at: fix.time, within: 10)))
                }
            case .gap(let g) where g.sensor == .gps && g.breaksTrack:
                distance.breakTrack(deviceDistance: g.deviceDistance)  // as the analyzer does
            case .heartRate, .reference, .oarlock:
                if case .reference(let r) = record, let d = r.distance { distance.noteDeviceDistance(time: r.time, distance: d) }
                guard let reading = ExportReading(record) else { break }
                readings.append(reading)
                switch reading {
                case .heartRate(let t, let bpm): latestHeartRate = Latest(time: t, value: bpm)
                case .referencePower(let t, let w): latestPower = Latest(time: t, value: w)
                case .oarlock(let o):
                    if let w = o.power, w.isFinite, w >= 0 { latestOarlockPower = Latest(time: o.time, value: w) }
                }
            case .metadata(let key, let value):
                if key == "start_utc", let utc = UTCTime.parseISO8601(value) { startUTCMetadata = utc }
                if title == nil, key == "title" || key == "session_name", !value.isEmpty { title = value }
            default:
                break
            }
        case .analysis(.stroke(let metrics)):
            strokes.append(metrics)
        case .workout(let event):
            receive(event)
            return
        case .analysis(.speed(let sample)):
            fusedSpeeds.add(sample)
            return
        case .analysis(.live), .analysis(.caught), .analysis(.withdrawn), .fence, .ghost:
            return   // exports are written from concluded strokes
        }
        try release(final: false, emit: emit)
    }

    /// Releases everything held, closes the last lap at the session's last record and emits the
    /// totals. `summary` is the pipeline's.
    public mutating func finish(summary: SessionSummary, emit: (ExportItem) throws -> Void) throws {
        guard !finished else { return }
        finished = true
        distance.finish()
        try release(final: true, emit: emit)
        guard let firstTime else { throw ExportError("the trace has no timed records: nothing to export") }
        if start == nil { try begin(emit: emit) }
        if lap == nil { try openLap(at: firstTime, emit: emit) }
        let endTime = max(now, firstTime + (summary.elapsed ?? 0))
        while let b = workout?.boundary(strictlyBefore: endTime) { try cut(at: b, emit: emit) }
        try closeLap(at: endTime, trigger: .sessionEnd, emit: emit)
        guard let start else { return }
        let total = summary.distance ?? lastPoint?.distance ?? 0
        var figures = sessionReadings.figures
        if let v = summary.averageHeartRate { figures.averageHeartRate = v }
        if let v = summary.maxHeartRate { figures.maxHeartRate = v }
        if let v = summary.averagePower { figures.averagePower = v }
        try emit(.end(ExportTotals(summary: summary, start: start, endTime: endTime, distance: total, laps: lapCount,
                                   points: pointCount, maxSpeed: maxSpeed,
                                   startPosition: firstPoint.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) },
                                   endPosition: lastPoint.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) },
                                   firstPoint: firstPoint, lastPoint: lastPoint, figures: figures)))
    }

    // MARK: - Release in time order

    private mutating func release(final: Bool, emit: (ExportItem) throws -> Void) throws {
        let holdBack = configuration.holdBack + distance.smoothingLag  // the analyzer's strokes wait that much longer
        while true {
            if let r = readings.first?.time, strokes.first.map({ r <= $0.stroke.catchTime }) ?? true,
               points.first.map({ r <= $0.time }) ?? true {
                // A reading goes before a stroke or point at the same time: "at or before".
                guard final || now - r >= holdBack || readings.count > Self.queueLimit else { return }
                try consume(readings.removeFirst(), emit: emit)
            } else if let s = strokes.first, points.first.map({ s.stroke.catchTime <= $0.time }) ?? true {
                let t = s.stroke.catchTime
                guard final || now - t >= holdBack || strokes.count > Self.queueLimit else { return }
                strokes.removeFirst()
                try consume(s, emit: emit)
            } else if let p = points.first {
                let settled = distance.settledTime.map { $0 >= p.time } ?? false
                let waited = now - p.time
                guard final || points.count > Self.queueLimit
                        || (waited >= holdBack && (settled || waited >= 3 * holdBack)) else { return }
                points.removeFirst()
                try consume(p, emit: emit)
            } else {
                return
            }
        }
    }

    private mutating func consume(_ s: StrokeMetrics, emit: (ExportItem) throws -> Void) throws {
        let t = s.stroke.catchTime
        try ensureLap(emit: emit)
        while let b = workout?.boundary(before: t) { try cut(at: b, emit: emit) }
        if workout == nil, case .rests(let pause) = configuration.laps, let previous = lastStroke,
           t - previous.stroke.catchTime >= pause, let current = lap, t > current.startTime {
            try closeLap(at: t, trigger: .rest, emit: emit)
            try openLap(at: t, emit: emit)
        }
        guard var l = lap, let start else { return }
        l.strokes += 1
        if let rate = s.stroke.strokeRate, rate > 0 {
            l.ratedStrokes += 1
            l.ratedPeriods += 60 / rate
        }
        if let r = s.smoothedRate { l.maxRate = max(l.maxRate ?? r, r) }
        lap = l
        lastStroke = s
        var latitude: Degrees?, longitude: Degrees?
        if let smoothed = smoothedPosition(at: t) {
            (latitude, longitude) = (smoothed.latitude, smoothed.longitude)
        } else if let a = lastPoint {
            latitude = a.latitude
            longitude = a.longitude
            if let b = points.first, b.time > a.time, t > a.time, t <= b.time {
                let u = (t - a.time) / (b.time - a.time)
                latitude = a.latitude + u * (b.latitude - a.latitude)
                longitude = a.longitude + u * Geodesy.normalizedLongitudeDifference(b.longitude - a.longitude)
            }
        }
        let figures = strokeReadings.figures(at: t, half: StrokeReadings.halfStroke(s), pending: readings)
        try emit(.stroke(ExportStroke(metrics: s, utc: start.originUTC + t, latitude: latitude, longitude: longitude,
                                      elapsed: t - start.startTime, lap: l.index, heartRate: figures.heartRate,
                                      oarlock: figures.oarlock, power: figures.power)))
    }

    /// A heart rate or power figure: counted in its lap and the session, remembered for the strokes.
    private mutating func consume(_ r: ExportReading, emit: (ExportItem) throws -> Void) throws {
        try ensureLap(emit: emit)
        while let b = workout?.boundary(before: r.time) { try cut(at: b, emit: emit) }
        lap?.readings.add(r)
        sessionReadings.add(r)
        strokeReadings.add(r)
    }

    /// In replay and export (smoothing on): the smoothed track's position at `time`, which the
    /// distance is measured on; forward only, the fixes themselves are drawn (`nil`).
    private func smoothedPosition(at time: Seconds) -> GeoPoint? {
        distance.smoothingLag > 0 ? distance.positions.position(at: time) : nil
    }

    private mutating func consume(_ p: PendingPoint, emit: (ExportItem) throws -> Void) throws {
        try ensureLap(emit: emit)
        while let b = workout?.boundary(before: p.time) { try cut(at: b, emit: emit) }
        guard let start else { return }
        let previousDistance = lastPoint?.distance ?? 0
        let d = max(previousDistance, distance.history.distance(at: p.time) ?? previousDistance)
        fusedSpeeds.discard(before: p.time)
        var speed = fusedSpeeds.speed(at: p.time) ?? p.speed
        if speed == nil, let a = lastPoint, p.time > a.time { speed = (d - a.distance) / (p.time - a.time) }
        var rate: StrokesPerMinute?
        var current: StrokeMetrics?
        if let s = lastStroke {
            let age = p.time - s.stroke.catchTime
            rate = age <= configuration.maximumStrokePeriod ? (s.smoothedRate ?? s.stroke.strokeRate ?? 0) : 0
            if age <= configuration.maximumStrokePeriod { current = s }
        }
        guard var l = lap else { return }
        var p = p  // drawn where the smoothed track the distance is measured on puts it
        if let smoothed = smoothedPosition(at: p.time) { (p.latitude, p.longitude) = (smoothed.latitude, smoothed.longitude) }
        let point = ExportPoint(time: p.time, utc: start.originUTC + p.time, latitude: p.latitude, longitude: p.longitude,
                                altitude: p.altitude, distance: d, speed: speed, strokeRate: rate, lap: l.index,
                                heartRate: p.heartRate, power: p.power, stroke: current)
        try emit(.point(point))
        let position = GeoPoint(latitude: p.latitude, longitude: p.longitude)
        if l.firstPosition == nil { l.firstPosition = position }
        l.lastPosition = position
        l.lastDistance = d
        l.points += 1
        if let v = speed { l.maxSpeed = max(l.maxSpeed ?? v, v) }
        lap = l
        pointCount += 1
        if let v = speed { maxSpeed = max(maxSpeed ?? v, v) }
        if firstPoint == nil { firstPoint = point }
        lastPoint = point
        if workout == nil, case .distance(let every) = configuration.laps, every > 0, d >= l.distanceMark + every {
            try closeLap(at: p.time, trigger: .distance, emit: emit)
            try openLap(at: p.time, emit: emit)
            lap?.distanceMark = (d / every).rounded(.down) * every
        }
    }

    // MARK: - Start and laps

    private mutating func begin(emit: (ExportItem) throws -> Void) throws {
        guard let origin = startUTCMetadata ?? fixOriginUTC else {
            throw ExportError("the trace has no start_utc metadata and no GPS UTC time: cannot put times in the export")
        }
        let s = ExportStart(originUTC: origin, startTime: firstTime ?? 0, title: title, plan: workout?.plan)
        start = s
        try emit(.start(s))
    }

    private mutating func ensureLap(emit: (ExportItem) throws -> Void) throws {
        if start == nil { try begin(emit: emit) }
        if lap == nil { try openLap(at: firstTime ?? 0, segment: workout == nil ? nil : .beforePlan, emit: emit) }
    }

    private mutating func openLap(at time: Seconds, segment: WorkoutLaps.Segment? = nil, distance: Metres? = nil,
                                  emit: (ExportItem) throws -> Void) throws {
        guard let start else { return }
        let d = distance ?? lastPoint?.distance ?? 0
        lap = LapState(index: lapCount, startTime: time, startDistance: d, distanceMark: d, lastDistance: d, segment: segment)
        lapCount += 1
        try emit(.lapStart(index: lapCount - 1, time: time, utc: start.originUTC + time))
    }

    private mutating func closeLap(at time: Seconds, trigger: LapTrigger, emit: (ExportItem) throws -> Void) throws {
        guard let l = lap, let start else { return }
        lap = nil
        let end = max(time, l.startTime)
        var strokes = l.strokes
        var rate: StrokesPerMinute? = l.ratedPeriods > 0 ? 60 * Double(l.ratedStrokes) / l.ratedPeriods : nil
        var intensity = LapIntensity.active
        var step: Int?
        if let segment = l.segment, let plan = workout {
            intensity = plan.intensity(segment)
            if case .step(let n) = segment {
                step = n
                if let interval = workout?.takeInterval(step: n) {
                    strokes = interval.strokes
                    rate = interval.averageStrokeRate
                }
            }
        }
        try emit(.lapEnd(ExportLap(index: l.index, startTime: l.startTime, endTime: end, startUTC: start.originUTC + l.startTime,
                                   endUTC: start.originUTC + end, distance: l.lastDistance - l.startDistance,
                                   strokes: strokes, averageStrokeRate: rate, maxStrokeRate: l.maxRate,
                                   maxSpeed: l.maxSpeed, startPosition: l.firstPosition, endPosition: l.lastPosition,
                                   points: l.points, trigger: trigger, intensity: intensity, workoutStep: step,
                                   figures: l.readings.figures)))
    }

    // MARK: - Workout plan

    /// A tracker event: the plan turns the laps into its steps; the rest feeds `WorkoutLaps`.
    private mutating func receive(_ event: WorkoutEvent) {
        if case .planned(let plan) = event {
            guard workout == nil else { return }
            workout = WorkoutLaps(plan: plan)
            start?.plan = plan
            if lap != nil, lap?.segment == nil { lap?.segment = .beforePlan }
            return
        }
        workout?.receive(event)
    }

    /// Ends the lap at a plan boundary and opens the next segment's lap there. The distance at
    /// the boundary (the accumulator's, interpolated between fixes) ends the one and starts the
    /// other, so step laps have the tracker's metres and the laps still sum to the total. A lap
    /// that has nothing in it yet and starts at the boundary only takes the new segment.
    private mutating func cut(at boundary: WorkoutLaps.Boundary, emit: (ExportItem) throws -> Void) throws {
        guard var l = lap, let plan = workout else { return }
        if l.points == 0, l.strokes == 0, boundary.time <= l.startTime {
            l.segment = boundary.segment
            lap = l
            return
        }
        let time = max(boundary.time, l.startTime)
        let d = max(l.lastDistance, distance.history.distance(at: time) ?? l.lastDistance)
        l.lastDistance = d
        lap = l
        try closeLap(at: time, trigger: plan.trigger(endingAtBoundary: l.segment ?? .beforePlan), emit: emit)
        try openLap(at: time, segment: boundary.segment, distance: d, emit: emit)
    }
}
