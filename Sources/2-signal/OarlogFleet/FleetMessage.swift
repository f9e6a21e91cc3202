import OarlogCore
import OarlogDSP
import OarlogWorkouts

/// One message of the fleet, as the boat sends it and the coach and the club read it. On the
/// wire it is a Signal K delta (`SignalKDelta`); `session` and `sequence` let a receiver drop a
/// message it has seen (sent again after a lost connection) and put them back in order.
public struct FleetMessage: Sendable, Equatable {
    /// The boat's topic id (`FleetTopics.boatID`).
    public var boat: String
    /// The boat's name as its crew wrote it, in session and status messages.
    public var boatName: String?
    /// The session the message belongs to: its start, ISO 8601 UTC.
    public var session: String
    /// 1, 2, 3, … per boat and session, over every kind of message.
    public var sequence: Int
    /// UTC of what the message reports (a stroke's catch, a fix), seconds since 1970.
    public var utc: Double
    /// Seconds since the session started (full precision; `utc` travels in milliseconds).
    public var elapsed: Seconds
    public var content: FleetContent

    public init(boat: String, boatName: String? = nil, session: String, sequence: Int, utc: Double, elapsed: Seconds,
                content: FleetContent) {
        self.boat = boat
        self.boatName = boatName
        self.session = session
        self.sequence = sequence
        self.utc = utc
        self.elapsed = elapsed
        self.content = content
    }

    public var kind: FleetMessageKind {
        switch content {
        case .stroke: .stroke
        case .caught: .catch
        case .position: .position
        case .status: .status
        case .note: .note
        case .fence: .fence
        case .session: .session
        case .workout, .interval: .workout
        }
    }
}

public enum FleetContent: Sendable, Equatable {
    case stroke(FleetStroke)
    case caught(FleetCatch)
    case position(FleetPosition)
    case status(FleetStatus)
    case note(String)
    case fence(FleetFenceEvent)
    case session(FleetSessionEvent)
    /// Where the crew is in its plan (the boat's `WorkoutTracker`; its live rate and split too).
    case workout(WorkoutStatus)
    /// A step of the plan rowed, with its figures.
    case interval(WorkoutInterval)
}

/// A stroke as the boat's pipeline concluded it (`StrokeMetrics`).
public struct FleetStroke: Sendable, Equatable {
    public var index: Int
    /// Session time of the catch (the message's `elapsed`).
    public var catchTime: Seconds
    public var strokeRate: StrokesPerMinute?
    public var smoothedRate: StrokesPerMinute?
    public var driveTime: Seconds
    public var recoveryTime: Seconds?
    public var peakAcceleration: MetresPerSecondSquared
    public var split: SecondsPer500m?
    public var distancePerStroke: Metres?
    /// Session distance at the catch.
    public var distance: Metres?
    /// The stroke's quality from the accelerometer (`StrokeQuality`), when it has one.
    public var quality: StrokeQuality?

    public init(index: Int, catchTime: Seconds, strokeRate: StrokesPerMinute?, smoothedRate: StrokesPerMinute?, driveTime: Seconds,
                recoveryTime: Seconds?, peakAcceleration: MetresPerSecondSquared, split: SecondsPer500m?,
                distancePerStroke: Metres?, distance: Metres?, quality: StrokeQuality? = nil) {
        self.quality = quality
        self.index = index
        self.catchTime = catchTime
        self.strokeRate = strokeRate
        self.smoothedRate = smoothedRate
        self.driveTime = driveTime
        self.recoveryTime = recoveryTime
        self.peakAcceleration = peakAcceleration
        self.split = split
        self.distancePerStroke = distancePerStroke
        self.distance = distance
    }

    public init(_ m: StrokeMetrics) {
        self.init(index: m.stroke.index, catchTime: m.stroke.catchTime, strokeRate: m.stroke.strokeRate, smoothedRate: m.smoothedRate,
                  driveTime: m.stroke.driveDuration, recoveryTime: m.stroke.recoveryDuration,
                  peakAcceleration: m.stroke.peakAcceleration, split: m.split, distancePerStroke: m.distancePerStroke,
                  distance: m.distance, quality: m.quality)
    }
}

extension FleetStroke {
    /// The stroke as the pipeline had it.
    public var metrics: StrokeMetrics {
        StrokeMetrics(stroke: StrokeEvent(index: index, catchTime: catchTime, driveDuration: driveTime, recoveryDuration: recoveryTime,
                                          peakAcceleration: peakAcceleration, strokeRate: strokeRate),
                      smoothedRate: smoothedRate, split: split, distancePerStroke: distancePerStroke, distance: distance,
                      quality: quality)
    }
}

/// A stroke at its catch (`AnalyzerEvent.caught`), or a catch withdrawn (`.withdrawn`): what
/// the boat's display counts the moment the blade goes in. Its `stroke` message follows.
public struct FleetCatch: Sendable, Equatable {
    public var index: Int
    /// Session time of the catch (the message's `elapsed`).
    public var catchTime: Seconds
    public var strokeRate: StrokesPerMinute?
    public var smoothedRate: StrokesPerMinute?
    /// The catch was no stroke: its index is free again.
    public var withdrawn: Bool
    public init(index: Int, catchTime: Seconds, strokeRate: StrokesPerMinute?, smoothedRate: StrokesPerMinute?, withdrawn: Bool = false) {
        self.index = index
        self.catchTime = catchTime
        self.strokeRate = strokeRate
        self.smoothedRate = smoothedRate
        self.withdrawn = withdrawn
    }

    public init(_ m: StrokeMetrics) {
        self.init(index: m.stroke.index, catchTime: m.stroke.catchTime, strokeRate: m.stroke.strokeRate, smoothedRate: m.smoothedRate,
                  withdrawn: m.stroke.stage == .withdrawn)
    }

    /// The stroke as the pipeline announced it (`stage` `.caught` or `.withdrawn`).
    public var metrics: StrokeMetrics {
        StrokeMetrics(stroke: StrokeEvent(index: index, catchTime: catchTime, driveDuration: 0, recoveryDuration: nil,
                                          peakAcceleration: 0, strokeRate: strokeRate, stage: withdrawn ? .withdrawn : .caught),
                      smoothedRate: smoothedRate)
    }
}

/// A GPS fix with the session distance at it.
public struct FleetPosition: Sendable, Equatable {
    public var latitude: Degrees
    public var longitude: Degrees
    public var speed: MetresPerSecond?
    /// Course over ground, degrees from true north (radians on the wire, as Signal K has it).
    public var course: Degrees?
    /// Session distance so far.
    public var distance: Metres?
    public init(latitude: Degrees, longitude: Degrees, speed: MetresPerSecond? = nil, course: Degrees? = nil, distance: Metres? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.speed = speed
        self.course = course
        self.distance = distance
    }
}

/// What the boat's display shows now.
public struct FleetStatus: Sendable, Equatable {
    public enum State: String, Sendable, CaseIterable {
        case rowing, paused, ended
    }
    public var state: State
    public var strokes: Int
    public var strokeRate: StrokesPerMinute?
    public var split: SecondsPer500m?
    public var speed: MetresPerSecond?
    public var distance: Metres
    /// The crew's heart rates heard lately, by sensor name (at most `FleetHeartRate.maximumSensors`).
    public var heartRates: [FleetHeartRate]
    public init(state: State, strokes: Int, strokeRate: StrokesPerMinute?, split: SecondsPer500m?, speed: MetresPerSecond?,
                distance: Metres, heartRates: [FleetHeartRate] = []) {
        self.state = state
        self.strokes = strokes
        self.strokeRate = strokeRate
        self.split = split
        self.speed = speed
        self.distance = distance
        self.heartRates = heartRates
    }
}

/// A rower's heart rate as the boat's display shows it: the strap's seat (nil for a single
/// unnamed strap) and its latest beats per minute.
public struct FleetHeartRate: Sendable, Equatable {
    /// A boat has at most eight rowers' straps (and a cox); more are not sent.
    public static let maximumSensors = 9
    public var sensor: String?
    public var bpm: BeatsPerMinute
    public init(sensor: String?, bpm: BeatsPerMinute) {
        self.sensor = sensor
        self.bpm = bpm
    }
}

/// A fence, gate or course event: as a session file keeps it (a dotted name and its fields, e.g.
/// `fence.cross` with `gate`, `speed_mps`, …) and as a person reads it.
public struct FleetFenceEvent: Sendable, Equatable {
    /// `fence.enter`, `fence.exit`, `fence.dwell`, `fence.cross`, `course.segment`, `course.piece`, `course.problem`, …
    public var name: String
    /// The fence or gate (or the course, for a piece).
    public var fence: String
    /// The line a display prints ("crossed gate 500m at 1:49.3").
    public var text: String
    /// The event's fields, in order, as text (numbers with their unit in the key).
    public var fields: [Field]

    public struct Field: Sendable, Equatable {
        public var key: String
        public var value: String
        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    public init(name: String, fence: String, text: String, fields: [Field] = []) {
        self.name = name
        self.fence = fence
        self.text = text
        self.fields = fields
    }
}

/// A session started, or ended with its totals.
public struct FleetSessionEvent: Sendable, Equatable {
    public var started: Bool
    public var title: String
    public var summary: FleetSummary?
    public init(started: Bool, title: String, summary: FleetSummary? = nil) {
        self.started = started
        self.title = title
        self.summary = summary
    }
}

/// A session's totals, as its summary table shows them.
public struct FleetSummary: Sendable, Equatable {
    public var strokes: Int
    public var distance: Metres?
    public var elapsed: Seconds?
    public var averageStrokeRate: StrokesPerMinute?
    public var averageSplit: SecondsPer500m?
    public var maxStrokeRate: StrokesPerMinute?
    public var bestSplit: SecondsPer500m?
    public var distancePerStroke: Metres?
    public var movingTime: Seconds?
    public init(strokes: Int, distance: Metres?, elapsed: Seconds?, averageStrokeRate: StrokesPerMinute?, averageSplit: SecondsPer500m?,
                maxStrokeRate: StrokesPerMinute? = nil, bestSplit: SecondsPer500m? = nil, distancePerStroke: Metres? = nil,
                movingTime: Seconds? = nil) {
        self.strokes = strokes
        self.distance = distance
        self.elapsed = elapsed
        self.averageStrokeRate = averageStrokeRate
        self.averageSplit = averageSplit
        self.maxStrokeRate = maxStrokeRate
        self.bestSplit = bestSplit
        self.distancePerStroke = distancePerStroke
        self.movingTime = movingTime
    }

    public init(_ s: SessionSummary) {
        self.init(strokes: s.strokes, distance: s.distance, elapsed: s.elapsed, averageStrokeRate: s.averageStrokeRate,
                  averageSplit: s.averageSplit, maxStrokeRate: s.maxStrokeRate, bestSplit: s.bestSplit,
                  distancePerStroke: s.distancePerStroke, movingTime: s.movingTime)
    }

    /// As the session's summary (the counts of rejected fixes and gaps are the boat's own business).
    public var sessionSummary: SessionSummary {
        SessionSummary(elapsed: elapsed, distance: distance, strokes: strokes, averageStrokeRate: averageStrokeRate,
                       maxStrokeRate: maxStrokeRate, averageSplit: averageSplit, bestSplit: bestSplit,
                       distancePerStroke: distancePerStroke, movingTime: movingTime)
    }
}
