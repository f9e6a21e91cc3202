import OarlogCore
import OarlogDSP

/// How a session is cut into laps (FIT/TCX laps, GPX track segments, the CSV `Lap` column). A
/// session that rows a workout plan is cut at its steps instead (`ExportAssembler`).
public enum LapRule: Sendable, Equatable {
    /// A new lap begins at the first catch after a pause of at least `minimumPause` between two
    /// catches: one lap per piece of an interval session, the rest belonging to the piece before.
    case rests(minimumPause: Seconds)
    /// A new lap every `metres` of session distance (500 m splits); the fix that crosses the mark
    /// ends the lap.
    case distance(Metres)
    /// One lap for the whole session.
    case whole
}

/// Why a lap ended.
public enum LapTrigger: String, Sendable, Equatable {
    /// The crew started the next piece after a rest (as if the cox pressed "lap" at that catch).
    case rest
    /// The lap reached its distance (`LapRule.distance`).
    case distance
    /// The session ended.
    case sessionEnd = "session_end"
    /// A timed step of the workout plan reached its time.
    case time
    /// The workout plan began (its first catch, or the go): the lap before it ends there.
    case workoutStart = "workout_start"
}

/// What a lap was for the crew: a piece, a rest, a warm-up or a cool-down (FIT `intensity`, TCX
/// `Intensity`). Without a plan every lap is `active`.
public enum LapIntensity: String, Sendable, Equatable {
    case active, rest, warmup, cooldown

    /// The intensity of a plan's step: a piece is `active`.
    public init(_ kind: WorkoutStep.Kind) {
        switch kind {
        case .work: self = .active
        case .rest: self = .rest
        case .warmup: self = .warmup
        case .cooldown: self = .cooldown
        }
    }
}

/// What every exporter needs to agree with the analyzer.
public struct ExportConfiguration: Sendable, Equatable {
    public var laps: LapRule = .rests(minimumPause: 30)
    /// Must be the analyzer's: the exporter books distance along its fixes with the same
    /// accumulator, so track-point distances end exactly at the summary's distance.
    public var distance: DistanceConfiguration
    /// A fix more than this after the latest catch has cadence 0 (the crew is not rowing).
    public var maximumStrokePeriod: Seconds
    /// Points and strokes are held this long (trace time) before they are written, so that the
    /// analyzer's strokes (which wait for GPS) and the distance smoothing have caught up and the
    /// file is written in time order. Memory: at most this span of fixes and strokes.
    public var holdBack: Seconds = 60
    /// A name for the session (GPX track name, TCX notes, GeoJSON properties).
    public var title: String?

    public init(analyzer: AnalyzerConfiguration = AnalyzerConfiguration(), laps: LapRule = .rests(minimumPause: 30),
                title: String? = nil) {
        distance = analyzer.distance
        maximumStrokePeriod = analyzer.maximumStrokePeriod
        self.laps = laps
        self.title = title
    }
}

/// The start of an export: the clock that turns trace times into UTC.
public struct ExportStart: Sendable, Equatable {
    /// UTC (seconds since 1970) of trace time 0: `start_utc`, or from the first fix's own UTC.
    public var originUTC: Double
    /// Trace time of the first record.
    public var startTime: Seconds
    public var title: String?
    /// The workout plan the session rows (FIT `workout` and `workout_step`); nil without one.
    public var plan: WorkoutPlan?
    public var startUTC: Double { originUTC + startTime }
}

/// One GPS fix as exported: where and when, and what the boat was doing there.
public struct ExportPoint: Sendable, Equatable {
    /// Trace time (monotonic seconds from the origin).
    public var time: Seconds
    /// Seconds since 1970 UTC (origin + time).
    public var utc: Double
    public var latitude: Degrees
    public var longitude: Degrees
    public var altitude: Metres?
    /// Session distance at this fix: the analyzer's own accumulator, so the last point's distance
    /// is the summary's distance.
    public var distance: Metres
    /// The boat's fused speed at this fix (`AnalyzerEvent.speed`, interpolated at its time) when
    /// the pipeline gives one; else the receiver's speed, or from the distance between this point
    /// and the previous one.
    public var speed: MetresPerSecond?
    /// Smoothed stroke rate at the latest catch within `maximumStrokePeriod`; 0 after that (not
    /// rowing); `nil` before the session's first stroke.
    public var strokeRate: StrokesPerMinute?
    /// 0-based lap.
    public var lap: Int
    /// The latest heart rate within 5 s before this fix (a strap, or a device's figure); nil without one.
    public var heartRate: BeatsPerMinute? = nil
    /// The latest per-stroke power within 10 s before this fix: a device's stroke's, else an
    /// instrumented oarlock's (EmPower); nil without one.
    public var power: Watts? = nil
    /// The stroke under way at this fix (its catch within `maximumStrokePeriod`), whose figures
    /// the FIT file carries on the record as developer fields; nil when not rowing.
    public var stroke: StrokeMetrics? = nil
}

/// One stroke as exported: the analyzer's figures plus when, where and in which lap.
public struct ExportStroke: Sendable, Equatable {
    public var metrics: StrokeMetrics
    /// UTC of the catch.
    public var utc: Double
    /// Position at the catch, interpolated between the fixes around it (nil without GPS there).
    public var latitude: Degrees?
    public var longitude: Degrees?
    /// Time since the first record.
    public var elapsed: Seconds
    public var lap: Int
    /// The latest heart rate at or before the catch, at most 5 s old.
    public var heartRate: BeatsPerMinute? = nil
    /// The oarlock stroke nearest the catch within half a stroke (`StrokeReadings`).
    public var oarlock: OarlockStroke? = nil
    /// The oarlock's power, else the device's stroke's nearest the catch within half a stroke.
    public var power: Watts? = nil
    /// The stroke's split: the analyzer's (from its fused speed over the stroke, sample by
    /// sample, where the accelerometer drove it; else from the receiver's speed). One rule for
    /// the stroke list, the tables and every export.
    public var split: SecondsPer500m? { metrics.split }

    /// The stroke's mean speed: the analyzer's (the fused speed's, else the mean GPS speed).
    public var meanSpeed: MetresPerSecond? { metrics.quality?.meanSpeed }
}

/// The heart rate and power of a lap or of the session: every heart-rate record counts once;
/// the power figures are the device's strokes' when it gave any, else the oarlocks'.
public struct ExportFigures: Sendable, Equatable {
    public var averageHeartRate: BeatsPerMinute?
    public var maxHeartRate: BeatsPerMinute?
    public var averagePower: Watts?
    public var maxPower: Watts?

    public init(averageHeartRate: BeatsPerMinute? = nil, maxHeartRate: BeatsPerMinute? = nil,
                averagePower: Watts? = nil, maxPower: Watts? = nil) {
        self.averageHeartRate = averageHeartRate
        self.maxHeartRate = maxHeartRate
        self.averagePower = averagePower
        self.maxPower = maxPower
    }

    /// Whether any figure is known.
    public var isEmpty: Bool { averageHeartRate == nil && maxHeartRate == nil && averagePower == nil && maxPower == nil }
}

/// One lap's totals, known when it ends.
public struct ExportLap: Sendable, Equatable {
    /// 0-based.
    public var index: Int
    public var startTime: Seconds
    public var endTime: Seconds
    public var startUTC: Double
    public var endUTC: Double
    /// Distance booked in the lap (its last point's distance − the previous lap's last point's).
    public var distance: Metres
    public var strokes: Int
    /// 60 × strokes with a rate / Σ their periods (pauses excluded), as in the session summary.
    public var averageStrokeRate: StrokesPerMinute?
    /// Highest smoothed rate in the lap.
    public var maxStrokeRate: StrokesPerMinute?
    public var maxSpeed: MetresPerSecond?
    public var startPosition: GeoPoint?
    public var endPosition: GeoPoint?
    public var points: Int
    public var trigger: LapTrigger
    /// `active` without a plan; with one, the step's (`rest` before the plan starts, `active`
    /// after it ends).
    public var intensity: LapIntensity = .active
    /// The plan step (0-based) the lap rows; nil without a plan and for the time before and after it.
    public var workoutStep: Int?
    /// Heart rate and power over the lap's span.
    public var figures = ExportFigures()

    public var elapsed: Seconds { endTime - startTime }
    /// Distance / elapsed time (rests included, as on a FIT lap's timer).
    public var averageSpeed: MetresPerSecond? { elapsed > 0 ? distance / elapsed : nil }
}

/// The whole session's totals, written last.
public struct ExportTotals: Sendable, Equatable {
    public var summary: SessionSummary
    public var start: ExportStart
    public var endTime: Seconds
    /// The summary's distance (0 without GPS).
    public var distance: Metres
    public var laps: Int
    public var points: Int
    public var maxSpeed: MetresPerSecond?
    public var startPosition: GeoPoint?
    public var endPosition: GeoPoint?
    /// Distance of the first and last exported point (the first is 0 unless fixes were ignored).
    public var firstPoint: ExportPoint?
    public var lastPoint: ExportPoint?
    /// Heart rate and power over the session: the summary's where it has them.
    public var figures = ExportFigures()

    public var endUTC: Double { start.originUTC + endTime }
    public var elapsed: Seconds { endTime - start.startTime }
    public var averageSpeed: MetresPerSecond? { elapsed > 0 ? distance / elapsed : nil }
}

/// What the assembler hands to a format writer, in this order: `start`, then for each lap
/// `lapStart`, its points and strokes in time order, `lapEnd`; finally `end`.
public enum ExportItem: Sendable, Equatable {
    case start(ExportStart)
    case lapStart(index: Int, time: Seconds, utc: Double)
    case point(ExportPoint)
    case stroke(ExportStroke)
    case lapEnd(ExportLap)
    case end(ExportTotals)
}
