/// The bounds a fence file is held to (docs/FENCES.md, "Limits"). A file beyond any of them is
/// refused with a `FenceFileError` naming the feature (or the file), before it can reach the
/// monitor: a fence no rowing venue has (a circle the size of a continent, a dwell of 10³⁰⁸ s)
/// would only turn into overflow or a monitor that never fires, and a file of a million vertices
/// into minutes of checking.
public enum FenceLimits {
    // MARK: Physical

    /// Largest circle radius: 100 km (a rowing lake is a few km across; Lake Geneva is 73 km long).
    public static var maxRadius: Double { 100_000 }
    /// Largest area: every position of a polygon within 100 km of its first position.
    public static var maxAreaExtent: Double { 100_000 }
    /// Longest gate line (its segments together): 10 km (a gate spans a lane or a river, 10–200 m).
    public static var maxGateLength: Double { 10_000 }
    /// Longest dwell time: one day (86,400 s); a longer one can never be reported in an outing.
    public static var maxDwell: Double { 86_400 }
    /// Widest hysteresis margin: 1 km (the default is 2 m; a fix worse than 50 m is not used).
    public static var maxHysteresis: Double { 1_000 }
    /// Largest course distance (`distance_m`): 1,000 km (a regatta course is 2 km, a head race
    /// or a marathon tens of km).
    public static var maxCourseDistance: Double { 1_000_000 }
    /// Largest |direction_deg|: 360°.
    public static var maxAbsoluteDirection: Double { 360 }

    // MARK: Resources

    /// Largest fence file: 16 MiB (100,000 positions written out in full take about 5 MB). Larger
    /// files are refused before they are read.
    public static var maxFileBytes: Int { 16 * 1024 * 1024 }
    /// Most JSON values (numbers, strings, arrays, objects…) in a file: 500,000 (100,000
    /// positions with altitudes are 400,000), so that no file builds a large tree in memory.
    public static var maxJSONValues: Int { 500_000 }
    /// Longest JSON number: 100 characters.
    public static var maxNumberCharacters: Int { 100 }
    /// Longest JSON string: 1 MiB (names, styling and descriptions are far shorter).
    public static var maxStringBytes: Int { 1024 * 1024 }
    /// Most features in a file: 10,000.
    public static var maxFeatures: Int { 10_000 }
    /// Most positions in one feature (a polygon's rings together, or a gate line): 50,000.
    public static var maxPositionsPerFeature: Int { 50_000 }
    /// Most positions in a file: 100,000.
    public static var maxPositionsPerFile: Int { 100_000 }
}
