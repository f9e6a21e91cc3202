/// Units used throughout Oarlog. Every quantity carries its unit in its type name, so a value
/// read anywhere says what it measures. These are aliases (zero cost in hot loops); the unit is
/// part of the API contract, and names never mix units.

/// Seconds. Monotonic session/trace time counts from the trace or session origin.
public typealias Seconds = Double
/// Metres (distance, accuracy estimates, altitude).
public typealias Metres = Double
/// Metres per second (boat speed).
public typealias MetresPerSecond = Double
/// Metres per second squared (acceleration). Float: sensors give far less than 24 bits.
public typealias MetresPerSecondSquared = Float
/// Degrees (latitude, longitude, course; course clockwise from true north).
public typealias Degrees = Double
/// Strokes per minute (stroke rate).
public typealias StrokesPerMinute = Double
/// Seconds per 500 metres (a rower's "split").
public typealias SecondsPer500m = Double
/// Hertz (sample rates).
public typealias Hertz = Double

/// Standard gravity, m/s².
public let standardGravity: MetresPerSecondSquared = 9.80665

extension Double {
    /// Converts a speed in m/s into a split in s/500 m; `nil` when the boat is (nearly) stopped.
    @inlinable
    public static func split(fromSpeed speed: MetresPerSecond, minimumSpeed: MetresPerSecond = 0.2) -> SecondsPer500m? {
        guard speed.isFinite, speed >= minimumSpeed else { return nil }
        return 500.0 / speed
    }
}
/// Heart beats per minute.
public typealias BeatsPerMinute = Double
/// Watts (an oar's or a crew's power).
public typealias Watts = Double
/// Newtons (a force on the oar handle).
public typealias Newtons = Double
/// Joules (the work of one stroke).
public typealias Joules = Double
