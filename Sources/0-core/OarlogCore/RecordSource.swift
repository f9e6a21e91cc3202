/// Anything that yields trace records in time order: a CSV replay, a simulator, a live device
/// reader behind a queue. Pull-based so replay runs as fast as the machine allows and a live
/// source simply blocks until its next record.
public protocol RecordSource {
    /// The next record, or `nil` at the end of the source. Throws on bad input; the error says
    /// where (file, line, column) and what was expected.
    mutating func next() throws -> TraceRecord?

    /// The fast path for recorded data: reads the accelerometer samples that come next, up to
    /// `buffer.count`, straight into `buffer`, and returns how many. It stops before anything that
    /// is not an accelerometer sample; 0 means "call `next()`". Sources without a faster way keep
    /// the default, which reads nothing.
    mutating func nextAccelBatch(into buffer: UnsafeMutableBufferPointer<AccelSample>) throws -> Int
}

extension RecordSource {
    public mutating func nextAccelBatch(into buffer: UnsafeMutableBufferPointer<AccelSample>) throws -> Int { 0 }
}
