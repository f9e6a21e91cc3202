import OarlogCore
import OarlogTrace

/// The native CSV trace reader the replay benchmarks use: what `oarlog replay` opens for a
/// native trace.
public func csvTraceSource(path: String) throws -> NativeTraceReader {
    try NativeTraceReader(path: path)
}
