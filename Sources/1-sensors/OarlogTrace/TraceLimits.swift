/// The bounds every trace reader holds its input to (docs/TRACE_FORMAT.md, "Limits").
///
/// Two kinds:
/// - **physical plausibility**: values no rowing boat, GPS receiver or accelerometer can
///   produce (a time a year into a session, an acceleration of 10²⁹ m/s², a speed of 1e300 m/s).
///   They never reach the pipeline: a required value beyond its bound makes the row a counted
///   skip (`TraceReadStatistics.SkipReason.implausibleValue`) in the formats where a lone glitch
///   row can be dropped, or an error naming the line where it cannot (Quiske); an optional value
///   beyond its bound is read as unknown and counted (`TraceReadStatistics.droppedValues`).
/// - **resources**: a longest line and, for the readers that must hold a whole file, a largest
///   file and a most records, so that no input makes a reader use unbounded memory or time.
///
/// The bounds are generous for rowing (each says why), far beyond anything a real recording holds,
/// and tight enough that every later stage can rely on them (no overflow, no infinite loop over a
/// 10³⁰⁰-second timeline).
public enum TraceLimits {
    // MARK: Physical plausibility

    /// Longest possible session: 7 days (604,800 s). Times are measured from the trace start
    /// (native: `t`) or from the first record (the foreign formats); no rowing session, not even a
    /// non-stop ocean row logged as one file, lasts a week without a restart.
    public static var maxSessionSeconds: Double { 604_800 }
    /// Largest acceleration on any axis: 2000 m/s² (204 g), the full scale of the highest-range
    /// MEMS accelerometers (ADXL375, ±200 g). A boat's own surge stays within 1–2 g, a phone's
    /// sensor saturates at ±16 g; a larger reading is a corrupt value.
    public static var maxAcceleration: Double { 2_000 }
    /// Fastest boat or GPS speed: 30 m/s (108 km/h). A rowing eight sprints at 6–7 m/s, a coach's
    /// launch at 15–20 m/s.
    public static var maxSpeed: Double { 30 }
    /// Longest distance in a session: 1,000 km (a week of non-stop rowing at 1.65 m/s; ocean crews
    /// cover 100–120 km a day).
    public static var maxDistance: Double { 1_000_000 }
    /// Highest stroke rate: 200 strokes/min (a sprint start reaches 50–60; 200 would be a 0.3 s
    /// stroke).
    public static var maxStrokeRate: Double { 200 }
    /// Slowest split that is still a number: one day per 500 m (devices show very slow splits at
    /// rest; beyond a day it is no longer a pace).
    public static var maxSplit: Double { 86_400 }
    /// Longest distance per stroke: 100 m (a stroke moves a boat 6–12 m).
    public static var maxDistancePerStroke: Double { 100 }
    /// Heart rates kept: 20–250 beats per minute (a resting athlete near 35, a maximum near 210;
    /// outside that a strap has lost contact or a file holds a placeholder such as 0).
    public static var plausibleHeartRate: ClosedRange<Double> { 20...250 }
    /// Highest power of one stroke: 5,000 W (an eight's stroke seat peaks near 1,000 W; a whole
    /// crew's figure stays under 5,000).
    public static var maxPower: Double { 5_000 }
    /// Oar angles kept (catch, finish, slip, wash, effective length, the angle at the peak force):
    /// within ±120° (a sculler's catch reaches −70°, a finish +50°, a whole arc 120°).
    public static var maxAbsoluteOarAngle: Double { 120 }
    /// Highest handle force: 3,000 N (a heavyweight sweep rower peaks near 1,500 N).
    public static var maxHandleForce: Double { 3_000 }
    /// Most work in one stroke at one oarlock: 5,000 J (a sweep rower's stroke does 500–1,000 J).
    public static var maxStrokeWork: Double { 5_000 }
    /// Most strokes in a session: a week at the highest rate (2,016,000).
    public static var maxStrokeCount: Int { 2_016_000 }
    /// Worst horizontal accuracy estimate kept: 100 km (receivers report tens of metres at worst).
    public static var maxHorizontalAccuracy: Double { 100_000 }
    /// Altitude range kept: ±100 km (boats float within a few hundred metres of sea level).
    public static var maxAbsoluteAltitude: Double { 100_000 }
    /// Course (degrees) kept: within ±360°.
    public static var maxAbsoluteCourse: Double { 360 }
    /// UTC range kept (seconds since 1970): 1970-01-01 to 2100-01-01.
    public static var utcRange: ClosedRange<Double> { 0...4_102_444_800 }

    // MARK: Resources

    /// Longest line any reader accepts (`TraceError.lineTooLong`), but for Quiske rows: 64 KiB.
    public static var maxLineBytes: Int { 64 * 1024 }
    /// Longest Quiske row: 1 MiB (three curves of up to `maxQuiskeCurveSamples` samples).
    public static var maxQuiskeLineBytes: Int { 1024 * 1024 }
    /// Most samples in one Quiske curve: 10,000 (one stroke; a real one has about 300 at 100 Hz,
    /// a 6 s stroke at 1 kHz would have 6,000).
    public static var maxQuiskeCurveSamples: Int { 10_000 }
    /// Most curve samples in a whole Quiske file: 4,194,304 (11.6 hours at 100 Hz), 16 MiB as Floats.
    public static var maxQuiskeTotalSamples: Int { 4 * 1024 * 1024 }
    /// Largest Quiske file (it is read whole): 64 MiB (a real file holds about 9 KB per stroke:
    /// 64 MiB is 7,000 strokes, four hours and more).
    public static var maxQuiskeFileBytes: Int { 64 * 1024 * 1024 }
    /// Largest Talos log (it is read whole and sorted): 128 MiB (a real log grows by 3.5 KB/s at
    /// 30 Hz: ten hours; at 100 Hz about three and a half).
    public static var maxTalosFileBytes: Int { 128 * 1024 * 1024 }
    /// Most timed records (accelerometer samples, fixes, counts, notes) in a Talos log: 4,000,000
    /// (11 hours at 100 Hz), about 130 MB held at 32 bytes a record.
    public static var maxTalosRecords: Int { 4_000_000 }
    /// Largest NK LiNK Logbook export (it is read whole to sort its strokes): 64 MiB (a real
    /// one-hour export is under 1 MB).
    public static var maxNKLogbookFileBytes: Int { 64 * 1024 * 1024 }
    /// Most strokes kept from an NK LiNK Logbook export: 200,000 (over 100 hours at 30 spm).
    public static var maxNKLogbookStrokes: Int { 200_000 }

    // MARK: Checks

    /// Whether `t` (seconds from the session's start) lies within a session.
    @inline(__always)
    static func plausibleSessionTime(_ t: Double) -> Bool { t >= 0 && t <= maxSessionSeconds }

    /// Whether an acceleration reading (m/s², any axis) is within any accelerometer's range.
    @inline(__always)
    static func plausibleAcceleration(_ a: Double) -> Bool { abs(a) <= maxAcceleration }

    @inline(__always)
    static func plausibleAcceleration(_ x: Float, _ y: Float, _ z: Float) -> Bool {
        let m = Float(maxAcceleration)
        return abs(x) <= m && abs(y) <= m && abs(z) <= m
    }
}

/// An optional value held to its physical bound: `nil` stays unknown; a value outside the bound
/// becomes unknown and is counted.
struct PlausibleValues {
    /// Values found out of bounds and dropped so far.
    var dropped = 0
    /// false: every value passes (tests of the number parser over the whole Double range).
    var enabled = true

    mutating func within(_ value: Double?, _ range: ClosedRange<Double>) -> Double? {
        guard let value else { return nil }
        if !enabled || range.contains(value) { return value }
        dropped += 1
        return nil
    }

    mutating func speed(_ v: Double?) -> Double? { within(v, 0...TraceLimits.maxSpeed) }
    mutating func distance(_ v: Double?) -> Double? { within(v, 0...TraceLimits.maxDistance) }
    mutating func strokeRate(_ v: Double?) -> Double? { within(v, 0...TraceLimits.maxStrokeRate) }
    mutating func split(_ v: Double?) -> Double? { within(v, 0...TraceLimits.maxSplit) }
    mutating func distancePerStroke(_ v: Double?) -> Double? { within(v, 0...TraceLimits.maxDistancePerStroke) }
    mutating func power(_ v: Double?) -> Double? { within(v, 0...TraceLimits.maxPower) }
    mutating func heartRate(_ v: Double?) -> Double? { within(v, TraceLimits.plausibleHeartRate) }
    mutating func oarAngle(_ v: Double?) -> Double? {
        within(v, -TraceLimits.maxAbsoluteOarAngle...TraceLimits.maxAbsoluteOarAngle)
    }
    mutating func handleForce(_ v: Double?) -> Double? { within(v, 0...TraceLimits.maxHandleForce) }
    mutating func strokeWork(_ v: Double?) -> Double? { within(v, 0...TraceLimits.maxStrokeWork) }
    mutating func course(_ v: Double?) -> Double? {
        within(v, -TraceLimits.maxAbsoluteCourse...TraceLimits.maxAbsoluteCourse)
    }
    mutating func horizontalAccuracy(_ v: Double?) -> Double? { within(v, 0...TraceLimits.maxHorizontalAccuracy) }
    mutating func altitude(_ v: Double?) -> Double? {
        within(v, -TraceLimits.maxAbsoluteAltitude...TraceLimits.maxAbsoluteAltitude)
    }
    mutating func utc(_ v: Double?) -> Double? { within(v, TraceLimits.utcRange) }
    mutating func strokeCount(_ v: Int?) -> Int? {
        guard let v else { return nil }
        if !enabled || (v >= 0 && v <= TraceLimits.maxStrokeCount) { return v }
        dropped += 1
        return nil
    }
}
