import OarlogCore

/// Reads a CoxMate per-stroke CSV export (`Stroke,Time,Distance,Rating,Speed,Ratio,Cover,Heart Rate`).
///
/// (Placeholder: the reader is being written; it refuses every file with a clear error.)
public struct CoxMateReader: RecordSource, TraceStatisticsReporting {
    public let path: String
    private var counts = TraceReadStatistics()
    public var statistics: TraceReadStatistics { counts }

    public init(path: String) throws {
        self.path = path
        throw TraceError(.unsupportedFormat, file: path, "this format is recognised but not read yet")
    }

    public mutating func next() throws -> TraceRecord? { nil }

    /// CoxMate's header.
    static func recognises(lines: [String]) -> Bool {
        lines.first?.hasPrefix("Stroke,Time,Distance,Rating,Speed") == true
    }
}
