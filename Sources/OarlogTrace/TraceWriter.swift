import OarlogCore

/// Writes the native CSV trace format (docs/TRACE_FORMAT.md).
/// STUB: the real writer replaces this file.
public struct TraceWriter {
    public init(path: String, metadata: [(key: String, value: String)]) throws {}
    public mutating func write(_ record: TraceRecord) throws {}
    public mutating func close() throws {}
}
