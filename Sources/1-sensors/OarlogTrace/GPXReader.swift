import OarlogCore

/// Reads a GPX 1.0/1.1 track, with Garmin's TrackPointExtension (heart rate, cadence).
///
/// (Placeholder: the reader is being written; it refuses every file with a clear error.)
public struct GPXReader: RecordSource, TraceStatisticsReporting {
    public let path: String
    private var counts = TraceReadStatistics()
    public var statistics: TraceReadStatistics { counts }

    public init(path: String, options: TraceOpenOptions = TraceOpenOptions()) throws {
        self.path = path
        throw TraceError(.unsupportedFormat, file: path, "this format is recognised but not read yet")
    }

    public mutating func next() throws -> TraceRecord? { nil }

    /// An XML document whose root is `gpx`.
    static func recognises(lines: [String]) -> Bool {
        lines.prefix(20).contains { $0.contains("<gpx") }
    }
}
