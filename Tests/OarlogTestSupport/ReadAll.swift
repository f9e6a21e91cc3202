import OarlogCore

/// Every record `source` yields, to its end; the source is left there (with its statistics).
public func readAll<S: RecordSource>(_ source: inout S) throws -> [TraceRecord] {
    var records: [TraceRecord] = []
    while let record = try source.next() { records.append(record) }
    return records
}

/// Every record a copy of `source` yields, to its end.
public func readAll<S: RecordSource>(_ source: S) throws -> [TraceRecord] {
    var copy = source
    return try readAll(&copy)
}
