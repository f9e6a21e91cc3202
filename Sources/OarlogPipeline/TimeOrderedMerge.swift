import OarlogCore

/// Merges several record sources into one stream in time order (a k-way merge on each source's
/// next record). Metadata, which has no time, passes through as soon as it is seen. Ties keep the
/// order of the sources as given. Memory: one look-ahead record per source.
///
/// Time never runs backward downstream: a record older than the last one emitted (a source that
/// itself went backward) is dropped and counted in `droppedOutOfOrder`.
public struct TimeOrderedMerge: RecordSource {
    private var sources: [any RecordSource]
    private var heads: [TraceRecord?]
    private var primed = false
    private var lastTime: Seconds = -.infinity
    public private(set) var droppedOutOfOrder = 0

    public init(_ sources: [any RecordSource]) {
        self.sources = sources
        self.heads = Array(repeating: nil, count: sources.count)
    }

    public mutating func next() throws -> TraceRecord? {
        if !primed {
            primed = true
            for i in sources.indices { heads[i] = try sources[i].next() }
        }
        while true {
            // Metadata first, in source order.
            for i in heads.indices {
                if case .metadata = heads[i] {
                    let record = heads[i]
                    heads[i] = try sources[i].next()
                    return record
                }
            }
            var best = -1
            var bestTime = Seconds.infinity
            for i in heads.indices {
                if let t = heads[i]?.time, t < bestTime {
                    best = i
                    bestTime = t
                }
            }
            guard best >= 0, let record = heads[best] else { return nil }
            heads[best] = try sources[best].next()
            if bestTime < lastTime {
                droppedOutOfOrder += 1
                continue
            }
            lastTime = bestTime
            return record
        }
    }
}
