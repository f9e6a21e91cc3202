/// Keeps at most `limit` of a stream of points whose count is not known beforehand, evenly
/// spread over it, always the first and the last: every `stride`-th point is kept, and when the
/// kept ones fill the buffer every other one is dropped and the stride doubles. Memory stays at
/// `limit` points however long the stream (the report's track of a 10-hour outing).
struct StreamingThinner<Point> {
    let limit: Int
    private(set) var kept: [Point] = []
    private var stride = 1
    private var seen = 0
    private var last: Point?

    init(limit: Int) {
        self.limit = max(2, limit)
        kept.reserveCapacity(self.limit)
    }

    mutating func add(_ point: Point) {
        defer { seen += 1 }
        last = point
        guard seen % stride == 0 else { return }
        if kept.count == limit {
            // Full: every other one goes (the first stays), and the stride doubles.
            kept = kept.enumerated().compactMap { $0.offset % 2 == 0 ? $0.element : nil }
            stride *= 2
            guard seen % stride == 0 else { return }
        }
        kept.append(point)
    }

    /// The kept points, ending with the stream's last (in place of the last kept one when the
    /// buffer is full): at most `limit`.
    var points: [Point] {
        guard let last, (seen - 1) % stride != 0 else { return kept }
        return kept.count < limit ? kept + [last] : kept.dropLast() + [last]
    }

    /// How many points the stream had.
    var count: Int { seen }
}
