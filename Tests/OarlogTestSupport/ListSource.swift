import OarlogCore

/// A source over a fixed list of records (test input only).
public struct ListSource: RecordSource {
    public var records: [TraceRecord]
    public var position = 0
    public init(_ records: [TraceRecord]) { self.records = records }
    public mutating func next() throws -> TraceRecord? {
        guard position < records.count else { return nil }
        defer { position += 1 }
        return records[position]
    }
}
