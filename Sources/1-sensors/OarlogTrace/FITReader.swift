import OarlogCore

/// Reads a FIT activity file (records, laps, sessions, sport).
///
/// (Placeholder: the reader is being written; it refuses every file with a clear error.)
public struct FITReader: RecordSource, TraceStatisticsReporting {
    public let path: String
    private var counts = TraceReadStatistics()
    public var statistics: TraceReadStatistics { counts }

    public init(path: String, options: TraceOpenOptions = TraceOpenOptions()) throws {
        self.path = path
        throw TraceError(.unsupportedFormat, file: path, "this format is recognised but not read yet")
    }

    public mutating func next() throws -> TraceRecord? { nil }

    /// Unused for FIT (a binary file is recognised by its header, `TraceOpener.isFIT`).
    static func recognises(lines: [String]) -> Bool {
        false
    }
}
