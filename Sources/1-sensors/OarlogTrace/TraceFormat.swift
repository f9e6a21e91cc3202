/// The trace formats Oarlog reads. The raw value is the name used on the command line.
public enum TraceFormat: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// Oarlog's own CSV trace (docs/TRACE_FORMAT.md).
    case native
    /// NK SpeedCoach GPS Pro "LiNK" CSV export.
    case speedcoach
    /// NK LiNK Logbook CSV export.
    case nkLogbook = "nk-logbook"
    /// Talos Rowing raw log (`wallclock_ms EVENT sensor_ns payload@@`).
    case talos
    /// Quiske per-stroke CSV with boat-acceleration curves.
    case quiske
    /// The first NK SpeedCoach's CSV export.
    case speedcoachV1 = "speedcoach-v1"
    /// BoatCoach on-the-water CSV export.
    case boatcoach
    /// CoxMate per-stroke CSV export.
    case coxmate
    /// Garmin Training Center XML (CrewNerd, Rowing in Motion, Strava, Garmin).
    case tcx
    /// GPX 1.0/1.1 track (with Garmin's TrackPointExtension).
    case gpx
    /// FIT activity file (Garmin's binary format; Oarlog's own FIT exports too).
    case fit

    public var description: String { rawValue }

    /// The format called `name` (as on the command line); throws a message listing the formats.
    public init(name: String) throws {
        guard let format = TraceFormat(rawValue: name.lowercased()) else {
            throw TraceError(.unsupportedFormat, file: name,
                             "unknown trace format; the formats are: \(TraceFormat.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self = format
    }
}
