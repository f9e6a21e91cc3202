/// One accelerometer reading in m/s², in the sensor's own axes (any mounting).
/// `time` is monotonic seconds from the trace/session origin.
public struct AccelSample: Sendable, Equatable {
    public var time: Seconds
    public var x: MetresPerSecondSquared
    public var y: MetresPerSecondSquared
    public var z: MetresPerSecondSquared

    @inlinable
    public init(time: Seconds, x: MetresPerSecondSquared, y: MetresPerSecondSquared, z: MetresPerSecondSquared) {
        self.time = time
        self.x = x
        self.y = y
        self.z = z
    }
}

/// GPS fix quality as gpsd reports it.
public enum FixMode: Int, Sendable, Equatable {
    case unknown = 0, noFix = 1, twoD = 2, threeD = 3
}

/// One GPS fix. Unknown values are `nil` (a CSV empty field, a NaN from gpsd).
public struct GPSFix: Sendable, Equatable {
    /// Monotonic seconds from the trace/session origin (when the fix was received).
    public var time: Seconds
    /// UTC time of the fix as the receiver gave it, seconds since 1970-01-01, if known.
    public var utc: Double?
    public var latitude: Degrees
    public var longitude: Degrees
    /// Speed over ground from the receiver (Doppler), if it gave one.
    public var speed: MetresPerSecond?
    /// Course over ground, degrees clockwise from true north.
    public var course: Degrees?
    /// Horizontal accuracy estimate (gpsd's eph, or a device's accuracy), metres.
    public var horizontalAccuracy: Metres?
    public var altitude: Metres?
    public var mode: FixMode
    public var satellitesUsed: Int?

    public init(time: Seconds, utc: Double? = nil, latitude: Degrees, longitude: Degrees,
                speed: MetresPerSecond? = nil, course: Degrees? = nil, horizontalAccuracy: Metres? = nil,
                altitude: Metres? = nil, mode: FixMode = .unknown, satellitesUsed: Int? = nil) {
        self.time = time
        self.utc = utc
        self.latitude = latitude
        self.longitude = longitude
        self.speed = speed
        self.course = course
        self.horizontalAccuracy = horizontalAccuracy
        self.altitude = altitude
        self.mode = mode
        self.satellitesUsed = satellitesUsed
    }
}

/// A coxswain's note at a moment of the session.
public struct Note: Sendable, Equatable {
    public var time: Seconds
    public var text: String
    public init(time: Seconds, text: String) {
        self.time = time
        self.text = text
    }
}

/// Which sensor a gap concerns.
public enum SensorKind: String, Sendable, Equatable, CaseIterable {
    case accelerometer, gps
    /// A heart-rate strap (its gap is per strap: the gap's reason names the seat).
    case heartRate = "hr"
}

/// A span in which a sensor gave no data although it should have (device lost, FIFO overflow,
/// gpsd restarted). Recorded, never bridged silently.
public struct Gap: Sendable, Equatable {
    public var sensor: SensorKind
    public var start: Seconds
    public var end: Seconds
    public var reason: String
    /// The device recorded nothing in between on purpose (its timer stopped for an interval's
    /// rest, its laps spliced back to back): the GPS track is not joined across, no distance is
    /// added over it. A sensor's outage (false) is joined: the boat went on in the meantime.
    public var breaksTrack: Bool
    /// What the device itself counted across a break (from its last point before to its first
    /// after: a piece's start before its first point), added to the distance there.
    public var deviceDistance: Metres?
    public init(sensor: SensorKind, start: Seconds, end: Seconds, reason: String, breaksTrack: Bool = false,
                deviceDistance: Metres? = nil) {
        self.sensor = sensor
        self.start = start
        self.end = end
        self.reason = reason
        self.breaksTrack = breaksTrack
        self.deviceDistance = deviceDistance
    }
    public var duration: Seconds { max(0, end - start) }
}

/// A stroke as another device recorded it (SpeedCoach, NK LiNK, Talos), kept alongside our own
/// figures for comparison. Any field the device did not give is `nil`.
public struct ReferenceStroke: Sendable, Equatable {
    public var time: Seconds
    /// The device's cumulative distance at this stroke.
    public var distance: Metres?
    public var split: SecondsPer500m?
    public var strokeRate: StrokesPerMinute?
    public var speed: MetresPerSecond?
    /// The device's running stroke count.
    public var strokeCount: Int?
    public var distancePerStroke: Metres?
    /// The stroke's power as the device measured it (an EmPower oarlock), if it did.
    public var power: Watts?
    public init(time: Seconds, distance: Metres? = nil, split: SecondsPer500m? = nil,
                strokeRate: StrokesPerMinute? = nil, speed: MetresPerSecond? = nil,
                strokeCount: Int? = nil, distancePerStroke: Metres? = nil, power: Watts? = nil) {
        self.time = time
        self.distance = distance
        self.split = split
        self.strokeRate = strokeRate
        self.speed = speed
        self.strokeCount = strokeCount
        self.distancePerStroke = distancePerStroke
        self.power = power
    }
}

/// A heart rate at a moment: from a strap live, or from a device's export (per stroke or per
/// second). `sensor` names the strap or the seat ("stroke", "bow", "7") when there are several.
public struct HeartRateSample: Sendable, Equatable {
    public var time: Seconds
    public var bpm: BeatsPerMinute
    public var sensor: String?
    public init(time: Seconds, bpm: BeatsPerMinute, sensor: String? = nil) {
        self.time = time
        self.bpm = bpm
        self.sensor = sensor
    }
}

/// One record of a sensor trace, in time order: what any source (CSV replay, gpsd, IIO) gives
/// the pipeline.
public enum TraceRecord: Sendable, Equatable {
    case accel(AccelSample)
    case fix(GPSFix)
    case note(Note)
    case gap(Gap)
    case reference(ReferenceStroke)
    /// A heart rate (a strap, or a device's figure at a stroke or a second).
    case heartRate(HeartRateSample)
    /// An instrumented oarlock's stroke (power, angles, forces) from a device's export.
    case oarlock(OarlockStroke)
    /// `# key: value` metadata (for example `start_utc`).
    case metadata(key: String, value: String)

    /// Monotonic time of the record; metadata has none.
    public var time: Seconds? {
        switch self {
        case .accel(let s): return s.time
        case .fix(let f): return f.time
        case .note(let n): return n.time
        case .gap(let g): return g.start
        case .reference(let r): return r.time
        case .heartRate(let h): return h.time
        case .oarlock(let o): return o.time
        case .metadata: return nil
        }
    }
}
