/// A source with a few records in front of another (a session's `start_utc` before its records;
/// the records a trace was read ahead by). The batch path of the rest is passed on once the
/// leading records are out, so a wrapped replay runs as fast as the bare reader.
public struct LeadingRecords<Rest: RecordSource>: RecordSource {
    private var leading: [TraceRecord]
    private var position = 0
    public private(set) var rest: Rest

    public init(_ leading: [TraceRecord], _ rest: Rest) {
        self.leading = leading
        self.rest = rest
    }

    public mutating func next() throws -> TraceRecord? {
        if position < leading.count {
            let record = leading[position]
            position += 1
            if position == leading.count {  // all out: free them
                leading = []
                position = 0
            }
            return record
        }
        return try rest.next()
    }

    public mutating func nextAccelBatch(into buffer: UnsafeMutableBufferPointer<AccelSample>) throws -> Int {
        position < leading.count ? 0 : try rest.nextAccelBatch(into: buffer)
    }
}

extension LeadingRecords where Rest == AnyRecordSource {
    /// Reads `source` ahead until its start in UTC is known (its `start_utc`, else its first fix
    /// with a UTC time), at most `limit` records (bounded memory); those records come out first.
    public static func readingAhead(_ source: any RecordSource, limit: Int = 20_000) throws -> (LeadingRecords, startUTC: Double?) {
        var rest = source
        var buffered: [TraceRecord] = []
        var metadataUTC: Double?
        var fixUTC: Double?
        while buffered.count < limit, metadataUTC == nil, fixUTC == nil, let r = try rest.next() {
            buffered.append(r)
            switch r {
            case .metadata(let key, let value) where key == "start_utc": metadataUTC = UTCTime.parseISO8601(value)
            case .fix(let f): if let utc = f.utc, utc.isFinite { fixUTC = utc - f.time }
            default: break
            }
        }
        return (LeadingRecords(buffered, AnyRecordSource(rest)), metadataUTC ?? fixUTC)
    }
}

/// Any record source behind one concrete type, passing both the record and the batch calls on.
public struct AnyRecordSource: RecordSource {
    public private(set) var base: any RecordSource
    public init(_ base: any RecordSource) { self.base = base }
    public mutating func next() throws -> TraceRecord? { try base.next() }
    public mutating func nextAccelBatch(into buffer: UnsafeMutableBufferPointer<AccelSample>) throws -> Int {
        try base.nextAccelBatch(into: buffer)
    }
}
