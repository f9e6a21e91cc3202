import OarlogCore

/// Reads the first NK SpeedCoach's CSV export (one row per 20 m: `Interval,Type,Distance(m),Time,Stroke,Rate,...`).
///
/// (Placeholder: the reader is being written; it refuses every file with a clear error.)
public struct SpeedCoachV1Reader: RecordSource, TraceStatisticsReporting {
    public let path: String
    private var counts = TraceReadStatistics()
    public var statistics: TraceReadStatistics { counts }

    public init(path: String) throws {
        self.path = path
        throw TraceError(.unsupportedFormat, file: path, "this format is recognised but not read yet")
    }

    public mutating func next() throws -> TraceRecord? { nil }

    /// The header of the first SpeedCoach's export.
    static func recognises(lines: [String]) -> Bool {
        lines.first?.hasPrefix("Interval,Type,Distance(m),Time,Stroke,Rate") == true
    }
}
