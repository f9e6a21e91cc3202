/// Anything that yields trace records in time order: a CSV replay, a simulator, a live device
/// reader behind a queue. Pull-based so replay runs as fast as the machine allows and a live
/// source simply blocks until its next record.
public protocol RecordSource {
    /// The next record, or `nil` at the end of the source. Throws on bad input; the error says
    /// where (file, line, column) and what was expected.
    mutating func next() throws -> TraceRecord?
}
