import OarlogCore

/// Reads BoatCoach's on-the-water CSV export (one row a second, with pieces, strokes and positions).
///
/// (Placeholder: the reader is being written; it refuses every file with a clear error.)
public struct BoatCoachReader: RecordSource, TraceStatisticsReporting {
    public let path: String
    private var counts = TraceReadStatistics()
    public var statistics: TraceReadStatistics { counts }

    public init(path: String) throws {
        self.path = path
        throw TraceError(.unsupportedFormat, file: path, "this format is recognised but not read yet")
    }

    public mutating func next() throws -> TraceRecord? { nil }

    /// BoatCoach's preamble (`Workout data for:`) or its header (`TOTAL Time Since Start BoatCoach`).
    static func recognises(lines: [String]) -> Bool {
        lines.prefix(4).contains { $0.contains("Workout data for:") || $0.contains("TOTAL Time Since Start BoatCoach") }
    }
}
