import OarlogCore

/// One position report (gpsd's TPV) with everything gpsd says about its quality.
///
/// Richer than `GPSFix`: it keeps gpsd's separate error estimates (epx/epy/eps/epv) for the
/// monitor and its JSON; `gpsFix` maps it to the pipeline's fix. Unknown values are `nil`
/// (gpsd marks them NaN); latitude and longitude are NaN when gpsd gave no position.
public struct GPSDReport: Sendable, Equatable {
    /// Monotonic session time at which the report was read from gpsd.
    public var receivedAt: Seconds
    /// Time of the fix, whole nanoseconds since 1970-01-01 UTC, as gpsd gave it (exact).
    public var utcNanoseconds: Int64?
    public var latitude: Degrees
    public var longitude: Degrees
    /// Speed over ground, m/s.
    public var speed: MetresPerSecond?
    /// Course over ground, degrees clockwise from true north.
    public var course: Degrees?
    /// Altitude above mean sea level, metres.
    public var altitude: Metres?
    /// Estimated horizontal position error (gpsd's eph), metres.
    public var horizontalError: Metres?
    /// Estimated longitude (east–west) error (epx), metres.
    public var longitudeError: Metres?
    /// Estimated latitude (north–south) error (epy), metres.
    public var latitudeError: Metres?
    /// Estimated speed error (eps), m/s.
    public var speedError: MetresPerSecond?
    /// Estimated vertical error (epv), metres.
    public var verticalError: Metres?
    public var mode: FixMode
    /// Satellites used in the solution, from gpsd's latest SKY report on this connection.
    public var satellitesUsed: Int?

    public init(receivedAt: Seconds = 0, utcNanoseconds: Int64? = nil, latitude: Degrees, longitude: Degrees,
                speed: MetresPerSecond? = nil, course: Degrees? = nil, altitude: Metres? = nil,
                horizontalError: Metres? = nil, longitudeError: Metres? = nil, latitudeError: Metres? = nil,
                speedError: MetresPerSecond? = nil, verticalError: Metres? = nil,
                mode: FixMode, satellitesUsed: Int? = nil) {
        self.receivedAt = receivedAt
        self.utcNanoseconds = utcNanoseconds
        self.latitude = latitude
        self.longitude = longitude
        self.speed = speed
        self.course = course
        self.altitude = altitude
        self.horizontalError = horizontalError
        self.longitudeError = longitudeError
        self.latitudeError = latitudeError
        self.speedError = speedError
        self.verticalError = verticalError
        self.mode = mode
        self.satellitesUsed = satellitesUsed
    }

    /// UTC of the fix in seconds since 1970 (sub-microsecond for present-day dates).
    public var utc: Double? {
        guard let ns = utcNanoseconds else { return nil }
        let seconds = ns / 1_000_000_000
        return Double(seconds) + Double(ns - seconds * 1_000_000_000) * 1e-9
    }

    /// True when the report carries a usable position (a 2D/3D fix with finite, in-range lat/lon).
    public var hasPosition: Bool {
        (mode == .twoD || mode == .threeD) && latitude.isFinite && longitude.isFinite
            && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// The pipeline's fix: `time` is the session time of receipt, `utc` gpsd's time.
    public var gpsFix: GPSFix {
        GPSFix(time: receivedAt, utc: utc, latitude: latitude, longitude: longitude, speed: speed,
               course: course, horizontalAccuracy: horizontalError, altitude: altitude, mode: mode,
               satellitesUsed: satellitesUsed)
    }
}

extension Double {
    /// `nil` for gpsd's NaN ("unknown") and infinities.
    @inlinable
    var finiteOrNil: Double? { isFinite ? self : nil }
}
