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
    /// What a trace was read ahead for: the records read (they come out first), its start in UTC
    /// and the metadata it opens with.
    public struct ReadAhead {
        public var records: LeadingRecords
        /// UTC at trace time 0: the trace's `start_utc`, else its first fix with a UTC time.
        public var startUTC: Double?
        /// The metadata before the first record that is not metadata, in order.
        public var metadata: [(key: String, value: String)]
    }

    /// Reads `source` ahead through its leading metadata and on until its start in UTC is known
    /// (its `start_utc`, else its first fix with a UTC time), at most `limit` records (bounded
    /// memory); those records come out first.
    public static func readingAhead(_ source: any RecordSource, limit: Int = 20_000) throws -> ReadAhead {
        var rest = source
        var buffered: [TraceRecord] = []
        var metadata: [(key: String, value: String)] = []
        var metadataUTC: Double?
        var fixUTC: Double?
        var inMetadata = true
        while buffered.count < limit, inMetadata || (metadataUTC == nil && fixUTC == nil), let r = try rest.next() {
            buffered.append(r)
            switch r {
            case .metadata(let key, let value):
                if inMetadata { metadata.append((key, value)) }
                if key == "start_utc" { metadataUTC = UTCTime.parseISO8601(value) }
            case .fix(let f):
                inMetadata = false
                if fixUTC == nil, let utc = f.utc, utc.isFinite { fixUTC = utc - f.time }
            default: inMetadata = false
            }
        }
        return ReadAhead(records: LeadingRecords(buffered, AnyRecordSource(rest)), startUTC: metadataUTC ?? fixUTC, metadata: metadata)
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
