import OarlogCore
import OarlogTrace

/// The native CSV trace reader for the replay benchmark.
/// PENDING: main has no CSV reader yet (helper/trace writes `NativeTraceReader`); until it lands
/// this throws, and the CSV benchmark reports the error instead of a figure.
public struct PendingCSVReader: RecordSource {
    let path: String
    public mutating func next() throws -> TraceRecord? {
        throw BenchDataError("no native CSV trace reader in this build of Oarlog (cannot replay \(path))")
    }
}

public func csvTraceSource(path: String) throws -> PendingCSVReader {
    PendingCSVReader(path: path)
}
