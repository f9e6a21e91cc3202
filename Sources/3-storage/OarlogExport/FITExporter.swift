import OarlogCore
import OarlogDSP
import OarlogPipeline

/// Writes the session as a FIT activity file: `file_id` (activity), a timer-start `event`, one
/// `record` per GPS fix (timestamp, position in semicircles, distance, speed, altitude, cadence =
/// stroke rate, heart rate and power where known, and the stroke's rowing figures as developer
/// fields: `FITExporter+Rowing.swift`), one `lap` per lap, a timer-stop `event`, one `session` (sport rowing (15),
/// sub-sport generic) and the `activity`. Laps and the session carry their average and maximum
/// heart rate and power when they have any (`FITExporter+Figures.swift`). A session that rows a workout plan also carries the
/// plan (`workout` and one `workout_step` per step, after `file_id`), and its laps are the plan's
/// steps with their intensity and `wkt_step_index` (`FITExporter+Workout.swift`).
///
/// FIT timestamps are whole seconds (rounded down): with GPS faster than 1 Hz several records
/// share a second, as the protocol allows. Durations (elapsed, timer) are in milliseconds and
/// exact; the timer runs through rests (timer time = elapsed time).
public final class FITExporter: AssembledExporter {
    let output: ExportOutput
    var encoder: FITEncoder?
    /// Whether the plan's `workout` messages are written (at the start, else at the end).
    var wroteWorkout = false
    /// Whether the laps carry `wkt_step_index` (the session rows a plan from its start).
    var lapsHaveSteps = false

    /// FIT profile numbers used (messages, fields, enum values).
    enum Profile {
        static let sportRowing: Int64 = 15
        static let subSportGeneric: Int64 = 0
        static let manufacturerDevelopment: Int64 = 255
        static let fileActivity: Int64 = 4
        static let eventTimer: Int64 = 0, eventSession: Int64 = 8, eventLap: Int64 = 9, eventActivity: Int64 = 26
        static let eventTypeStart: Int64 = 0, eventTypeStop: Int64 = 1, eventTypeStopAll: Int64 = 4
        static let lapTriggerManual: Int64 = 0, lapTriggerTime: Int64 = 1, lapTriggerDistance: Int64 = 2
        static let lapTriggerSessionEnd: Int64 = 7
        static let intensityActive: Int64 = 0, intensityRest: Int64 = 1, intensityWarmup: Int64 = 2
        static let intensityCooldown: Int64 = 3
        static let durationTime: Int64 = 0, durationDistance: Int64 = 1
        static let targetSpeed: Int64 = 0, targetOpen: Int64 = 2, targetCadence: Int64 = 3
    }

    typealias F = FITEncoder.Field
    static let fileID = FITEncoder.Definition(localType: 0, globalNumber: 0, fields: [
        F(0, .enumeration), F(1, .uint16), F(2, .uint16), F(4, .uint32),
    ])
    static let event = FITEncoder.Definition(localType: 1, globalNumber: 21, fields: [
        F(253, .uint32), F(0, .enumeration), F(1, .enumeration),
    ])
    static let record = FITEncoder.Definition(localType: 2, globalNumber: 20, fields: [
        F(253, .uint32), F(0, .sint32), F(1, .sint32), F(5, .uint32), F(6, .uint16), F(2, .uint16), F(4, .uint8),
        F(3, .uint8), F(7, .uint16),
    ], developerFields: rowingDeveloperFields)
    static let lap = FITEncoder.Definition(localType: 3, globalNumber: 19, fields: lapFields)
    static let lapFields = [
        F(253, .uint32), F(2, .uint32), F(3, .sint32), F(4, .sint32), F(5, .sint32), F(6, .sint32),
        F(7, .uint32), F(8, .uint32), F(9, .uint32), F(10, .uint32), F(254, .uint16), F(13, .uint16), F(14, .uint16),
        F(0, .enumeration), F(1, .enumeration), F(17, .uint8), F(18, .uint8), F(23, .enumeration), F(24, .enumeration),
        F(25, .enumeration),
    ]
    static let session = FITEncoder.Definition(localType: 4, globalNumber: 18, fields: sessionFields)
    static let sessionFields = [
        F(253, .uint32), F(2, .uint32), F(3, .sint32), F(4, .sint32), F(7, .uint32), F(8, .uint32), F(9, .uint32),
        F(10, .uint32), F(254, .uint16), F(14, .uint16), F(15, .uint16), F(25, .uint16), F(26, .uint16),
        F(0, .enumeration), F(1, .enumeration), F(5, .enumeration), F(6, .enumeration), F(18, .uint8), F(19, .uint8),
        F(28, .enumeration),
    ]
    static let activity = FITEncoder.Definition(localType: 5, globalNumber: 34, fields: [
        F(253, .uint32), F(0, .uint32), F(1, .uint16), F(2, .enumeration), F(3, .enumeration), F(4, .enumeration),
    ])

    public init(path: String, configuration: ExportConfiguration = ExportConfiguration()) throws {
        output = try ExportOutput(path: path, configuration: configuration)
    }

    func finishFormat() throws {
        try encoder?.finish()
    }

    /// A stroke rate as FIT cadence (whole strokes per minute).
    static func cadence(_ rate: StrokesPerMinute?) -> Int64? {
        rate.map { Int64(min(254, max(0, $0.rounded()))) }
    }

    func write(_ item: ExportItem) throws {
        switch item {
        case .start(let start): try writeStart(start)
        case .point(let p): try writeRecord(p)
        case .lapStart, .stroke: break
        case .lapEnd(let l): try writeLap(l)
        case .end(let totals): try writeEnd(totals)
        }
    }

    /// `file_id` and the timer-start `event`; the encoder begins the file.
    private func writeStart(_ start: ExportStart) throws {
        let e = try FITEncoder(file: file)
        encoder = e
        let t = FITEncoder.timestamp(start.startUTC)
        try e.write(Self.fileID) { m in
            m.put(Profile.fileActivity); m.put(Profile.manufacturerDevelopment); m.put(1); m.put(t)
        }
        try writeRowingDescriptions(e)
        if let plan = start.plan {
            try writeWorkout(plan)
            lapsHaveSteps = true
        }
        try e.write(Self.event) { m in
            m.put(t); m.put(Profile.eventTimer); m.put(Profile.eventTypeStart)
        }
    }

    /// One `record` per GPS fix.
    private func writeRecord(_ p: ExportPoint) throws {
        try encoder?.write(Self.record) { m in
            m.put(FITEncoder.timestamp(p.utc))
            m.put(FITEncoder.semicircles(p.latitude))
            m.put(FITEncoder.semicircles(p.longitude))
            m.put(FITEncoder.scaled(p.distance, 100))
            m.put(FITEncoder.scaled(p.speed, 1000))
            m.put(FITEncoder.scaled(p.altitude, 5, offset: 500))
            m.put(Self.cadence(p.strokeRate))
            m.put(p.heartRate.map { Int64($0.rounded()) })
            m.put(p.power.map { Int64($0.rounded()) })
            Self.putRowing(p.stroke, into: &m)
        }
    }

    private func writeLap(_ l: ExportLap) throws {
        let figures = l.figures.isEmpty ? nil : l.figures
        try encoder?.write(Self.lapDefinition(steps: lapsHaveSteps, figures: figures != nil)) { m in
            m.put(FITEncoder.timestamp(l.endUTC))
            m.put(FITEncoder.timestamp(l.startUTC))
            m.putPosition(l.startPosition)
            m.putPosition(l.endPosition)
            m.putElapsedTimerAndDistance(elapsed: l.elapsed, distance: l.distance)
            m.put(Int64(l.strokes))
            m.put(Int64(l.index))
            m.put(FITEncoder.scaled(l.averageSpeed, 1000))
            m.put(FITEncoder.scaled(l.maxSpeed, 1000))
            m.put(Profile.eventLap)
            m.put(Profile.eventTypeStop)
            m.put(Self.cadence(l.averageStrokeRate))
            m.put(Self.cadence(l.maxStrokeRate))
            m.put(Self.intensity(l.intensity))
            switch l.trigger {
            case .rest, .workoutStart: m.put(Profile.lapTriggerManual)
            case .time: m.put(Profile.lapTriggerTime)
            case .distance: m.put(Profile.lapTriggerDistance)
            case .sessionEnd: m.put(Profile.lapTriggerSessionEnd)
            }
            m.put(Profile.sportRowing)
            if lapsHaveSteps { m.put(l.workoutStep.map(Int64.init)) }
            if let figures { m.putFigures(figures) }
        }
    }

    /// The timer-stop `event`, the `session` and the `activity`.
    private func writeEnd(_ totals: ExportTotals) throws {
        guard let e = encoder else { return }
        if let plan = totals.start.plan, !wroteWorkout { try writeWorkout(plan) }
        let end = FITEncoder.timestamp(totals.endUTC)
        let s = totals.summary
        try e.write(Self.event) { m in
            m.put(end); m.put(Profile.eventTimer); m.put(Profile.eventTypeStopAll)
        }
        let figures = totals.figures.isEmpty ? nil : totals.figures
        try e.write(figures == nil ? Self.session : Self.sessionWithFigures) { m in
            m.put(end)
            m.put(FITEncoder.timestamp(totals.start.startUTC))
            m.putPosition(totals.startPosition)
            m.putElapsedTimerAndDistance(elapsed: totals.elapsed, distance: totals.distance)
            m.put(Int64(s.strokes))
            m.put(0)
            m.put(FITEncoder.scaled(totals.averageSpeed, 1000))
            m.put(FITEncoder.scaled(totals.maxSpeed, 1000))
            m.put(0)
            m.put(Int64(totals.laps))
            m.put(Profile.eventSession)
            m.put(Profile.eventTypeStop)
            m.put(Profile.sportRowing)
            m.put(Profile.subSportGeneric)
            m.put(Self.cadence(s.averageStrokeRate))
            m.put(Self.cadence(s.maxStrokeRate))
            m.put(0)  // session trigger: activity end
            if let figures { m.putFigures(figures) }
        }
        try e.write(Self.activity) { m in
            m.put(end); m.put(FITEncoder.scaled(totals.elapsed, 1000)); m.put(1)
            m.put(0); m.put(Profile.eventActivity); m.put(Profile.eventTypeStop)
        }
    }
}

extension FITEncoder.MessageBuilder {
    /// A position as `position_lat` and `position_long`, semicircles (both invalid when unknown).
    mutating func putPosition(_ position: GeoPoint?) {
        put(FITEncoder.semicircles(position?.latitude))
        put(FITEncoder.semicircles(position?.longitude))
    }

    /// A lap's or session's `total_elapsed_time`, `total_timer_time` (ms; the same, as the timer
    /// runs through rests) and `total_distance` (cm).
    mutating func putElapsedTimerAndDistance(elapsed: Seconds, distance: Metres) {
        put(FITEncoder.scaled(elapsed, 1000))
        put(FITEncoder.scaled(elapsed, 1000))
        put(FITEncoder.scaled(distance, 100))
    }
}
