#if canImport(Glibc)
import Glibc
#endif
import OarlogCore
import OarlogSimulator

/// A trace source with its first records read ahead, so that what a session's metadata needs
/// (its start in UTC) is known before the replay starts; the records read ahead are then
/// replayed first. Reads ahead at most `limit` records (bounded memory).
struct TraceLookAhead: RecordSource {
    private var buffered: [TraceRecord] = []
    private var position = 0
    private(set) var rest: any RecordSource
    /// UTC at trace time 0: the trace's `start_utc`, else its first fix with a UTC time.
    private(set) var startUTC: Double?

    init(_ source: any RecordSource, limit: Int = 20_000) throws {
        rest = source
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
        startUTC = metadataUTC ?? fixUTC
    }

    mutating func next() throws -> TraceRecord? {
        if position < buffered.count {
            let r = buffered[position]
            position += 1
            if position == buffered.count {  // all replayed: free the buffer
                buffered = []
                position = 0
            }
            return r
        }
        return try rest.next()
    }

    /// The wrapped source's batch path, once the records read ahead are all replayed: while some
    /// remain this returns 0, so `next()` gives them first and the order is kept.
    mutating func nextAccelBatch(into buffer: UnsafeMutableBufferPointer<AccelSample>) throws -> Int {
        guard position >= buffered.count else { return 0 }
        return try rest.nextAccelBatch(into: buffer)
    }

    /// Modification time of a file, seconds since 1970 (the fallback start of a trace without UTC).
    static func modificationTime(_ path: String) -> Double? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) * 1e-9
    }
}
