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
